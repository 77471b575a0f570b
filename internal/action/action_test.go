package action

import (
	"flag"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	githubactions "github.com/sethvargo/go-githubactions"
	"go.yaml.in/yaml/v3"

	"github.com/ripple-dev/ripple/internal/action/review"
	"github.com/ripple-dev/ripple/internal/config"
)

type actionYAML struct {
	Inputs map[string]struct {
		Description string `yaml:"description"`
		Default     string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID  string            `yaml:"id"`
			Env map[string]string `yaml:"env"`
			Run string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

func readActionYAML(t *testing.T) *actionYAML {
	t.Helper()
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a actionYAML
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	return &a
}

// TestActionYAML keeps action.yml, the inputs the code reads and the
// config flags in step: every config flag but format and on-tool-error
// is an input of the same name, every input reaches the program as
// INPUT_<NAME> (the composite action passes them explicitly), and every
// output is the program's.
func TestActionYAML(t *testing.T) {
	a := readActionYAML(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using %q", a.Runs.Using)
	}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	config.Default().RegisterFlags(fs)
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == "format" || f.Name == "on-tool-error" {
			return
		}
		if _, ok := a.Inputs[f.Name]; !ok {
			t.Errorf("config flag -%s has no input of the same name", f.Name)
		}
		if !slices.Contains(ConfigInputs, f.Name) {
			t.Errorf("config flag -%s is not in ConfigInputs", f.Name)
		}
	})
	for _, n := range []string{"base", "head"} {
		if _, ok := a.Inputs[n]; !ok {
			t.Errorf("the check command's -%s flag has no input", n)
		}
	}
	var run map[string]string
	for _, s := range a.Runs.Steps {
		if s.ID == "run" {
			run = s.Env
		}
	}
	for name := range a.Inputs {
		env := "INPUT_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
		if want := "${{ inputs." + name + " }}"; run[env] != want {
			t.Errorf("step run: env %s = %q, want %q", env, run[env], want)
		}
	}
	for name, o := range a.Outputs {
		if want := "${{ steps.run.outputs." + name + " }}"; o.Value != want {
			t.Errorf("output %s = %q, want %q", name, o.Value, want)
		}
	}
}

// TestDocsExamples keeps docs/action.md's workflows equal to
// docs/examples/*.yml, and the examples using only the action's inputs
// and outputs.
func TestDocsExamples(t *testing.T) {
	doc, err := os.ReadFile("../../docs/action.md")
	if err != nil {
		t.Fatal(err)
	}
	a := readActionYAML(t)
	for _, name := range []string{"ripple.yml", "ripple-analyse.yml", "ripple-review.yml", "ripple-fix.yml"} {
		ex, err := os.ReadFile("../../docs/examples/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(doc), "```yaml\n"+string(ex)+"```\n") {
			t.Errorf("docs/action.md does not show docs/examples/%s as it is", name)
		}
		var wf struct {
			Jobs map[string]struct {
				Steps []struct {
					Uses string            `yaml:"uses"`
					With map[string]string `yaml:"with"`
				} `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if err := yaml.Unmarshal(ex, &wf); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, j := range wf.Jobs {
			for _, s := range j.Steps {
				if !strings.HasPrefix(s.Uses, "ripple-dev/ripple@") {
					continue
				}
				for k := range s.With {
					if _, ok := a.Inputs[k]; !ok {
						t.Errorf("%s: input %q is not in action.yml", name, k)
					}
				}
			}
		}
		for _, m := range outputRE.FindAllStringSubmatch(string(ex), -1) {
			if _, ok := a.Outputs[m[1]]; !ok {
				t.Errorf("%s: output %q is not in action.yml", name, m[1])
			}
		}
	}
}

var outputRE = regexp.MustCompile(`steps\.ripple\.outputs\.([a-z-]+)`)

// TestFixInputs: fix mode's inputs are validated with errors that name
// the input and the accepted values; the defaults are check mode,
// pushing to the branch and the workflow token's bot.
func TestFixInputs(t *testing.T) {
	read := func(env map[string]string) (*inputs, error) {
		gha := githubactions.New(githubactions.WithGetenv(func(k string) string { return env[k] }), githubactions.WithWriter(io.Discard))
		return readInputs(gha)
	}
	in, err := read(nil)
	if err != nil {
		t.Fatal(err)
	}
	if in.mode != modeCheck || in.fixPush != pushBranch || in.fixAuthor.Name != "github-actions[bot]" || in.tokenBudget != DefaultTokenBudget || in.fixTests {
		t.Errorf("defaults: %+v", in)
	}
	in, err = read(map[string]string{"INPUT_MODE": "fix", "INPUT_FIX_PUSH": "none", "INPUT_FIX_AUTHOR": "Bot <bot@example.com>",
		"INPUT_LLM_BASE_URL": "http://localhost:11434/v1", "INPUT_LLM_MODEL": "qwen", "INPUT_LLM_TOKEN_BUDGET": "5000", "INPUT_FIX_TESTS": "true"})
	if err != nil {
		t.Fatal(err)
	}
	if in.mode != modeFix || in.fixPush != pushNone || in.fixAuthor.Email != "bot@example.com" || in.llmModel != "qwen" || in.tokenBudget != 5000 || !in.fixTests {
		t.Errorf("read: %+v", in)
	}
	for k, v := range map[string]string{
		"INPUT_MODE":             "repair",
		"INPUT_FIX_PUSH":         "force",
		"INPUT_FIX_AUTHOR":       "nobody",
		"INPUT_LLM_TOKEN_BUDGET": "-1",
		"INPUT_FIX_TESTS":        "maybe",
	} {
		_, err := read(map[string]string{k: v})
		name := strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(k, "INPUT_"), "_", "-"))
		if err == nil || !strings.Contains(err.Error(), "input "+name) {
			t.Errorf("%s=%s: err %v, want one naming input %s", k, v, err, name)
		}
	}
}

// TestMaxCommentsInput: max-comments is 0..review.MaxCommentsLimit
// (the cap of inline comments per review); more is refused, not
// silently lowered.
func TestMaxCommentsInput(t *testing.T) {
	read := func(v string) (*inputs, error) {
		gha := githubactions.New(githubactions.WithGetenv(func(k string) string {
			if k == "INPUT_MAX_COMMENTS" {
				return v
			}
			return ""
		}), githubactions.WithWriter(io.Discard))
		return readInputs(gha)
	}
	for v, want := range map[string]int{"": review.DefaultMaxComments, "0": 0, "7": 7, strconv.Itoa(review.MaxCommentsLimit): review.MaxCommentsLimit} {
		in, err := read(v)
		if err != nil || in.maxComments != want {
			t.Errorf("max-comments %q: %v, %v; want %d", v, in, err, want)
		}
	}
	for _, v := range []string{strconv.Itoa(review.MaxCommentsLimit + 1), "1000", "-1", "many"} {
		if _, err := read(v); err == nil || !strings.Contains(err.Error(), "input max-comments") {
			t.Errorf("max-comments %q: err %v, want one naming the input", v, err)
		}
	}
}

// TestNoKeyInput: the model's key is never an input (it would sit in
// workflow files and in the action's inputs); it comes from the
// RIPPLE_LLM_API_KEY environment variable only.
func TestNoKeyInput(t *testing.T) {
	a := readActionYAML(t)
	for name := range a.Inputs {
		if strings.Contains(name, "key") || strings.Contains(name, "secret") {
			t.Errorf("input %s: the model's key must come from RIPPLE_LLM_API_KEY, not an input", name)
		}
	}
	if d := a.Inputs["llm-base-url"].Description; !strings.Contains(d, "RIPPLE_LLM_API_KEY") {
		t.Errorf("llm-base-url does not say where the key comes from: %q", d)
	}
}
