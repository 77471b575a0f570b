package python

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// Quote writes declarations of a file as a reply of the fix engine's
// model gives them (lang.Quoter): each declaration's lines, in order,
// opened by the module-level imports of the file that they name, one
// statement per name (`from m import n`, `import a.b`, `import a.b as
// x`), which SplitImports reads. A name is used when it appears as an
// identifier, not as an attribute (`x.n`) or a keyword (`f(n=1)`). An
// import declaration among ds is one such statement, for its name.
func (fe *Frontend) Quote(path string, src []byte, ds []*lang.Decl) (string, error) {
	if !treesit.Available {
		return "", fmt.Errorf("%s", grammar.NoCgo)
	}
	f, _ := fe.cache.Get(path, src)
	lines := strings.SplitAfter(string(src), "\n")
	var body strings.Builder
	var imports []*binding
	var decls []*lang.Decl // the declarations quoted as they are
	for _, d := range ds {
		if d.Span.StartLine < 1 || d.Span.EndLine > len(lines) || d.Span.StartLine > d.Span.EndLine {
			return "", fmt.Errorf("%s: lines %d-%d are not in %s", d.Display, d.Span.StartLine, d.Span.EndLine, path)
		}
		if dd, ok := d.Data.(*declData); ok && d.Kind == model.KindImport && dd.bind != nil {
			imports = append(imports, dd.bind)
			continue
		}
		if len(decls) > 0 {
			body.WriteString("\n")
		}
		decls = append(decls, d)
		text := strings.Join(lines[d.Span.StartLine-1:d.Span.EndLine], "")
		body.WriteString(text)
		if !strings.HasSuffix(text, "\n") {
			body.WriteString("\n")
		}
	}
	used := map[string]bool{}
	treesit.Walk(f.t.Root, func(n *treesit.Node) bool {
		if n.Kind != "identifier" || !inSpans(decls, int(n.Line)) {
			return true
		}
		if p := n.Parent; p != nil && (p.Kind == "attribute" && n.Field == "attribute" || p.Kind == "keyword_argument" && n.Field == "name") {
			return true
		}
		used[n.Tree.Text(n)] = true
		return true
	})
	for name := range used {
		for _, bd := range f.top.names[name] {
			if bd.kind == bImport || bd.kind == bFrom {
				if !slices.Contains(imports, bd) {
					imports = append(imports, bd)
				}
				break
			}
		}
	}
	if len(imports) == 0 {
		return body.String(), nil
	}
	sort.Slice(imports, func(i, j int) bool { return imports[i].at.Start < imports[j].at.Start })
	var out strings.Builder
	for _, bd := range imports {
		out.WriteString(importStatement(bd) + "\n")
	}
	return out.String() + "\n" + body.String(), nil
}

// importStatement is a statement that binds what one import binding
// binds, and nothing else.
func importStatement(bd *binding) string {
	switch {
	case bd.kind == bFrom && bd.member != bd.name:
		return "from " + bd.module + " import " + bd.member + " as " + bd.name
	case bd.kind == bFrom:
		return "from " + bd.module + " import " + bd.member
	case bd.at != nil && bd.at.Kind == "dotted_name":
		return "import " + bd.at.Text() // import a.b binds a
	default:
		return "import " + bd.module + " as " + bd.name
	}
}

func inSpans(ds []*lang.Decl, line int) bool {
	for _, d := range ds {
		if d.Span.Contains(line) {
			return true
		}
	}
	return false
}
