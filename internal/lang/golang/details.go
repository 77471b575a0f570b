package golang

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
)

// details explains a change between two states of one declaration.
func details(old, new *lang.Decl) []string {
	switch o := old.Data.(type) {
	case *funcInfo:
		n, ok := new.Data.(*funcInfo)
		if !ok {
			if _, f := new.Data.(*fieldInfo); f {
				return []string{"method became a field"}
			}
			return []string{"no longer a function"}
		}
		return funcDetails(o, n)
	case *fieldInfo:
		n, ok := new.Data.(*fieldInfo)
		if !ok {
			if _, m := new.Data.(*funcInfo); m {
				return []string{"field became a method"}
			}
			return []string{"changed kind"}
		}
		return fieldDetails(o, n)
	case *typeInfo:
		n, ok := new.Data.(*typeInfo)
		if !ok {
			return []string{"changed kind"}
		}
		return typeDetails(o, n)
	}
	if old.Sig != new.Sig {
		if old.Kind == "import" {
			return []string{fmt.Sprintf("import name %s → %s", strings.TrimPrefix(old.Sig, "name "), strings.TrimPrefix(new.Sig, "name "))}
		}
		return []string{fmt.Sprintf("type %s → %s", orNone(old.Sig), orNone(new.Sig))}
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "(inferred)"
	}
	return s
}

func describeParam(p param) string {
	if p.Name != "" {
		return p.Name + " " + p.Type
	}
	return p.Type
}

func funcDetails(o, n *funcInfo) []string {
	var out []string
	if o.RecvPtr != n.RecvPtr {
		if n.RecvPtr {
			out = append(out, "receiver changed from value to pointer")
		} else {
			out = append(out, "receiver changed from pointer to value")
		}
	}
	if o.TypeParams != n.TypeParams {
		out = append(out, fmt.Sprintf("type parameters %s → %s", orEmpty(o.TypeParams), orEmpty(n.TypeParams)))
	}
	out = append(out, listDetails("parameter", o.Params, n.Params)...)
	out = append(out, listDetails("result", o.Results, n.Results)...)
	return out
}

func orEmpty(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// listDetails describes how a parameter or result list changed.
func listDetails(what string, o, n []param) []string {
	if perm := permutation(o, n); perm != nil {
		return []string{fmt.Sprintf("%ss reordered: (%s) → (%s)", what, namedOf(o), namedOf(n))}
	}
	if typesOf(o) == typesOf(n) {
		return nil
	}
	var out []string
	if len(o) == len(n) {
		for i := range o {
			if o[i].Type != n[i].Type {
				name := n[i].Name
				if name == "" {
					name = fmt.Sprintf("%d", i+1)
				}
				out = append(out, fmt.Sprintf("%s %s: type %s → %s", what, name, o[i].Type, n[i].Type))
			}
		}
		return out
	}
	// align the lists on their longest common subsequence of types
	newToOld, removed := alignment(o, n)
	for _, i := range removed {
		out = append(out, fmt.Sprintf("%s %s removed", what, describeParam(o[i])))
	}
	for j, i := range newToOld {
		if i < 0 {
			out = append(out, fmt.Sprintf("%s %s added", what, describeParam(n[j])))
		}
	}
	return out
}

func fieldDetails(o, n *fieldInfo) []string {
	var out []string
	if o.Type != n.Type {
		out = append(out, fmt.Sprintf("type %s → %s", o.Type, n.Type))
	}
	if o.Embedded != n.Embedded {
		if n.Embedded {
			out = append(out, "now embedded")
		} else {
			out = append(out, "no longer embedded")
		}
	}
	for _, k := range encodingKeys {
		ov, oo := o.Names[k]
		nv, no := n.Names[k]
		switch {
		case oo && no && ov != nv:
			out = append(out, fmt.Sprintf("%s name %q → %q", k, ov, nv))
		case oo && !no:
			out = append(out, fmt.Sprintf("%s tag %q removed", k, ov))
		case !oo && no:
			out = append(out, fmt.Sprintf("%s name %q set", k, nv))
		}
	}
	return out
}

func typeDetails(o, n *typeInfo) []string {
	var out []string
	if o.Alias != n.Alias {
		out = append(out, "alias status changed")
	}
	if o.Underlying != n.Underlying {
		out = append(out, fmt.Sprintf("underlying type %s → %s", headerOf(o.Underlying), headerOf(n.Underlying)))
	}
	if o.TypeParams != n.TypeParams {
		out = append(out, fmt.Sprintf("type parameters %s → %s", orEmpty(o.TypeParams), orEmpty(n.TypeParams)))
	}
	oe, ne := strings.Join(o.Embeds, ", "), strings.Join(n.Embeds, ", ")
	if oe != ne {
		out = append(out, fmt.Sprintf("embedded %s → %s", orEmpty(oe), orEmpty(ne)))
	}
	return out
}

// escapes finds how a body change reaches callers, looking at the
// statements on changed lines of both states.
func escapes(old, new *lang.Decl, oldChanged, newChanged func(from, to int) bool) []string {
	set := map[string]bool{}
	if fi, ok := old.Data.(*funcInfo); ok && fi.Decl != nil && fi.Decl.Body != nil {
		bodyEscapes(fi, oldChanged, set)
	}
	if fi, ok := new.Data.(*funcInfo); ok && fi.Decl != nil && fi.Decl.Body != nil {
		bodyEscapes(fi, newChanged, set)
	}
	if _, ok := new.Data.(*funcInfo); !ok {
		// a variable's or constant's value
		return []string{"value"}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// assignedRoot is the variable an assignment to e writes: e itself, or
// the variable a selector, index or dereference writes through (through
// true); nil for anything else (a call's result).
func assignedRoot(e ast.Expr) (id *ast.Ident, through bool) {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x, through
		case *ast.SelectorExpr:
			e, through = x.X, true
		case *ast.IndexExpr:
			e, through = x.X, true
		case *ast.StarExpr:
			e, through = x.X, true
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil, false
		}
	}
}

// bodyEscapes adds to set what the changed lines (changed) of fi's body
// do that a caller can see: return values and errors, mutations of the
// receiver, of arguments passed by reference or of package state,
// channel sends, panics and exits.
func bodyEscapes(fi *funcInfo, changed func(from, to int) bool, set map[string]bool) {
	d := fi.Decl
	line := func(p token.Pos) int { return fi.Fset.PositionFor(p, false).Line }
	sc := resolveFunc(fi.File, d)
	params := map[*binding]bool{}
	var recv *binding
	if d.Recv != nil {
		for _, f := range d.Recv.List {
			for _, n := range f.Names {
				recv = sc.lookup(n)
			}
		}
	}
	for _, f := range d.Type.Params.List {
		switch f.Type.(type) {
		case *ast.StarExpr, *ast.MapType, *ast.ArrayType, *ast.ChanType:
			for _, n := range f.Names {
				params[sc.lookup(n)] = true
			}
		}
	}
	mutates := func(lhs ast.Expr) {
		id, through := assignedRoot(lhs)
		if id == nil || id.Name == "_" {
			return
		}
		b := sc.lookup(id)
		switch {
		case recv != nil && b == recv && through:
			set["receiver mutated"] = true
		case b != nil && params[b] && through:
			set["arguments mutated"] = true
		case b == nil || b.top:
			// a selector on a name the file does not declare is most
			// often an imported package's: not counted
			if _, isSel := lhs.(*ast.SelectorExpr); !isSel || b != nil {
				set["package state mutated"] = true
			}
		}
	}
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		if !changed(line(n.Pos()), line(n.End())) {
			return false // nothing inside this node changed
		}
		switch s := n.(type) {
		case *ast.ReturnStmt:
			if changed(line(s.Pos()), line(s.End())) && len(s.Results) > 0 {
				set["return values"] = true
				for _, r := range s.Results {
					if isErrorExpr(r) {
						set["errors"] = true
					}
				}
			}
		case *ast.AssignStmt:
			if changed(line(s.Pos()), line(s.End())) && s.Tok != token.DEFINE {
				for _, l := range s.Lhs {
					mutates(l)
				}
			}
		case *ast.IncDecStmt:
			if changed(line(s.Pos()), line(s.End())) {
				mutates(s.X)
			}
		case *ast.SendStmt:
			if changed(line(s.Pos()), line(s.End())) {
				set["channel sends"] = true
			}
		case *ast.CallExpr:
			if id, ok := s.Fun.(*ast.Ident); ok && sc.unresolved(id) && changed(line(s.Pos()), line(s.End())) {
				switch id.Name {
				case "panic":
					set["panics"] = true
				case "close":
					set["channel sends"] = true
				}
			}
			if sel, ok := s.Fun.(*ast.SelectorExpr); ok && changed(line(s.Pos()), line(s.End())) {
				if x, ok := sel.X.(*ast.Ident); ok && sc.unresolved(x) && (x.Name == "os" && sel.Sel.Name == "Exit" || x.Name == "log" && strings.HasPrefix(sel.Sel.Name, "Fatal")) {
					set["exits"] = true
				}
			}
		case *ast.FuncLit:
			return true
		}
		return true
	})
}

func isErrorExpr(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name == "err" || strings.HasPrefix(x.Name, "Err") || strings.HasPrefix(x.Name, "err")
	case *ast.CallExpr:
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
			n := sel.Sel.Name
			return n == "Errorf" || n == "New" && isIdent(sel.X, "errors") || n == "Wrap" || n == "Wrapf" || strings.HasSuffix(n, "Error")
		}
	case *ast.UnaryExpr:
		return isErrorExpr(x.X)
	case *ast.CompositeLit:
		return strings.HasSuffix(exprString(x.Type), "Error")
	}
	return false
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// permutation returns, for each new position, the old position of the
// same parameter, when n is o reordered (same names and types, another
// order); nil otherwise.
func permutation(o, n []param) []int {
	if len(o) != len(n) || len(o) < 2 {
		return nil
	}
	at := map[param]int{}
	for i, p := range o {
		if p.Name == "" || p.Name == "_" {
			return nil
		}
		at[p] = i
	}
	perm := make([]int, len(n))
	moved := false
	for j, p := range n {
		i, ok := at[p]
		if !ok {
			return nil
		}
		perm[j] = i
		moved = moved || i != j
	}
	if !moved || len(at) != len(o) {
		return nil
	}
	return perm
}

// alignment matches the parameters of two lists that differ in length:
// newToOld[j] is the old index of new parameter j (-1: added), removed the
// old indices matched by none. Parameters match on their types, along the
// longest common subsequence; when matching on name and type as well
// explains as many parameters, that alignment is taken, so that removing
// the first of two strings removes it, not the second.
func alignment(o, n []param) (newToOld []int, removed []int) {
	byType := func(a, b param) bool { return a.Type == b.Type }
	byName := func(a, b param) bool { return a.Type == b.Type && a.Name == b.Name && a.Name != "" && a.Name != "_" }
	if l, t := lcsAlign(o, n, byName); len(o)-len(t) == lcsLen(o, n, byType) {
		return l, t
	}
	return lcsAlign(o, n, byType)
}

func lcsTable(o, n []param, eq func(a, b param) bool) [][]int {
	lcs := make([][]int, len(o)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(n)+1)
	}
	for i := len(o) - 1; i >= 0; i-- {
		for j := len(n) - 1; j >= 0; j-- {
			if eq(o[i], n[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	return lcs
}

func lcsLen(o, n []param, eq func(a, b param) bool) int { return lcsTable(o, n, eq)[0][0] }

func lcsAlign(o, n []param, eq func(a, b param) bool) (newToOld []int, removed []int) {
	lcs := lcsTable(o, n, eq)
	newToOld = make([]int, len(n))
	i, j := 0, 0
	for i < len(o) || j < len(n) {
		switch {
		case i < len(o) && j < len(n) && eq(o[i], n[j]) && lcs[i][j] == lcs[i+1][j+1]+1:
			newToOld[j] = i
			i++
			j++
		case j < len(n) && (i == len(o) || lcs[i][j+1] >= lcs[i+1][j]):
			newToOld[j] = -1
			j++
		default:
			removed = append(removed, i)
			i++
		}
	}
	return newToOld, removed
}
