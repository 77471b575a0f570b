package fix

import (
	"strings"
	"testing"
	"time"
)

// options: WithColor is removed, and WithWidth is replaced by SetWidth,
// an option of another form. The test of the removed option has no
// purpose left (the model deletes it, with its doc comment); the test of
// WithWidth follows under the new name (the model renames it).
const options = `
-- old/go.mod --
module example.com/m

go 1.22
-- old/opt/opt.go --
package opt

type Options struct {
	Color bool
	Width int
}

func WithColor(o *Options) { o.Color = true }

func WithWidth(o *Options, w int) { o.Width = w }
-- old/opt/opt_test.go --
package opt

import "testing"

// TestWithColor sets the colour.
func TestWithColor(t *testing.T) {
	var o Options
	WithColor(&o)
	if !o.Color {
		t.Fatal("no colour")
	}
}

func TestWithWidth(t *testing.T) {
	var o Options
	WithWidth(&o, 3)
	if o.Width != 3 {
		t.Fatal("width")
	}
}

func TestZero(t *testing.T) {
	var o Options
	if o.Width != 0 {
		t.Fatal("width")
	}
}
-- new/opt/opt.go --
package opt

type Options struct {
	Color bool
	Width int
}

func SetWidth(w int) func(*Options) { return func(o *Options) { o.Width = w } }
`

// TestDeleteAndRename: the engine deletes the block the model says to
// delete and renames the one it renames, and the oracle proves both.
func TestDeleteAndRename(t *testing.T) {
	repo, sc := setup(t, options)
	s := &scripted{t: t, answer: func(block, _ string, _ int) (int, string, time.Duration) {
		switch block {
		case "func TestWithColor":
			return 200, "`ripple: delete`\n", 0
		case "func TestWithWidth":
			return 200, "ripple: rename\n```go\nfunc TestSetWidth(t *testing.T) {\n\tvar o Options\n\tSetWidth(3)(&o)\n\tif o.Width != 3 {\n\t\tt.Fatal(\"width\")\n\t}\n}\n```\n", 0
		}
		t.Errorf("unexpected block %q", block)
		return 200, "", 0
	}}
	res := run(t, repo, sc, modelFor(t, s, 5*time.Second, 0))
	if !res.Proven {
		logPlan(t, res)
		t.Fatalf("not proven; patch:\n%s", res.Patch)
	}
	for _, want := range []string{"-// TestWithColor sets the colour.\n-func TestWithColor(t *testing.T) {", "+func TestSetWidth(t *testing.T) {", "-func TestWithWidth(t *testing.T) {"} {
		if !strings.Contains(res.Patch, want) {
			t.Errorf("patch lacks %q:\n%s", want, res.Patch)
		}
	}
	if strings.Contains(res.Patch, "-func TestZero") {
		t.Errorf("the patch touches TestZero:\n%s", res.Patch)
	}
	notes := map[string]string{}
	for _, b := range res.Blocks() {
		notes[b.Block] = b.Note
	}
	if notes["func TestWithColor"] != "deleted" || notes["func TestWithWidth"] != "renamed to func TestSetWidth" {
		logPlan(t, res)
		t.Errorf("notes %q", notes)
	}
}

// TestRenameRefusals: a rename must bring one declaration of the block's
// kind under a name the scope lacks.
func TestRenameRefusals(t *testing.T) {
	for name, reply := range map[string]string{
		"keeps its name":  "ripple: rename\n```go\nfunc TestWithWidth(t *testing.T) {}\n```\n",
		"a name taken":    "ripple: rename\n```go\nfunc TestZero(t *testing.T) {}\n```\n",
		"another kind":    "ripple: rename\n```go\nvar TestOther = 1\n```\n",
		"two definitions": "ripple: rename\n```go\nfunc TestA(t *testing.T) {}\n\nfunc TestB(t *testing.T) {}\n```\n",
	} {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			repo, sc := setup(t, options)
			s := &scripted{t: t, answer: func(block, _ string, _ int) (int, string, time.Duration) {
				if block == "func TestWithWidth" {
					return 200, reply, 0
				}
				return 200, "ripple: delete", 0
			}}
			res := run(t, repo, sc, modelFor(t, s, 5*time.Second, 0))
			if res.Proven || strings.Contains(res.Patch, "-func TestWithWidth") {
				logPlan(t, res)
				t.Errorf("a bad rename (%s) was taken; patch:\n%s", name, res.Patch)
			}
			if res.Rejected == 0 {
				t.Errorf("no reply rejected")
			}
		})
	}
}

func TestReplyDirective(t *testing.T) {
	for reply, want := range map[string]string{
		"ripple: delete":                          directiveDelete,
		"\n  `ripple: delete`\n":                  directiveDelete,
		"Ripple: Rename\n```go\nfunc B() {}\n```": directiveRename,
		"```go\nripple: delete\n```":              "",
		"I would delete it. ripple: delete":       "",
	} {
		if got, _ := replyDirective(reply); got != want {
			t.Errorf("%q: %q, want %q", reply, got, want)
		}
	}
}
