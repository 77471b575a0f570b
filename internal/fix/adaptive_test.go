package fix

import (
	"context"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang/golang/gobuild"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// chain: Save gains a parameter that the developer threads through five
// functions up to main. Only persist's call breaks; the rest is the
// frontier (notes) the planner must reach, edit by edit, each accepted
// edit classified again (its new signature reaches its callers).
const chain = `
-- old/go.mod --
module example.com/m

go 1.22
-- old/store/store.go --
package store

func Save(rows []string) int { return len(rows) }
-- old/service/service.go --
package service

import "example.com/m/store"

func persist(rows []string) int { return store.Save(rows) }

func handle(batch []string) int { return persist(append([]string{}, batch...)) }

func Process(batches [][]string) (n int) {
	for _, b := range batches {
		n += handle(b)
	}
	return n
}

func Unrelated() int { return 1 }
-- old/cmd/tool/main.go --
package main

import "example.com/m/service"

func run(paths []string) int { return service.Process([][]string{paths}) }

func main() { run(nil) }
-- new/store/store.go --
package store

func Save(rows []string, table string) int { return len(rows) + len(table) }
`

// chainAnswers are the developer's real blocks: the scripted model
// answers each planned block with them.
var chainAnswers = map[string]string{
	"func persist": "func persist(rows []string, table string) int { return store.Save(rows, table) }",
	"func handle":  "func handle(batch []string, table string) int { return persist(append([]string{}, batch...), table) }",
	"func Process": "func Process(batches [][]string, table string) (n int) {\n\tfor _, b := range batches {\n\t\tn += handle(b, table)\n\t}\n\treturn n\n}",
	"func run":     "func run(paths []string, table string) int { return service.Process([][]string{paths}, table) }",
	"func main":    `func main() { run(nil, "events") }`,
}

// TestAdaptivePlanThreadsValue: the planner reaches every function of the
// chain (the seed's caller by its error, the others first as the
// frontier and then by the errors each accepted edit causes), and the
// result builds.
func TestAdaptivePlanThreadsValue(t *testing.T) {
	repo, sc := setup(t, chain)
	s, notReached := replayer(t, "go", chainAnswers)
	res, err := Run(context.Background(), repo, Options{Base: sc.Base, Head: sc.Head, Model: modelFor(t, s, 5*time.Second, 0),
		Oracle: &gobuild.Oracle{Env: []string{"GOPROXY=off", "GOFLAGS=-mod=mod"}}, Rounds: 4, Review: true})
	if err != nil {
		t.Fatal(err)
	}
	if missed := notReached(); len(missed) > 0 || !res.Proven {
		logPlan(t, res)
		t.Fatalf("not reached: %v; proven %v; patch:\n%s", notReached(), res.Proven, res.Patch)
	}
	if !strings.Contains(res.Patch, `+func main() { run(nil, "events") }`) {
		t.Errorf("patch lacks the entry point's edit:\n%s", res.Patch)
	}
	// every obligation says how the seed reaches it
	for _, o := range res.Obligations {
		if o.Status == Done && len(o.Trail()) == 0 {
			t.Errorf("%s has no relation path from the seed", o.Describe())
		}
	}
}

// family: a middle override gains a parameter; the developer made the
// whole family, the calls dispatched through the base and the entry
// point calling a writer from the factory (through __call__) follow.
const family = `
-- old/writers.py --
class Writer:
    def write(self, rows):
        raise NotImplementedError

    def __call__(self, rows):
        return self.write(rows)


class CSVWriter(Writer):
    def write(self, rows):
        return ",".join(rows)


class TSVWriter(CSVWriter):
    def write(self, rows):
        return "\t".join(rows)


class JSONWriter(Writer):
    def write(self, rows):
        return str(rows)


def make(kind) -> Writer:
    return CSVWriter() if kind == "csv" else JSONWriter()
-- old/cli.py --
from writers import make


def main(kind, rows):
    return make(kind)(rows)
-- new/writers.py --
class Writer:
    def write(self, rows):
        raise NotImplementedError

    def __call__(self, rows):
        return self.write(rows)


class CSVWriter(Writer):
    def write(self, rows, header):
        return header + ",".join(rows)


class TSVWriter(CSVWriter):
    def write(self, rows):
        return "\t".join(rows)


class JSONWriter(Writer):
    def write(self, rows):
        return str(rows)


def make(kind) -> Writer:
    return CSVWriter() if kind == "csv" else JSONWriter()
`

var familyAnswers = map[string]string{
	"def Writer.write":     "    def write(self, rows, header):\n        raise NotImplementedError",
	"def Writer.__call__":  "    def __call__(self, rows, header=\"\"):\n        return self.write(rows, header)",
	"def TSVWriter.write":  "    def write(self, rows, header):\n        return header + \"\\t\".join(rows)",
	"def JSONWriter.write": "    def write(self, rows, header):\n        return header + str(rows)",
	"def main":             "def main(kind, rows, header=\"\"):\n    return make(kind)(rows, header)",
}

// TestAdaptivePlanOverrideFamily: the planner reaches the base, the
// sibling, the override below, the dispatching __call__ of a Python
// family and the entry point that calls the factory's writer from one
// override's new signature.
func TestAdaptivePlanOverrideFamily(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	sc := testrepo.FromTxtar(t, txtar.Parse([]byte(family)))
	repo, err := gitio.Open(context.Background(), sc.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	s, notReached := replayer(t, "python", familyAnswers)
	// no oracle: pyright may be missing here; the planner's reach is what
	// is tested (TestPythonModelEdit proves a Python edit with pyright)
	res, err := Run(context.Background(), repo, Options{Base: sc.Base, Head: sc.Head, Model: modelFor(t, s, 5*time.Second, 0),
		Rounds: 2, Review: true})
	if err != nil {
		t.Fatal(err)
	}
	if missed := notReached(); len(missed) > 0 {
		logPlan(t, res)
		t.Fatalf("not reached: %v; patch:\n%s", notReached(), res.Patch)
	}
}

// replayer answers each planned block with the developer's text from
// answers (fenced as lang) and records which blocks were asked for; a
// block the developer did not change fails the test.
func replayer(t *testing.T, lang string, answers map[string]string) (*scripted, func() []string) {
	seen := map[string]bool{}
	s := &scripted{t: t, answer: func(block, _ string, _ int) (int, string, time.Duration) {
		seen[block] = true
		code, ok := answers[block]
		if !ok {
			t.Errorf("planned a block the developer did not change: %q", block)
		}
		return 200, "```" + lang + "\n" + code + "\n```\n", 0
	}}
	missed := func() []string {
		var out []string
		for b := range answers {
			if !seen[b] {
				out = append(out, b)
			}
		}
		sort.Strings(out)
		return out
	}
	return s, missed
}
