package action

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// The action's published contracts beyond the REST API: action.yml
// against GitHub's action metadata syntax, and every workflow the
// repository runs or shows (.github/workflows, docs/examples, the
// workflow blocks of the Markdown docs) through actionlint.

// repoRoot is the repository's top directory, from this package's.
const repoRoot = "../.."

// TestActionMetadata validates action.yml against SchemaStore's schema of
// GitHub's action metadata (testdata/action-schema: source and version in
// its README), then checks what the schema cannot: every expression names
// an input the action declares and a step it has, every output of the
// composite action is the output of one of its steps, and every input
// reaches the program as INPUT_<NAME> (a composite action exports no
// INPUT_ variables by itself: an input left out would be silently
// ignored).
func TestActionMetadata(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var meta any
	if err := yaml.Unmarshal(data, &meta); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	f, err := os.Open(filepath.Join("testdata", "action-schema", "github-action.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("github-action.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("github-action.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(meta); err != nil {
		t.Errorf("action.yml does not validate against the action metadata schema:\n%v", err)
	}

	var a struct {
		Inputs  map[string]struct{ Description string }
		Outputs map[string]struct{ Value string }
		Runs    struct {
			Using string
			Steps []struct {
				ID    string
				Run   string
				Shell string
				Env   map[string]string
			}
		}
	}
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	steps := map[string]bool{}
	for i, s := range a.Runs.Steps {
		if s.ID != "" {
			steps[s.ID] = true
		}
		if s.Run != "" && s.Shell == "" {
			t.Errorf("runs.steps[%d]: a run step of a composite action needs shell", i)
		}
	}
	for _, m := range regexp.MustCompile(`inputs\.([A-Za-z0-9_-]+)`).FindAllStringSubmatch(string(data), -1) {
		if _, ok := a.Inputs[m[1]]; !ok {
			t.Errorf("action.yml uses inputs.%s, which it does not declare", m[1])
		}
	}
	for _, m := range regexp.MustCompile(`steps\.([A-Za-z0-9_-]+)\.outputs`).FindAllStringSubmatch(string(data), -1) {
		if !steps[m[1]] {
			t.Errorf("action.yml reads the outputs of step %q, which it does not have", m[1])
		}
	}
	env := map[string]string{}
	for _, s := range a.Runs.Steps {
		if s.ID == "run" {
			env = s.Env
		}
	}
	for name := range a.Inputs {
		key := "INPUT_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
		if got, want := env[key], "${{ inputs."+name+" }}"; got != want {
			t.Errorf("input %s: step run has %s=%q, want %q", name, key, got, want)
		}
	}
	for name, o := range a.Outputs {
		if !regexp.MustCompile(`^\$\{\{\s*steps\.[A-Za-z0-9_-]+\.outputs\.[A-Za-z0-9_-]+\s*\}\}$`).MatchString(o.Value) {
			t.Errorf("output %s: value %q is not one step's output", name, o.Value)
		}
	}
}

// TestWorkflowsLint runs actionlint on the repository's workflows, the
// example workflows under docs/examples and every Markdown code block of
// README.md and docs/ that is a workflow (it has jobs). The examples use
// the published action (ripple-dev/ripple@<ref>); they are linted against
// this checkout's action.yml, as a local action, so that an input or
// output an example names and the action lacks is an error. actionlint's
// shellcheck and pyflakes passes are off: they depend on tools the
// machine may not have.
func TestWorkflowsLint(t *testing.T) {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	proj, err := actionlint.NewProject(root)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	l, err := actionlint.NewLinter(&out, &actionlint.LinterOptions{WorkingDir: root, Oneline: true})
	if err != nil {
		t.Fatal(err)
	}
	type workflow struct {
		name string
		data []byte
	}
	var flows []workflow
	for _, g := range []string{".github/workflows/*.yml", ".github/workflows/*.yaml", "docs/examples/*.yml", "docs/examples/*.yaml"} {
		files, err := filepath.Glob(filepath.Join(root, g))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(root, f)
			flows = append(flows, workflow{rel, data})
		}
	}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, f := range append(docs, filepath.Join(root, "README.md")) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		for _, b := range yamlBlocks(data) {
			if workflowRE.Match(b.text) {
				flows = append(flows, workflow{rel + ":" + b.line, b.text})
			}
		}
	}
	if !slices.ContainsFunc(flows, func(w workflow) bool { return strings.HasPrefix(w.name, ".github/") }) ||
		!slices.ContainsFunc(flows, func(w workflow) bool { return strings.Contains(w.name, ".md:") }) {
		t.Fatalf("found no repository workflow or no workflow in the docs: %v", flows)
	}
	for _, w := range flows {
		t.Run(w.name, func(t *testing.T) {
			data := publishedAction.ReplaceAll(w.data, []byte("uses: ./"))
			errs, err := l.Lint(filepath.Join(root, strings.SplitN(w.name, ":", 2)[0]), data, proj)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range errs {
				t.Errorf("%s:%d:%d: %s [%s]", w.name, e.Line, e.Column, e.Message, e.Kind)
			}
		})
	}
}

// workflowRE: a YAML document with a top-level jobs key.
var workflowRE = regexp.MustCompile(`(?m)^jobs:`)

// publishedAction is a step that uses this action as published.
var publishedAction = regexp.MustCompile(`uses: ripple-dev/ripple@[A-Za-z0-9._/-]+`)

type block struct {
	line string // the line of the opening fence, for messages
	text []byte
}

// yamlBlocks returns the ```yaml and ```yml fenced blocks of Markdown.
func yamlBlocks(md []byte) []block {
	var out []block
	var cur *block
	var buf bytes.Buffer
	for i, l := range strings.Split(string(md), "\n") {
		t := strings.TrimSpace(l)
		switch {
		case cur == nil && (t == "```yaml" || t == "```yml"):
			cur = &block{line: strconv.Itoa(i + 1)}
			buf.Reset()
		case cur != nil && strings.HasPrefix(t, "```"):
			cur.text = bytes.Clone(buf.Bytes())
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			buf.WriteString(l + "\n")
		}
	}
	return out
}
