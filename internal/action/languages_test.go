package action

import (
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// The Languages lines say "types" only where the tier ran: a note of
// the type tier that did not run (not installed, over budget, stopped)
// turns the line into "syntax" and names what was lacking.
func TestLanguageLinesTiers(t *testing.T) {
	if !treesit.Available {
		t.Skip("built without cgo: Python and Java are not checked")
	}
	env := func(string) string { return "" }
	types := &config.Config{Precision: config.PrecisionTypes}
	for _, c := range []struct {
		name  string
		files []string
		notes []string
		cfg   *config.Config
		want  []string
		not   []string
	}{
		{"python types", []string{"app/a.py"}, nil, types, []string{"**Python**: types (pyright)"}, []string{"syntax (Ripple"}},
		{"python over budget", []string{"app/a.py"}, []string{"python: 3 sites were not type-checked: pyright would take about 4s"}, types,
			[]string{"**Python**: syntax", "lacked: python: 3 sites were not type-checked"}, []string{"types (pyright)"}},
		{"python stopped", []string{"app/a.py"}, []string{"python: type checking stopped at the time budget: 2 sites keep their syntactic verdict"}, types,
			[]string{"**Python**: syntax", "type checking stopped"}, nil},
		{"python syntax", []string{"app/a.py"}, nil, &config.Config{Precision: config.PrecisionSyntax}, []string{"**Python**: syntax (precision: syntax)"}, nil},
		{"java types", []string{"src/main/java/A.java"}, nil, types, []string{"**Java**: types (javac)"}, []string{"lacked"}},
		{"java missing jars", []string{"src/main/java/A.java"}, []string{"java: javac checked the sites without com.google:guava (no jar on this machine)"}, types,
			[]string{"**Java**: types (javac)", "lacked: java: javac checked the sites without com.google:guava"}, nil},
		{"java no jdk", []string{"src/main/java/A.java"}, []string{"java: types not checked, the syntax judged every site: no javac"}, types,
			[]string{"**Java**: syntax; lacked: java: types not checked"}, []string{"types (javac)"}},
	} {
		got := strings.Join(languageLines(c.files, &model.Result{PrecisionNotes: c.notes}, c.cfg, env), "\n")
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", c.name, got, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: %q has %q", c.name, got, n)
			}
		}
	}
}
