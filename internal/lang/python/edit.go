package python

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// CheckBlock judges a block replacement proposed by the fix engine
// (lang.BlockEditor): the file still parses, nothing crosses the block's
// edges, and the block's lines hold exactly one outermost def or class,
// with the block's qualified name.
func (fe *Frontend) CheckBlock(path string, src []byte, block string, from, to int) error {
	ds, diag := fe.Decls(path, src)
	if diag != nil && diag.Partial {
		return fmt.Errorf("the file no longer parses: %s", diag.Message)
	}
	var kept []*lang.Decl
	for _, d := range ds {
		switch d.Kind {
		case model.KindFunc, model.KindMethod, model.KindConstructor, model.KindType, model.KindInterface:
			kept = append(kept, d)
		}
	}
	_, err := lang.OnlyDecl(kept, block, from, to, "definitions", qualName)
	return err
}

// qualName drops the keyword of a block's name: "async def C.m" -> "C.m".
func qualName(display string) string {
	for _, w := range []string{"async def ", "def ", "property ", "class "} {
		if rest, ok := strings.CutPrefix(display, w); ok {
			return rest
		}
	}
	return display
}

// SplitImports separates leading import statements (import x, from x
// import y) from a block (lang.BlockEditor).
func (fe *Frontend) SplitImports(code string) ([]string, string, error) {
	lines := strings.SplitAfter(code, "\n")
	var imports []string
	i := 0
	for ; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		switch {
		case l == "":
			continue
		case strings.HasPrefix(l, "import ") || strings.HasPrefix(l, "from ") && strings.Contains(l, " import ") && !strings.HasSuffix(l, "("):
			imports = append(imports, l)
			continue
		}
		break
	}
	if len(imports) == 0 {
		return nil, code, nil
	}
	return imports, strings.Join(lines[i:], ""), nil
}

// AddImports inserts the import statements src lacks after its last
// top-level import (or after the module docstring and __future__
// imports), and returns the lines inserted (lang.BlockEditor). A
// statement whose names the file's imports bind already, to the same
// modules and members, is not added.
func (fe *Frontend) AddImports(src []byte, imports []string) ([]byte, int, error) {
	lines := strings.SplitAfter(string(src), "\n")
	have := map[string]bool{}
	last := -1
	for i, l := range lines {
		t := strings.TrimRight(l, "\r\n")
		if strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "from ") && strings.Contains(t, " import ") {
			have[strings.TrimSpace(t)] = true
			if !strings.HasSuffix(t, "(") && !strings.HasSuffix(t, "\\") {
				last = i
			}
		}
	}
	bound := topImports(src)
	var missing []string
	for _, im := range imports {
		if !have[im] && !importsBound(im, bound) {
			have[im] = true
			missing = append(missing, im+"\n")
		}
	}
	if len(missing) == 0 {
		return src, 0, nil
	}
	at := last + 1 // after the last import
	if last < 0 {
		at = afterHeader(lines)
	}
	out := strings.Join(lines[:at], "") + strings.Join(missing, "") + strings.Join(lines[at:], "")
	return []byte(out), len(missing), nil
}

// topImports maps the names a file's module-level imports bind to what
// each import binds them to ("module", "module:member"; the whole dotted
// name for `import a.b`, which also loads a.b); nil without a parser.
func topImports(src []byte) map[string]map[string]bool {
	if !treesit.Available {
		return nil
	}
	f := summarize("m.py", grammar.Parse(src))
	out := map[string]map[string]bool{}
	for n, bs := range f.top.names {
		for _, bd := range bs {
			if bd.kind != bImport && bd.kind != bFrom {
				continue
			}
			target := importTarget(bd)
			if bd.kind == bImport && bd.at != nil && bd.at.Kind == "dotted_name" {
				target = bd.at.Text()
			}
			if out[n] == nil {
				out[n] = map[string]bool{}
			}
			out[n][target] = true
		}
	}
	return out
}

// importsBound reports whether every name an import statement binds is
// bound by the file's imports already, to the same thing: a statement
// written another way (`from m import a` where the file has `from m
// import (a, b)`) that would only repeat them.
func importsBound(stmt string, bound map[string]map[string]bool) bool {
	if len(bound) == 0 {
		return false
	}
	want := topImports([]byte(stmt + "\n"))
	if len(want) == 0 {
		return false
	}
	for n, targets := range want {
		for t := range targets {
			if !bound[n][t] {
				return false
			}
		}
	}
	return true
}

// afterHeader is the first line after a module's shebang, encoding and
// comment lines and its docstring: where imports go in a file without any.
func afterHeader(lines []string) int {
	i := 0
	for i < len(lines) && (strings.HasPrefix(lines[i], "#") || strings.TrimSpace(lines[i]) == "") {
		i++
	}
	if i < len(lines) {
		t := strings.TrimSpace(lines[i])
		for _, q := range []string{`"""`, `'''`} {
			if !strings.HasPrefix(t, q) {
				continue
			}
			if strings.Count(t, q) >= 2 && len(t) >= 6 {
				return i + 1 // a one-line docstring
			}
			for j := i + 1; j < len(lines); j++ {
				if strings.Contains(lines[j], q) {
					return j + 1
				}
			}
		}
	}
	return i
}

// IsComment reports a comment line (lang.BlockEditor).
func (fe *Frontend) IsComment(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), "#")
}

// IsDirective reports a comment that instructs a tool: a type checker or
// linter pragma (lang.BlockEditor).
func (fe *Frontend) IsDirective(line string) bool {
	return pyDirectiveRE.MatchString(strings.TrimSpace(line))
}

var pyDirectiveRE = regexp.MustCompile(`^#\s*(type:|noqa|pragma|pyright:|mypy:|fmt:|isort:)`)
