package fix

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ripple-dev/ripple/internal/check"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang/golang"
	"github.com/ripple-dev/ripple/internal/lang/golang/gobuild"
	"github.com/ripple-dev/ripple/internal/lang/python/pyright"
	"github.com/ripple-dev/ripple/internal/languages"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// clampSeed: the developer's new Scale calls a helper they have not
// written yet.
const clampSeed = `
-- old/go.mod --
module example.com/m

go 1.22
-- old/lim/lim.go --
package lim

// Floor is the least value.
const Floor = 0
-- old/num/num.go --
package num

func Scale(x int) int { return 2 * x }

func Show(x int) string { return string(rune('0' + x)) }
-- new/num/num.go --
package num

func Scale(x int) int { return clamp(2*x, 100) }

func Show(x int) string { return string(rune('0' + x)) }
`

const goodClamp = "```go\nimport \"example.com/m/lim\"\n\n// clamp bounds x by limit.\nfunc clamp(x, limit int) int {\n\treturn max(lim.Floor, min(x, limit))\n}\n```\n"

// TestDeclareMissingHelper: a name the seed uses and nobody declares
// becomes an obligation to declare it; the reply is appended to the
// file, its import added, and the oracle proves it.
func TestDeclareMissingHelper(t *testing.T) {
	repo, sc := setup(t, clampSeed)
	s := &scripted{t: t, answer: func(block, prompt string, _ int) (int, string, time.Duration) {
		if block != "new clamp" {
			t.Errorf("unexpected block %q", block)
		}
		return 200, goodClamp, 0
	}}
	res := run(t, repo, sc, modelFor(t, s, 5*time.Second, 0))
	if !res.Proven || res.ByModel != 1 {
		logPlan(t, res)
		t.Fatalf("proven %v, by model %d; notes %v; oracle %+v", res.Proven, res.ByModel, res.Notes, res.Oracle)
	}
	ob := res.Obligations[0]
	if ob.Declare != "clamp" || ob.Path != "num/num.go" {
		t.Errorf("obligation %+v, want to declare clamp in num/num.go", ob)
	}
	// tied to the seed change that uses it (the Action commits it with it)
	if c := ob.Cause(); c == nil || c.New == nil || c.New.Display != "func Scale" {
		t.Errorf("the declaration is not tied to the change of Scale: %+v", c)
	}
	for _, want := range []string{"+\t\"example.com/m/lim\"", "+// clamp bounds x by limit.", "+func clamp(x, limit int) int {"} {
		if !strings.Contains(res.Patch, want) {
			t.Errorf("patch lacks %q:\n%s", want, res.Patch)
		}
	}
	// the prompt shows the use, the seed's diff and the file's
	// declarations
	p := s.prompts[0]
	for _, want := range []string{"Declare clamp in num/num.go", "undefined: clamp", "+func Scale(x int) int { return clamp(2*x, 100) }", "func Show(x int) string"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
}

// TestDeclareRejects: a reply that declares an existing name, or not the
// wanted one, is refused; the second attempt's good reply is taken.
func TestDeclareRejects(t *testing.T) {
	for _, tc := range []struct{ name, bad, note string }{
		{"redeclares", "```go\nfunc Show(x int) string { return \"\" }\n\nfunc clamp(x, l int) int { return x }\n```", "Show (line 7) is already declared in the package"},
		{"other name", "```go\nfunc limit(x, l int) int { return x }\n```", "does not declare clamp"},
		{"statement", "```go\nx := 1\n```", "no longer parses"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo, sc := setup(t, clampSeed)
			s := &scripted{t: t, answer: func(block, prompt string, call int) (int, string, time.Duration) {
				if call == 1 {
					return 200, tc.bad, 0
				}
				return 200, goodClamp, 0
			}}
			res := Must(t)(Run(context.Background(), repo, Options{Base: sc.Base, Head: sc.Head, Model: modelFor(t, s, 5*time.Second, 0),
				Oracle: &gobuild.Oracle{Env: []string{"GOPROXY=off", "GOFLAGS=-mod=mod"}}, Rounds: 3}))
			if !res.Proven || res.Rejected != 1 {
				logPlan(t, res)
				t.Fatalf("proven %v rejected %d, want proven after one rejection", res.Proven, res.Rejected)
			}
			if !strings.Contains(res.Obligations[0].Note, tc.note) {
				t.Errorf("first obligation's note %q, want %q", res.Obligations[0].Note, tc.note)
			}
			if strings.Count(res.Patch, "func clamp") != 1 || strings.Contains(res.Patch, "func limit") {
				t.Errorf("patch:\n%s", res.Patch)
			}
		})
	}
}

// TestDeclareMissingField: a field of another package's type that the
// seed reads is planned on the type's block.
func TestDeclareMissingField(t *testing.T) {
	repo, sc := setup(t, `
-- old/go.mod --
module example.com/m

go 1.22
-- old/conf/conf.go --
package conf

// Config is the settings.
type Config struct {
	Name string
}
-- old/app/app.go --
package app

import "example.com/m/conf"

func Label(c conf.Config) string { return c.Name }
-- new/app/app.go --
package app

import "example.com/m/conf"

func Label(c *conf.Config) string { return c.Name + c.Suffix }
`)
	s := &scripted{t: t, answer: func(block, prompt string, _ int) (int, string, time.Duration) {
		if block != "type Config" {
			t.Errorf("unexpected block %q", block)
			return 200, "```go\n```", 0
		}
		if !strings.Contains(prompt, "add the field or method Suffix") {
			t.Errorf("prompt does not say what to add:\n%s", prompt)
		}
		return 200, "```go\n// Config is the settings.\ntype Config struct {\n\tName   string\n\tSuffix string\n}\n```", 0
	}}
	res := run(t, repo, sc, modelFor(t, s, 5*time.Second, 0))
	if !res.Proven {
		logPlan(t, res)
		t.Fatalf("not proven; oracle %+v", res.Oracle)
	}
	if !strings.Contains(res.Patch, "+\tSuffix string") {
		t.Errorf("patch:\n%s", res.Patch)
	}
}

// TestRemovedNameNotRedeclared: a name the base declared and the change
// removed is not declared again (its users must follow the change).
func TestRemovedNameNotRedeclared(t *testing.T) {
	repo, sc := setup(t, `
-- old/go.mod --
module example.com/m

go 1.22
-- old/num/num.go --
package num

func Old() int { return 1 }
-- old/app/app.go --
package app

import "example.com/m/num"

func Use() int { return num.Old() }

func Helper() int { return 2 }
-- new/num/num.go --
package num

func Newer() int { return 1 }
`)
	ctx := context.Background()
	seed, err := check.Run(ctx, repo, check.Options{Base: sc.Base, Head: sc.Head})
	if err != nil {
		t.Fatal(err)
	}
	e := &engine{repo: repo, fes: languages.Frontends(), seeds: seedBlocks(seed), all: map[string]*Obligation{}, attempts: map[string]int{},
		res: &Result{Base: seed.Base, Head: seed.Head, Seed: seed}}
	e.baseTree = &gitio.RevTree{R: repo, SHA: seed.Base}
	if e.sc, err = newScratch(ctx, repo, seed.Head); err != nil {
		t.Fatal(err)
	}
	defer e.sc.close()
	for _, tc := range []struct {
		msg     string
		planned bool
	}{
		{"undefined: num.Old", false},   // removed by the change
		{"undefined: num.Newer", false}, // declared
		{"undefined: num.Extra", true},  // nobody declares it
		{"undefined: Helper", false},    // declared in app
		{"undefined: fmt.Nope", false},  // not a package of the repository
		{"some other error", false},
	} {
		var obs []*Obligation
		got := e.missingObligation(ctx, oracle.Diagnostic{Path: "app/app.go", Line: 5, Message: tc.msg, Tool: "build"}, map[string]*Obligation{}, &obs, 2)
		if got != tc.planned || tc.planned && (len(obs) != 1 || obs[0].Path != "num/num.go" || obs[0].Declare != "Extra") {
			t.Errorf("%q: planned %v %+v, want %v", tc.msg, got, obs, tc.planned)
		}
	}
}

// Must returns a function that fails the test on a non-nil error.
func Must(t *testing.T) func(*Result, error) *Result {
	return func(r *Result, err error) *Result {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
}

// TestReceiverFieldFollows: a type error on a method's line that uses a
// field of the receiver plans the receiver's type for review; the model
// changes the field's type (a recorded-calls struct of a mock).
func TestReceiverFieldFollows(t *testing.T) {
	repo, sc := setup(t, `
-- old/go.mod --
module example.com/m

go 1.22
-- old/rec/rec.go --
package rec

// Rec records calls.
type Rec struct {
	calls []struct {
		A int
		B string
	}
}

func (r *Rec) Do(a int, b string) {
	r.calls = append(r.calls, struct {
		A int
		B string
	}{A: a, B: b})
}
-- new/rec/rec.go --
package rec

// Rec records calls.
type Rec struct {
	calls []struct {
		A int
		B string
	}
}

func (r *Rec) Do(a int) {
	r.calls = append(r.calls, struct {
		A int
	}{A: a})
}
`)
	s := &scripted{t: t, answer: func(block, prompt string, _ int) (int, string, time.Duration) {
		if block != "type Rec" || !strings.Contains(prompt, "which uses the field calls: its type may have to follow") {
			t.Errorf("unexpected request for %q:\n%s", block, prompt)
		}
		return 200, "```go\n// Rec records calls.\ntype Rec struct {\n\tcalls []struct {\n\t\tA int\n\t}\n}\n```", 0
	}}
	res := run(t, repo, sc, modelFor(t, s, 5*time.Second, 0))
	if !res.Proven || s.calls != 1 {
		logPlan(t, res)
		t.Fatalf("proven %v after %d calls; oracle %+v", res.Proven, s.calls, res.Oracle)
	}
}

// TestDeclareHelperOnce: a reply that declares a helper another
// obligation wants settles that obligation without asking again.
func TestDeclareHelperOnce(t *testing.T) {
	repo, sc := setup(t, strings.Replace(clampSeed, "return clamp(2*x, 100) }", "return clamp(2*x, lo) }", 1))
	s := &scripted{t: t, answer: func(block, prompt string, _ int) (int, string, time.Duration) {
		return 200, "```go\nconst lo = 100\n\nfunc clamp(x, limit int) int { return min(x, limit) }\n```", 0
	}}
	res := run(t, repo, sc, modelFor(t, s, 5*time.Second, 0))
	if !res.Proven || s.calls != 1 || res.Rejected != 0 {
		logPlan(t, res)
		t.Fatalf("proven %v after %d calls, %d rejected; want proven after 1 call", res.Proven, s.calls, res.Rejected)
	}
}

// TestPythonDeclare: pyright's "is not defined" for a helper the seed
// calls becomes a new module-level definition.
func TestPythonDeclare(t *testing.T) {
	needPyright(t)
	repo, sc := setup(t, `
-- old/pkg/__init__.py --
-- old/pkg/lib.py --
def scale(x: int) -> int:
    return 2 * x
-- new/pkg/lib.py --
def scale(x: int) -> int:
    return clamp(2 * x)
`)
	s := &scripted{t: t, answer: func(block, _ string, _ int) (int, string, time.Duration) {
		if block != "new clamp" {
			t.Errorf("unexpected block %q", block)
		}
		return 200, "```python\ndef clamp(x: int) -> int:\n    return min(x, 100)\n```", 0
	}}
	res, err := Run(context.Background(), repo, Options{Base: sc.Base, Head: sc.Head, Model: modelFor(t, s, 5*time.Second, 0),
		Oracle: oracle.All{&gobuild.Oracle{}, &pyright.Oracle{}}, Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Proven || !strings.Contains(res.Patch, "+def clamp(x: int) -> int:") {
		logPlan(t, res)
		t.Fatalf("proven %v oracle %+v patch:\n%s", res.Proven, res.Oracle, res.Patch)
	}
}

// TestPythonDeclareAboveUse: a name a class statement uses when the
// module runs (its base) is declared above that class, not appended
// below it, where pyright finds it unbound.
func TestPythonDeclareAboveUse(t *testing.T) {
	needPyright(t)
	repo, sc := setup(t, `
-- old/pkg/__init__.py --
-- old/pkg/lib.py --
import typing


def scale(x: int) -> int:
    return 2 * x
-- new/pkg/lib.py --
import typing


def scale(x: int) -> int:
    return 2 * x


# Box holds one value.
class Box(Base):
    pass


def unbox(b: Box) -> int:
    return 0
`)
	s := &scripted{t: t, answer: func(block, _ string, _ int) (int, string, time.Duration) {
		if block != "new Base" {
			t.Errorf("unexpected block %q", block)
		}
		return 200, "```python\nclass Base:\n    pass\n```", 0
	}}
	res, err := Run(context.Background(), repo, Options{Base: sc.Base, Head: sc.Head, Model: modelFor(t, s, 5*time.Second, 0),
		Oracle: oracle.All{&pyright.Oracle{}}, Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Proven || !strings.Contains(res.Patch, "+class Base:\n+    pass\n+\n+\n # Box holds one value.\n") {
		logPlan(t, res)
		t.Fatalf("proven %v oracle %+v patch:\n%s", res.Proven, res.Oracle, res.Patch)
	}
}

// TestPythonDeclareByImport: the seed uses a module alias its commit
// imports and the change did not bring; the name is provided by an
// import, which is all the reply holds. A reply whose import provides
// something else is refused.
func TestPythonDeclareByImport(t *testing.T) {
	needPyright(t)
	repo, sc := setup(t, `
-- old/pkg/__init__.py --
-- old/pkg/lib.py --
import os


def scale(x: int) -> int:
    return 2 * x
-- new/pkg/lib.py --
import os


def scale(x: int) -> t.Optional[int]:
    return 2 * x
`)
	s := &scripted{t: t, answer: func(block, prompt string, call int) (int, string, time.Duration) {
		if block != "new t" {
			t.Errorf("unexpected block %q", block)
		}
		if call == 1 {
			return 200, "```python\nimport sys\n```", 0
		}
		return 200, "```python\nimport typing as t\n```", 0
	}}
	res, err := Run(context.Background(), repo, Options{Base: sc.Base, Head: sc.Head, Model: modelFor(t, s, 5*time.Second, 0),
		Oracle: oracle.All{&pyright.Oracle{}}, Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Proven || res.Rejected != 1 || !strings.Contains(res.Patch, "import os\n+import typing as t\n") || strings.Contains(res.Patch, "import sys") {
		logPlan(t, res)
		t.Fatalf("proven %v rejected %d oracle %+v patch:\n%s", res.Proven, res.Rejected, res.Oracle, res.Patch)
	}
}

// TestDeclareElsewhereOnImportClash: the declaration needs a package
// whose name the use's file binds to another one; it goes to another file
// of the package instead of breaking the file's imports.
func TestDeclareElsewhereOnImportClash(t *testing.T) {
	repo, sc := setup(t, `
-- old/go.mod --
module example.com/m

go 1.22
-- old/a/sync/sync.go --
package sync

func Lock() int { return 1 }
-- old/b/sync/sync.go --
package sync

func Wait() int { return 2 }
-- old/num/num.go --
package num

import "example.com/m/a/sync"

func Scale(x int) int { return sync.Lock() * x }
-- old/num/other.go --
package num

func Other() int { return 3 }
-- old/num/other_linux.go --
package num

func Linux() int { return 4 }
-- new/num/num.go --
package num

import "example.com/m/a/sync"

func Scale(x int) int { return sync.Lock() * x * wait() }
`)
	s := &scripted{t: t, answer: func(block, prompt string, _ int) (int, string, time.Duration) {
		return 200, "```go\nimport \"example.com/m/b/sync\"\n\nfunc wait() int { return sync.Wait() }\n```", 0
	}}
	res := run(t, repo, sc, modelFor(t, s, 5*time.Second, 0))
	if !res.Proven || res.Obligations[0].Path != "num/other.go" {
		logPlan(t, res)
		t.Fatalf("proven %v; notes %v; oracle %+v", res.Proven, res.Notes, res.Oracle)
	}
	if !strings.Contains(res.Patch, "+++ b/num/other.go") || strings.Contains(res.Patch, "+++ b/num/num.go") {
		t.Errorf("patch:\n%s", res.Patch)
	}
}

func TestMergeDoc(t *testing.T) {
	src := []byte("package p\n\n// F does it.\n//\n//go:noinline\nfunc F() {}\n")
	for _, c := range []struct {
		name, code string
		from       int
		want       string
	}{
		{"no comment", "func F() { g() }\n", 6, "func F() { g() }\n"},
		{"repeated", "// F does it.\nfunc F() { g() }\n", 6, "func F() { g() }\n"},
		{"rewritten keeps the directive", "// F does it twice.\nfunc F() { g() }\n", 3, "// F does it twice.\n//go:noinline\nfunc F() { g() }\n"},
		{"rewritten with the directive", "// F does more.\n//go:noinline\nfunc F() {}\n", 3, "// F does more.\n//go:noinline\nfunc F() {}\n"},
	} {
		from, code := mergeDoc(golang.New(), src, 6, c.code)
		if from != c.from || code != c.want {
			t.Errorf("%s: from %d code %q, want %d %q", c.name, from, code, c.from, c.want)
		}
	}
}
