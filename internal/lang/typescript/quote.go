package typescript

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// Quote writes declarations of a file as a reply of the fix engine's
// model gives them (lang.Quoter): each declaration's lines, in order,
// opened by import declarations of what the file imports and they name
// (one per module and kind: `import { a, b as c } from 'm';`, `import
// type { T } from 'm';`, `import d from 'm';`, `import * as ns from
// 'm';`), which SplitImports reads. A name is used where it appears as an
// identifier or a type name, not as a property (`x.n`). Names bound by
// require() are left out: they are not import declarations.
func (fe *Frontend) Quote(path string, src []byte, ds []*lang.Decl) (string, error) {
	if !treesit.Available {
		return "", fmt.Errorf("%s", noCgo)
	}
	f, _ := fe.cache.Get(path, src)
	lines := strings.SplitAfter(string(src), "\n")
	var body strings.Builder
	for i, d := range ds {
		if d.Span.StartLine < 1 || d.Span.EndLine > len(lines) || d.Span.StartLine > d.Span.EndLine {
			return "", fmt.Errorf("%s: lines %d-%d are not in %s", d.Display, d.Span.StartLine, d.Span.EndLine, path)
		}
		if i > 0 {
			body.WriteString("\n")
		}
		text := strings.Join(lines[d.Span.StartLine-1:d.Span.EndLine], "")
		body.WriteString(text)
		if !strings.HasSuffix(text, "\n") {
			body.WriteString("\n")
		}
	}
	used := map[string]bool{}
	treesit.Walk(f.t.Root, func(n *treesit.Node) bool {
		switch n.Kind {
		case "identifier", "type_identifier", "shorthand_property_identifier":
		default:
			return true
		}
		for _, d := range ds {
			if d.Span.Contains(int(n.Line)) {
				used[n.Text()] = true
			}
		}
		return true
	})
	var bs []*binding
	for name := range used {
		if b := f.imports[name]; b != nil && importOf(b.node) != nil {
			bs = append(bs, b)
		}
	}
	stmts := importDecls(bs)
	if len(stmts) == 0 {
		return body.String(), nil
	}
	return strings.Join(stmts, "\n") + "\n\n" + body.String(), nil
}

// importOf is the import statement that holds n, or nil (a require()).
func importOf(n *treesit.Node) *treesit.Node {
	for p := n; p != nil; p = p.Parent {
		if p.Kind == "import_statement" {
			return p
		}
	}
	return nil
}

// importDecls writes import declarations binding exactly bs, in the
// order they were bound: named imports grouped per module and per kind
// (type-only or not), where the first of them was.
func importDecls(bs []*binding) []string {
	sort.Slice(bs, func(i, j int) bool { return bs[i].node.Start < bs[j].node.Start })
	type group struct{ typ, spec string }
	var out []string
	named := map[group]int{}    // the index in out of a module's named imports
	names := map[int][]string{} // by index in out
	for _, b := range bs {
		st := importOf(b.node)
		switch {
		case st.FirstOf("import_require_clause") != nil:
			out = append(out, strings.TrimSpace(st.Text())) // import x = require('m')
		case b.name == "default":
			out = append(out, "import "+typeWord(b)+b.local+" from '"+b.spec+"';")
		case b.name == "*":
			out = append(out, "import "+typeWord(b)+"* as "+b.local+" from '"+b.spec+"';")
		default:
			s := b.name
			if b.local != b.name {
				s += " as " + b.local
			}
			g := group{typeWord(b), b.spec}
			i, ok := named[g]
			if !ok {
				i = len(out)
				named[g] = i
				out = append(out, "")
			}
			names[i] = append(names[i], s)
			out[i] = "import " + g.typ + "{ " + strings.Join(names[i], ", ") + " } from '" + g.spec + "';"
		}
	}
	return out
}

func typeWord(b *binding) string {
	if b.typ {
		return "type "
	}
	return ""
}
