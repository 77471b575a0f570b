package python

import (
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// declData is the Python part of a declaration (lang.Decl.Data).
type declData struct {
	file      *pfile
	fn        *funcInfo
	overloads []*funcInfo // @overload stubs of fn
	setter    bool        // a property with a setter
	cls       *classInfo
	attr      *attrInfo
	owner     *classInfo // the class of an attribute
	ownerKind ckind
	bind      *binding // module variable or import
	all       []string // __all__
	// follows is set on the declaration of an override that must follow
	// its base (a derived change): the base's new signature.
	follows *funcInfo
}

// followsOf is the signature a derived override must take; nil for
// other declarations (and a nil d).
func (d *declData) followsOf() *funcInfo {
	if d == nil {
		return nil
	}
	return d.follows
}

// packageOf is the package key of a file: its path without the
// extension. A Python module is its file; the dotted name depends on the
// import roots, which only the analyzer knows.
func packageOf(p string) string {
	return strings.TrimSuffix(strings.TrimSuffix(p, ".py"), ".pyi")
}

// decls turns a parsed file into declarations.
func decls(f *pfile) []*lang.Decl {
	b := &declBuilder{f: f, seen: map[string]*lang.Decl{}}
	b.imports()
	b.variables()
	for _, c := range f.classes {
		if inErr(c.node) {
			continue
		}
		b.class(c)
	}
	for _, fn := range f.funcs {
		if inErr(fn.node) {
			continue
		}
		b.function(fn)
	}
	return b.out
}

// inErr reports a node inside a syntax error: its declarations are
// skipped rather than half read.
func inErr(n *treesit.Node) bool {
	for p := n; p != nil; p = p.Parent {
		if p.Bad {
			return true
		}
	}
	return false
}

type declBuilder struct {
	f    *pfile
	out  []*lang.Decl
	seen map[string]*lang.Decl // key -> decl, one per key
}

func (b *declBuilder) block(kind model.Kind, container, name, display string, span, nameAt *treesit.Node) model.Block {
	return model.Block{
		Lang: "python", Kind: kind, Path: b.f.path, Package: packageOf(b.f.path),
		Container: container, Name: name, Display: display,
		Span:     model.Span{StartLine: int(span.Line), EndLine: int(span.EndLine)},
		NameLine: int(nameAt.Line),
	}
}

func (b *declBuilder) add(d *lang.Decl) *lang.Decl {
	k := d.Key()
	if prev, ok := b.seen[k]; ok {
		return prev
	}
	b.seen[k] = d
	b.out = append(b.out, d)
	return d
}

func (b *declBuilder) imports() {
	names := make([]string, 0, len(b.f.top.names))
	for n := range b.f.top.names {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		var targets []string
		var first *binding
		for _, bd := range b.f.top.names[n] {
			if bd.kind != bImport && bd.kind != bFrom || inErr(bd.stmt) {
				continue
			}
			if first == nil {
				first = bd
			}
			targets = append(targets, importTarget(bd))
		}
		if first == nil {
			continue
		}
		display := "import " + n
		if first.kind == bFrom {
			display += " (from " + first.module + ")"
		} else if first.module != n {
			display += " (" + first.module + ")"
		}
		blk := b.block(model.KindImport, "", "import "+n, display, first.stmt, first.at)
		blk.Signature = strings.Join(strings.Fields(first.stmt.Text()), " ")
		b.add(&lang.Decl{Block: blk.WithData(&declData{file: b.f, bind: first}), Sig: strings.Join(targets, " | ")})
	}
}

// importTarget is what an import binds: "module" or "module:member".
func importTarget(bd *binding) string {
	if bd.kind == bFrom {
		return bd.module + ":" + bd.member
	}
	return bd.module
}

func (b *declBuilder) variables() {
	names := make([]string, 0, len(b.f.top.names))
	for n := range b.f.top.names {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		return b.f.top.names[names[i]][0].at.Start < b.f.top.names[names[j]][0].at.Start
	})
	for _, n := range names {
		var first *binding
		var values []string
		annot := ""
		for _, bd := range b.f.top.names[n] {
			if bd.kind != bAssign || inErr(bd.stmt) {
				continue
			}
			if first == nil {
				first = bd
			}
			if bd.annot != nil && annot == "" {
				annot = treesit.Compact(bd.annot)
			}
			values = append(values, b.f.t.Tokens(bd.value, nil))
		}
		if first == nil || n == "_" {
			continue
		}
		// a name also bound by def or class is that declaration
		if hasKind(b.f.top.names[n], bDef) || hasKind(b.f.top.names[n], bClass) {
			continue
		}
		kind, word := model.KindVar, "variable "
		if isConstName(n) {
			kind, word = model.KindConst, "constant "
		}
		blk := b.block(kind, "", n, word+n, first.stmt, first.at)
		blk.Signature = firstLine(first.stmt.Text())
		dd := &declData{file: b.f, bind: first}
		sig := annot
		body := strings.Join(values, " ; ")
		if n == "__all__" && b.f.hasAll {
			all := append([]string(nil), b.f.all...)
			sort.Strings(all)
			sig, body = "__all__ "+strings.Join(all, " "), ""
			dd.all = b.f.all
		}
		b.add(&lang.Decl{Block: blk.WithData(dd), Sig: sig, Body: body})
	}
}

func hasKind(bs []*binding, k bindKind) bool {
	for _, b := range bs {
		if b.kind == k {
			return true
		}
	}
	return false
}

func isConstName(n string) bool {
	hasUpper := false
	for _, r := range n {
		switch {
		case r >= 'a' && r <= 'z':
			return false
		case r >= 'A' && r <= 'Z':
			hasUpper = true
		}
	}
	return hasUpper
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// containerOf is the qualified name of what encloses a class or function.
func containerOf(qual, name string) string {
	return strings.TrimSuffix(strings.TrimSuffix(qual, name), ".")
}

func (b *declBuilder) class(c *classInfo) {
	kind := kindFromText(c.decorators, c.bases)
	var bases []string
	for _, x := range c.bases {
		bases = append(bases, x.Tree.Tokens(x, nil))
	}
	for _, k := range c.keywords {
		bases = append(bases, k.Tree.Tokens(k, nil))
	}
	var decos []string
	for _, d := range c.decorators {
		decos = append(decos, "@"+d.Tree.Tokens(d, nil))
	}
	sig := "class " + kind.String() + " " + c.typeParams + "(" + strings.Join(bases, ", ") + ") " + strings.Join(decos, " ")
	body := c.node.Child("body")
	blk := b.block(model.KindType, containerOf(c.qual, c.name), c.name, "class "+c.qual, c.outer, c.node.Child("name"))
	hdr := c.node.Text()
	if body != nil {
		hdr = b.f.t.Text(&treesit.Node{Start: c.node.Start, End: body.Start})
	}
	blk.Signature = strings.TrimSuffix(strings.Join(strings.Fields(hdr), " "), ":")
	b.add(&lang.Decl{Block: blk.WithData(&declData{file: b.f, cls: c}), Sig: sig, Body: b.f.t.Tokens(body, docstring(body))})

	attrs := make([]*attrInfo, 0, len(c.attrs))
	for _, a := range c.attrs {
		attrs = append(attrs, a)
	}
	sort.Slice(attrs, func(i, j int) bool { return attrs[i].at.Start < attrs[j].at.Start })
	for _, a := range attrs {
		if _, isMethod := c.methods[a.name]; isMethod || inErr(a.stmt) {
			continue
		}
		switch a.name {
		case "__slots__", "__module__", "__qualname__", "__doc__", "__annotations__", "__match_args__":
			continue
		}
		word := "attribute "
		switch kind {
		case ckDataclass, ckAttrsOld, ckNamedTuple, ckTypedDict, ckModel:
			if !a.instance {
				word = "field "
			}
		case ckEnum:
			word = "member "
		}
		blk := b.block(model.KindField, c.qual, a.name, word+c.qual+"."+a.name, a.stmt, a.at)
		blk.Signature = firstLine(a.stmt.Text())
		b.add(&lang.Decl{Block: blk.WithData(&declData{file: b.f, attr: a, owner: c, ownerKind: kind}),
			Sig: fieldSig(a, kind), Body: a.at.Tree.Tokens(a.value, nil)})
	}
}

// fieldSig is what dependents of an attribute rely on: its annotation,
// and for classes whose fields make the constructor, whether and how the
// field enters it.
func fieldSig(a *attrInfo, kind ckind) string {
	sig := ""
	if a.annot != nil {
		sig = a.annot.Tree.Tokens(a.annot, nil)
	}
	if a.instance {
		return "self " + sig
	}
	switch kind {
	case ckDataclass, ckAttrsOld, ckNamedTuple, ckTypedDict, ckModel:
		f := fieldOf(a, kind, false)
		if f == nil {
			return sig + " (not in the constructor)"
		}
		sig += " " + f.kind.String()
		if f.hasDef {
			sig += " = default"
		}
		if f.name != a.name {
			sig += " as " + f.name
		}
	}
	return sig
}

func (b *declBuilder) function(fn *funcInfo) {
	if fn.overload {
		return // folded into the implementation
	}
	if fn.cls != nil && fn.cls.methods[fn.name] != fn {
		return // a property setter or a redefinition: the first one stands
	}
	if fn.cls == nil && fn.parentFn == nil {
		// a redefinition at module level: the last one is the function
		bs := b.f.top.names[fn.name]
		for i := len(bs) - 1; i >= 0; i-- {
			if bs[i].kind == bDef && !bs[i].fn.overload {
				if bs[i].fn != fn {
					return
				}
				break
			}
		}
	}
	dd := &declData{file: b.f, fn: fn}
	for _, o := range b.f.funcs {
		if o.overload && o.name == fn.name && o.cls == fn.cls && o.parentFn == fn.parentFn {
			dd.overloads = append(dd.overloads, o)
		}
		if o != fn && o.property && fn.property && o.cls == fn.cls && o.cls != nil && o.name == fn.name {
			dd.setter = true
		}
	}
	kind := model.KindFunc
	var container string
	switch {
	case fn.cls != nil:
		kind, container = model.KindMethod, fn.cls.qual
		if fn.name == "__init__" || fn.name == "__new__" {
			kind = model.KindConstructor
		}
	case fn.parentFn != nil:
		container = fn.parentFn.qual
	}
	body := fn.node.Child("body")
	blk := b.block(kind, container, fn.name, funcDisplay(fn), fn.outer, fn.node.Child("name"))
	hdr := fn.node.Text()
	if body != nil {
		hdr = b.f.t.Text(&treesit.Node{Start: fn.node.Start, End: body.Start})
	}
	blk.Signature = strings.TrimSuffix(strings.Join(strings.Fields(hdr), " "), ":")
	sig := funcSig(fn)
	for _, o := range dd.overloads {
		sig += " | overload " + funcSig(o)
	}
	if dd.setter {
		sig += " settable"
	}
	b.add(&lang.Decl{Block: blk.WithData(dd), Sig: sig, Body: b.f.t.Tokens(body, docstring(body))})
}

// funcDisplay is how a function's block is named, in its declaration and
// in the findings inside it alike (the fix engine plans blocks by this
// name): "def f", "async def C.m", "property C.p", "def f.inner".
func funcDisplay(fn *funcInfo) string {
	word := "def "
	if fn.cls != nil && fn.property {
		word = "property "
	}
	if fn.async {
		word = "async " + word
	}
	return word + fn.qual
}

// funcSig is the canonical signature: what callers rely on.
func funcSig(fn *funcInfo) string {
	var sb strings.Builder
	if fn.async {
		sb.WriteString("async ")
	}
	for _, d := range fn.decorators {
		sb.WriteString("@" + d.Tree.Tokens(d, nil) + " ")
	}
	sb.WriteString("def" + fn.typeParams + "(")
	for i, p := range fn.params {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(paramString(p))
	}
	sb.WriteString(")")
	if fn.returns != nil {
		sb.WriteString(" -> " + fn.returns.Tree.Tokens(fn.returns, nil))
	}
	return sb.String()
}

func paramString(p param) string {
	s := ""
	switch p.kind {
	case posOnly:
		s = "/"
	case varArgs:
		s = "*"
	case kwOnly:
		s = "kw:"
	case varKw:
		s = "**"
	}
	s += p.name
	if p.annot != "" {
		s += ": " + p.annot
	}
	if p.hasDef {
		s += " = " + p.def
	}
	return s
}
