package action

import (
	"flag"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

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

// TestActionYAML keeps action.yml, the inputs the code reads and the
// config flags in step: every config flag but format and on-tool-error
// is an input of the same name, every input reaches the program as
// INPUT_<NAME> (the composite action passes them explicitly), and every
// output is the program's.
func TestActionYAML(t *testing.T) {
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a actionYAML
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
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
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a actionYAML
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ripple.yml", "ripple-analyse.yml", "ripple-review.yml"} {
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
