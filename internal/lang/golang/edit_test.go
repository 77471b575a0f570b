package golang

import (
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/lang"
)

func TestCheckBlock(t *testing.T) {
	const head = "package p\n\nimport \"fmt\"\n\n"
	for _, c := range []struct {
		name, block, code, want string // want: "" or a part of the error
	}{
		{"one func", "func F", "func F() {}\n", ""},
		{"renamed", "func F", "func G() {}\n", "declares func G, not func F"},
		{"two funcs", "func F", "func F() {}\n\nfunc G() {}\n", "holds 2 declarations"},
		{"type and its new methods", "type T", "type T struct{}\n\nfunc (T) M() {}\n\nfunc (*T) N() { fmt.Println() }\n", ""},
		{"type and a function", "type T", "type T struct{}\n\nfunc M() {}\n", "holds 2 declarations"},
		{"type and another type's method", "type T", "type T struct{}\n\nfunc (U) M() {}\n", "holds 2 declarations"},
		{"a method before its type", "type T", "func (T) M() {}\n\ntype T struct{}\n", "holds 2 declarations"},
		{"does not parse", "func F", "func F() {\n", "no longer parses"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + c.code + "\nfunc After() {}\n"
			from := strings.Count(head, "\n") + 1
			to := from + strings.Count(strings.TrimSuffix(c.code, "\n"), "\n")
			err := New().CheckBlock("p.go", []byte(src), c.block, from, to)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestAddImports(t *testing.T) {
	src := "package p\n\nimport (\n\t\"fmt\"\n\t\"example.com/pkg/v1\"\n\tyml \"gopkg.in/yaml.v3\"\n)\n\nfunc F() {}\n"
	for _, c := range []struct {
		name    string
		imports []string
		added   []string // specs that must appear once more
		shift   int
	}{
		{"present", []string{`"fmt"`}, nil, 0},
		{"named form of an unnamed import", []string{`v1 "example.com/pkg/v1"`}, nil, 0},
		{"same alias", []string{`yml "gopkg.in/yaml.v3"`}, nil, 0},
		{"new", []string{`"strings"`, `"strings"`}, []string{`"strings"`}, 1},
		{"unnamed form of an aliased import", []string{`"gopkg.in/yaml.v3"`}, []string{`"gopkg.in/yaml.v3"`}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, shift, err := New().AddImports([]byte(src), c.imports)
			if err != nil {
				t.Fatal(err)
			}
			if shift != c.shift {
				t.Errorf("shift %d, want %d:\n%s", shift, c.shift, out)
			}
			for _, a := range c.added {
				if strings.Count(string(out), "\t"+a+"\n") != 1 {
					t.Errorf("%s not added once:\n%s", a, out)
				}
			}
		})
	}
}

func TestPruneImports(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"group", "package p\n\nimport (\n\t\"errors\"\n\t\"fmt\" // printing\n)\n", "package p\n\nimport (\n\t\"fmt\" // printing\n)\n"},
		{"named", "package p\n\nimport (\n\terr2 \"errors\"\n\t\"fmt\"\n)\n", "package p\n\nimport (\n\t\"fmt\"\n)\n"},
		{"single", "package p\n\nimport \"errors\"\n\nfunc F() {}\n", "package p\n\n\nfunc F() {}\n"},
		{"shares its line", "package p\n\nimport (\"errors\"; \"fmt\")\n", "package p\n\nimport (\"errors\"; \"fmt\")\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := New().PruneImports([]byte(c.src), []string{"errors"})
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != c.want {
				t.Errorf("got\n%s\nwant\n%s", out, c.want)
			}
		})
	}
}

func TestMissingIn(t *testing.T) {
	for _, c := range []struct {
		msg  string
		want lang.Missing
		ok   bool
	}{
		{"undefined: clamp", lang.Missing{Name: "clamp"}, true},
		{"undefined: verification.GitHubOIDCIssuer", lang.Missing{Qualifier: "verification", Name: "GitHubOIDCIssuer"}, true},
		{"cs.Reset undefined (type *iostreams.ColorScheme has no field or method Reset)", lang.Missing{Qualifier: "iostreams", Type: "ColorScheme", Name: "Reset"}, true},
		{"t.wrapWord undefined (type *Terminal has no field or method wrapWord)", lang.Missing{Type: "Terminal", Name: "wrapWord"}, true},
		{"x.n undefined (type List[int] has no field or method n, but does have field N)", lang.Missing{Type: "List", Name: "n"}, true},
		{"unknown field nameRef in struct literal of type DigestedArtifact", lang.Missing{Type: "DigestedArtifact", Name: "nameRef"}, true},
		{"unknown field Hidden in struct literal of type cmdutil.Options", lang.Missing{Qualifier: "cmdutil", Type: "Options", Name: "Hidden"}, true},
		{"not enough arguments in call to F", lang.Missing{}, false},
		{"undefined: a.b.c", lang.Missing{}, false},
	} {
		got, ok := New().MissingIn(c.msg)
		if ok != c.ok || got != c.want {
			t.Errorf("MissingIn(%q) = %+v, %v; want %+v, %v", c.msg, got, ok, c.want, c.ok)
		}
	}
}

func TestCheckNew(t *testing.T) {
	const head = "package p\n\nimport \"fmt\"\n\nfunc F() { fmt.Println(g()) }\n\n"
	taken := map[string]bool{"F": true, "T": true, "T.Name": true}
	for _, c := range []struct {
		name, want, code, err string
	}{
		{"a function", "g", "func g() int { return 1 }\n", ""},
		{"with a helper", "g", "func g() int { return h() }\n\nfunc h() int { return 1 }\n", ""},
		{"a grouped constant", "C", "const (\n\tC = 1\n\tD = 2\n)\n", ""},
		{"a method", "T.M", "// M is new.\nfunc (t *T) M() {}\n", ""},
		{"an existing function", "g", "func g() int { return 1 }\n\nfunc F() {}\n", "F (line 9) is already declared"},
		{"a method named like a field", "T.Name", "func (T) Name() string { return \"\" }\n", "T.Name (line 7) is already declared"},
		{"not the wanted one", "g", "func h() int { return 1 }\n", "does not declare g"},
		{"an import", "g", "import \"os\"\n\nfunc g() int { return 1 }\n", "no longer parses"},
		{"statements", "g", "x := 1\n", "no longer parses"},
		{"nothing", "g", "// just a comment\n", "declares nothing"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + c.code
			from := strings.Count(head, "\n") + 1
			to := from + strings.Count(c.code, "\n") - 1
			err := New().CheckNew("p.go", []byte(src), from, to, c.want, taken)
			switch {
			case c.err == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("error %v, want one containing %q", err, c.err)
			}
		})
	}
}

// TestAddImportsConflict: an import whose name the file already binds to
// another path is refused, not added (the compiler would reject both, and
// dropping either changes what the rest of the file means).
func TestAddImportsConflict(t *testing.T) {
	src := "package p\n\nimport (\n\t\"example.com/m/utils/sync\"\n\tyml \"gopkg.in/yaml.v3\"\n)\n\nfunc F() {}\n"
	for _, c := range []struct {
		imports []string
		err     string
	}{
		{[]string{`"sync"`}, `import "sync" would bind sync, which the file's import "example.com/m/utils/sync" binds`},
		{[]string{`yml "example.com/yml"`}, `would bind yml`},
		{[]string{`"strings"`, `strings "example.com/strings"`}, `would bind strings`},
		{[]string{`stdsync "sync"`}, ``},
		{[]string{`_ "embed"`}, ``},
	} {
		_, _, err := New().AddImports([]byte(src), c.imports)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%v: error %v", c.imports, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%v: error %v, want %q", c.imports, err, c.err)
		}
	}
}
