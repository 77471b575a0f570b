package golang

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/ripple-dev/ripple/internal/model"
)

// target is one changed declaration whose dependents are searched.
type target struct {
	ch        *model.Change
	old, new  *model.Block
	name      string // the name dependents use in the head state (the old name)
	kind      model.Kind
	pkgKey    string // package of the declaration
	container string // for members: the type
	member    bool   // method, interface method or field
	iface     bool   // an interface method, or a change of an interface type
}

func (t *target) decl() *model.Block {
	if t.old != nil {
		return t.old
	}
	return t.new
}

// refKind is the syntactic role of a reference.
type refKind int

const (
	rkCall     refKind = iota // the callee of a call
	rkValue                   // any other use of the name (value, type, conversion)
	rkKey                     // a key of a struct literal
	rkLiteral                 // a composite literal of the container type
	rkCopy                    // a function reading every old field of a struct that gained one (copies.go)
	rkImpl                    // a method declaration implementing an interface method
	rkIfaceDcl                // an interface method the changed method may implement
	rkEmbed                   // the type embedded in a struct or interface
)

// ref is one place in the head state related to a target.
type ref struct {
	t       *target
	f       *pfile
	id      *ast.Ident
	kind    refKind
	call    *ast.CallExpr
	lit     *ast.CompositeLit
	stack   []ast.Node // ancestors, outermost first
	prec    model.Precision
	via     string // "embedding S" when reached through a promoted member
	implRcv string // for rkImpl: the implementing type
	param   string // for rkCopy: the receiver or parameter read
	decl    *ast.FuncDecl
}

// walker finds the references of the targets in one file.
type walker struct {
	syms   *symbols
	f      *pfile
	byName map[string][]*target
	// literal targets by container: field changes reach struct literals
	byType map[tref][]*target
	// added: structs that gained fields, for code covering every old one
	added map[tref]*addedFields
	refs  []*ref
	stack []ast.Node
}

func (w *walker) walk() {
	ast.Inspect(w.f.ast, func(n ast.Node) bool {
		if n == nil {
			w.stack = w.stack[:len(w.stack)-1]
			return false
		}
		w.stack = append(w.stack, n)
		switch x := n.(type) {
		case *ast.Ident:
			if ts := w.byName[x.Name]; len(ts) > 0 {
				w.ident(x, ts)
			}
		case *ast.CompositeLit:
			if len(w.byType) > 0 {
				w.literal(x)
			}
		case *ast.FuncDecl:
			if len(w.added) > 0 {
				w.copies(x)
			}
		}
		return true
	})
}

func (w *walker) parent(i int) ast.Node {
	if len(w.stack) > i {
		return w.stack[len(w.stack)-1-i]
	}
	return nil
}

func (w *walker) add(r *ref) {
	r.f = w.f
	r.stack = append([]ast.Node(nil), w.stack...)
	w.refs = append(w.refs, r)
}

// isTopOrUnresolved reports whether an unqualified identifier may denote
// a package-level declaration.
func (w *walker) isTopOrUnresolved(id *ast.Ident) bool {
	return w.f.scopes.topOrUnresolved(id)
}

// seesUnqualified reports whether the file sees target t's package-level
// name without a qualifier.
func (w *walker) seesUnqualified(t *target) bool {
	if w.f.pkgKey == t.pkgKey {
		return true
	}
	for _, d := range w.f.dotImports {
		if d == t.pkgKey {
			return true
		}
	}
	return false
}

// useOf says how the expression id completes (id itself, or the
// selector it is the name of) is used: called, directly or through a
// generic instantiation F[T](...), with the call, or else as a value.
func (w *walker) useOf(id *ast.Ident) (refKind, *ast.CallExpr) {
	p := w.parent(1)
	// the expression the identifier completes
	var e ast.Node = id
	i := 1
	if sel, ok := p.(*ast.SelectorExpr); ok && sel.Sel == id {
		e, i = sel, 2
	}
	if c, ok := w.parent(i).(*ast.CallExpr); ok && c.Fun == e {
		return rkCall, c
	}
	// generic instantiation F[T](...), F[K, V](...)
	switch ix := w.parent(i).(type) {
	case *ast.IndexExpr:
		if c, ok := w.parent(i + 1).(*ast.CallExpr); ok && ix.X == e && c.Fun == ix {
			return rkCall, c
		}
	case *ast.IndexListExpr:
		if c, ok := w.parent(i + 1).(*ast.CallExpr); ok && ix.X == e && c.Fun == ix {
			return rkCall, c
		}
	}
	return rkValue, nil
}

// ident records the references id makes to the targets: a qualified
// name of a target's package, a member through a selector (member), a
// composite literal key (key), a declaration of a method or interface
// method, or an unqualified name of a package-level target. Names that
// declare or denote something else are skipped.
func (w *walker) ident(id *ast.Ident, ts []*target) {
	p := w.parent(1)
	kindOf := func() (refKind, *ast.CallExpr) { return w.useOf(id) }
	switch pn := p.(type) {
	case *ast.SelectorExpr:
		if pn.Sel != id {
			break // id is the X of a selector: handled as unqualified below
		}
		if x, ok := pn.X.(*ast.Ident); ok && w.f.scopes.unresolved(x) {
			if ip, ok := w.f.imports[x.Name]; ok {
				for _, t := range ts {
					if !t.member && t.pkgKey == ip {
						k, c := kindOf()
						if w.embedded(id) {
							k = rkEmbed
						}
						w.add(&ref{t: t, id: id, kind: k, call: c, prec: model.PrecisionSyntax})
					}
				}
				return
			}
		}
		w.member(id, pn, ts, kindOf)
		return
	case *ast.KeyValueExpr:
		if pn.Key == id {
			if lit, ok := w.parent(2).(*ast.CompositeLit); ok {
				w.key(id, lit, ts)
				return
			}
		}
	case *ast.FuncDecl:
		if pn.Name == id {
			w.funcDecl(id, pn, ts)
			return
		}
	case *ast.Field:
		for _, n := range pn.Names {
			if n == id {
				if _, ok := w.parent(3).(*ast.InterfaceType); ok {
					w.ifaceMethodDecl(id, pn, ts)
				}
				return // a field, parameter or interface method declaration
			}
		}
	case *ast.TypeSpec:
		if pn.Name == id {
			return
		}
	case *ast.ValueSpec:
		for _, n := range pn.Names {
			if n == id {
				return
			}
		}
	case *ast.LabeledStmt, *ast.BranchStmt, *ast.ImportSpec:
		return
	case *ast.AssignStmt:
		if pn.Tok == token.DEFINE {
			for _, l := range pn.Lhs {
				if l == id && w.f.scopes.local(id) {
					return
				}
			}
		}
	}
	if !w.isTopOrUnresolved(id) {
		return // a local
	}
	if _, ok := w.f.imports[id.Name]; ok {
		// the name an import binds in this file: a package-level
		// declaration of that name would clash with it (spf13/viper
		// cfa8fd9b4f: a deleted type finder, and the go-finder package
		// imported in its place)
		return
	}
	for _, t := range ts {
		if t.member || !w.seesUnqualified(t) {
			continue
		}
		k, c := kindOf()
		r := &ref{t: t, id: id, kind: k, call: c, prec: model.PrecisionSyntax}
		if w.embedded(id) {
			r.kind = rkEmbed
		}
		w.add(r)
	}
}

// member handles x.Name where x is not a package.
func (w *walker) member(id *ast.Ident, sel *ast.SelectorExpr, ts []*target, kindOf func() (refKind, *ast.CallExpr)) {
	var recv *tref
	resolved := false
	for _, t := range ts {
		if !t.member {
			continue
		}
		if !resolved {
			recv = w.syms.exprType(sel.X, w.f, 0)
			resolved = true
		}
		k, c := kindOf()
		r := &ref{t: t, id: id, kind: k, call: c}
		container := tref{t.pkgKey, t.container}
		if recv != nil && (t.ch.Label == model.DM || t.ch.Label == model.DF) && w.syms.memberKind(recv, id.Name, 0) == kindLetter(t) {
			// the receiver's type still has a member of that name and
			// kind in the head: the member moved (into an embedded
			// interface or struct, or out of one: terraform 7645aa0be2
			// and 660d029178), and the use resolves to it. A field
			// replaced by a method of its name (a getter) is not this.
			continue
		}
		switch {
		case recv == nil:
			r.prec = model.PrecisionName
		case (t.ch.Label == model.DM || t.ch.Label == model.DF) && w.syms.embedsUnknown(recv, 0):
			// the type embeds one the index does not hold, which may
			// provide the member (bubbletea d1c8c97640: KeyMsg became an
			// interface embedding fmt.Stringer, String deleted from it)
			r.prec = model.PrecisionName
		case *recv == container || w.syms.sameStruct(recv, container):
			r.prec = model.PrecisionSyntax
		case w.syms.embeds(recv, container, 0):
			r.prec = model.PrecisionSyntax
			r.via = "embedding in " + recv.name
		default:
			continue // a member of another type
		}
		w.add(r)
	}
}

// key handles T{Name: v}.
func (w *walker) key(id *ast.Ident, lit *ast.CompositeLit, ts []*target) {
	lt := w.literalType(lit)
	for _, t := range ts {
		if t.kind != model.KindField {
			continue
		}
		r := &ref{t: t, id: id, kind: rkKey, lit: lit}
		switch {
		case lt == nil:
			if lit.Type != nil {
				if _, isMap := lit.Type.(*ast.MapType); isMap {
					continue
				}
			}
			if w.anonymousStruct(lit) {
				continue // a literal of a struct type written out: never a named type's
			}
			r.prec = model.PrecisionName
		case *lt == (tref{t.pkgKey, t.container}) || w.syms.sameStruct(lt, tref{t.pkgKey, t.container}):
			r.prec = model.PrecisionSyntax
		case w.syms.embeds(lt, tref{t.pkgKey, t.container}, 0):
			continue // promoted fields cannot be keys
		default:
			continue
		}
		w.add(r)
	}
}

// anonymousStruct reports a composite literal whose type is a struct
// type written out (struct{...}{...}), or elided in a slice, array or
// map literal of one (the test tables of []struct{...}{{...}}).
func (w *walker) anonymousStruct(lit *ast.CompositeLit) bool {
	isStruct := func(e ast.Expr) bool {
		if st, ok := e.(*ast.StarExpr); ok {
			e = st.X
		}
		_, ok := e.(*ast.StructType)
		return ok
	}
	if lit.Type != nil {
		return isStruct(lit.Type)
	}
	for i := len(w.stack) - 2; i >= 0; i-- {
		switch p := w.stack[i].(type) {
		case *ast.KeyValueExpr, *ast.UnaryExpr:
			continue
		case *ast.CompositeLit:
			switch ot := p.Type.(type) {
			case *ast.ArrayType:
				return isStruct(ot.Elt)
			case *ast.MapType:
				return isStruct(ot.Value)
			}
			return false
		default:
			return false
		}
	}
	return false
}

// literalType resolves the type of a composite literal, including the
// elided element types of slice, array and map literals.
func (w *walker) literalType(lit *ast.CompositeLit) *tref {
	if lit.Type != nil {
		return w.syms.typeRef(lit.Type, w.f)
	}
	// find the enclosing literal: parent may be a KeyValueExpr or &lit
	for i := len(w.stack) - 2; i >= 0; i-- {
		switch p := w.stack[i].(type) {
		case *ast.KeyValueExpr, *ast.UnaryExpr:
			continue
		case *ast.CompositeLit:
			if p.Type == nil {
				return nil
			}
			switch ot := p.Type.(type) {
			case *ast.ArrayType:
				return w.syms.typeRef(ot.Elt, w.f)
			case *ast.MapType:
				return w.syms.typeRef(ot.Value, w.f)
			}
			return nil
		default:
			return nil
		}
	}
	return nil
}

// literal records composite literals of the container types of field
// targets (their element counts and keys are checked later).
func (w *walker) literal(lit *ast.CompositeLit) {
	lt := w.literalType(lit)
	if lt == nil {
		return
	}
	for _, t := range w.byType[*lt] {
		w.add(&ref{t: t, id: nil, kind: rkLiteral, lit: lit, prec: model.PrecisionSyntax})
	}
}

// funcDecl records a method declaration with the name of an interface
// method target: a candidate implementation.
func (w *walker) funcDecl(id *ast.Ident, fd *ast.FuncDecl, ts []*target) {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return
	}
	rcv, _ := recvBase(fd.Recv.List[0].Type)
	for _, t := range ts {
		if !t.iface || t.kind != model.KindIfaceMethod {
			continue
		}
		w.add(&ref{t: t, id: id, kind: rkImpl, decl: fd, implRcv: rcv, prec: model.PrecisionSyntax})
	}
}

// ifaceMethodDecl records an interface method with the name of a
// concrete method target: an interface the method may implement.
func (w *walker) ifaceMethodDecl(id *ast.Ident, f *ast.Field, ts []*target) {
	for _, t := range ts {
		if t.kind != model.KindMethod {
			continue
		}
		w.add(&ref{t: t, id: id, kind: rkIfaceDcl, prec: model.PrecisionName})
	}
}

// enclosing returns the outermost declaration in the stack and its name.
func enclosingDecl(stack []ast.Node) ast.Decl {
	for _, n := range stack {
		if d, ok := n.(ast.Decl); ok {
			return d
		}
	}
	return nil
}

func declName(d ast.Decl) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && len(d.Recv.List) > 0 {
			base, ptr := recvBase(d.Recv.List[0].Type)
			if ptr {
				return "func (*" + base + ")." + d.Name.Name
			}
			return "func (" + base + ")." + d.Name.Name
		}
		return "func " + d.Name.Name
	case *ast.GenDecl:
		return strings.ToLower(d.Tok.String()) + " " + strings.Join(specNames(d), ", ")
	}
	return ""
}

// specNames are the names a type, const or var declaration binds, in
// order.
func specNames(d *ast.GenDecl) []string {
	var names []string
	for _, s := range d.Specs {
		switch s := s.(type) {
		case *ast.TypeSpec:
			names = append(names, s.Name.Name)
		case *ast.ValueSpec:
			for _, n := range s.Names {
				names = append(names, n.Name)
			}
		}
	}
	return names
}

// embedded reports whether the identifier (through *T, pkg.T or T[K])
// is the type of an embedded field of a struct or interface.
func (w *walker) embedded(id *ast.Ident) bool {
	var cur ast.Node = id
	for i := len(w.stack) - 2; i >= 0; i-- {
		switch p := w.stack[i].(type) {
		case *ast.SelectorExpr:
			if p.Sel != cur {
				return false
			}
		case *ast.StarExpr, *ast.IndexExpr, *ast.IndexListExpr:
		case *ast.Field:
			if len(p.Names) != 0 || p.Type != cur || i < 2 {
				return false
			}
			switch w.stack[i-2].(type) {
			case *ast.StructType, *ast.InterfaceType:
				return true
			}
			return false
		default:
			return false
		}
		cur = w.stack[i]
	}
	return false
}

// kindLetter is memberKind's letter for a member target: 'f' a field,
// 'm' a method.
func kindLetter(t *target) byte {
	if t.kind == model.KindField {
		return 'f'
	}
	return 'm'
}
