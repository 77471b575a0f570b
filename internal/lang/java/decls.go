package java

import (
	"path"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// declData is the Java part of a declaration (lang.Decl.Data).
type declData struct {
	file  *jfile
	typ   *jtype
	meth  *jmethod
	field *jfield
}

// packageOf is the classifier's unit of a file: its Java package, or for
// the default package its folder (files of the default package in two
// folders do not see each other unless compiled together).
func packageOf(f *jfile) string {
	if f.pkg != "" {
		return f.pkg
	}
	return "(default) " + path.Dir(f.path)
}

// decls turns a parsed file into declarations: every type, nested ones
// included, and their methods, constructors and fields. Overloads share
// their Key (Container.Name), so that the classifier pairs the states of
// one overload within the file by signature first (diffclassify); their
// Display names the parameter types.
func decls(f *jfile) []*lang.Decl {
	var out []*lang.Decl
	for _, t := range f.types {
		out = append(out, typeDecl(f, t))
		for _, fd := range t.fields {
			out = append(out, fieldDecl(f, fd))
		}
		for _, m := range t.methods {
			out = append(out, methodDecl(f, m))
		}
	}
	return out
}

func block(f *jfile, kind model.Kind, container, name, display string, span, at *treesit.Node) model.Block {
	b := model.Block{Lang: "java", Kind: kind, Path: f.path, Package: packageOf(f), Container: container, Name: name, Display: display}
	if span != nil {
		b.Span = model.Span{StartLine: int(span.Line), EndLine: int(span.EndLine)}
		b.NameLine = int(span.Line)
	}
	if at != nil {
		b.NameLine = int(at.Line)
	}
	return b
}

func outerQual(t *jtype) string {
	if t.outer == nil {
		return ""
	}
	return t.outer.qual
}

func typeDecl(f *jfile, t *jtype) *lang.Decl {
	kind := model.KindType
	if t.kind == "interface" || t.kind == "annotation" {
		kind = model.KindInterface
	}
	b := block(f, kind, outerQual(t), t.name, t.kind+" "+t.qual, t.node, t.node.Child("name"))
	hdr := t.node.Text()
	if body := t.node.Child("body"); body != nil {
		hdr = f.t.Text(&treesit.Node{Start: t.node.Start, End: body.Start})
	}
	b.Signature = strings.Join(strings.Fields(hdr), " ")
	return &lang.Decl{Block: b.WithData(&declData{file: f, typ: t}), Sig: typeSig(t)}
}

// typeSig is what users of a type rely on: its kind, the modifiers that
// decide who may use, extend or instantiate it, its type parameters, its
// supertypes and a record's components.
func typeSig(t *jtype) string {
	parts := []string{visibility(t.mods), t.kind}
	for _, m := range []string{"abstract", "final", "static", "sealed", "non-sealed"} {
		if t.has(m) {
			parts = append(parts, m)
		}
	}
	if t.tparams != "" {
		parts = append(parts, t.tparams)
	}
	if t.super != nil {
		parts = append(parts, "extends "+typeText(t.super))
	}
	if len(t.ifaces) > 0 {
		parts = append(parts, "implements "+strings.Join(typeTexts(t.ifaces), ", "))
	}
	if t.kind == "record" {
		parts = append(parts, "("+strings.Join(paramTypes(t.comps), ", ")+")")
	}
	return strings.Join(parts, " ")
}

func typeTexts(ns []*treesit.Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = typeText(n)
	}
	return out
}

func paramTypes(ps []param) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.typ
	}
	return out
}

// visibility is the access a declaration's modifiers give.
func visibility(mods []string) string {
	for _, m := range []string{"public", "protected", "private"} {
		if hasMod(mods, m) {
			return m
		}
	}
	return "package-private"
}

func fieldDecl(f *jfile, fd *jfield) *lang.Decl {
	word := "field "
	switch {
	case fd.enum:
		word = "enum constant "
	case fd.record:
		word = "record component "
	}
	b := block(f, model.KindField, fd.owner.qual, fd.name, word+fd.owner.qual+"."+fd.name, fd.node, fd.at)
	if fd.node != nil {
		b.Signature = firstLine(fd.node.Text())
	}
	body := ""
	if fd.value != nil {
		body = f.t.Tokens(fd.value, nil)
	}
	if fd.enum {
		if cb := fd.node.Child("body"); cb != nil {
			body += " " + f.t.Tokens(cb, nil)
		}
	}
	return &lang.Decl{Block: b.WithData(&declData{file: f, field: fd}), Sig: fieldSig(fd), Body: body}
}

// fieldSig is what readers and writers of a field rely on: its type,
// access, and whether it is static or final.
func fieldSig(fd *jfield) string {
	if fd.enum {
		return "enum constant"
	}
	s := visibility(fd.mods)
	for _, m := range []string{"static", "final"} {
		if hasMod(fd.mods, m) {
			s += " " + m
		}
	}
	return s + " " + fd.typ
}

func methodDecl(f *jfile, m *jmethod) *lang.Decl {
	kind, word := model.KindMethod, "method "
	switch {
	case m.ctor:
		kind, word = model.KindConstructor, "constructor "
	case m.owner.kind == "interface" || m.owner.kind == "annotation":
		kind = model.KindIfaceMethod
	}
	b := block(f, kind, m.owner.qual, m.name, word+methodDisplay(m), m.node, m.node.Child("name"))
	hdr := m.node.Text()
	if m.body != nil {
		hdr = f.t.Text(&treesit.Node{Start: m.node.Start, End: m.body.Start})
	}
	if m.implicit {
		hdr = "record " + m.owner.name + "(" + strings.Join(paramTypes(m.params), ", ") + ")"
	}
	b.Signature = strings.Join(strings.Fields(hdr), " ")
	body := ""
	if m.body != nil {
		body = f.t.Tokens(m.body, nil)
	}
	var names []string
	for _, p := range m.params {
		names = append(names, p.name)
	}
	// a parameter renamed changes the body's meaning, not the callers'
	body = "(" + strings.Join(names, ", ") + ") " + body
	if v := m.node.Child("value"); v != nil && m.node.Kind == "annotation_type_element_declaration" {
		body += " default " + f.t.Tokens(v, nil)
	}
	return &lang.Decl{Block: b.WithData(&declData{file: f, meth: m}), Sig: methodSig(m), Body: body}
}

// methodDisplay names a method with its parameter types, so that the
// overloads of one name are told apart: Calc.add(int, int).
func methodDisplay(m *jmethod) string {
	if m.ctor {
		return m.owner.qual + "(" + joinTypes(m.params) + ")"
	}
	return m.owner.qual + "." + m.name + "(" + strings.Join(paramTypes(m.params), ", ") + ")"
}

// methodSig is what callers and overriders rely on: access, static,
// abstract or default, type parameters, return type, parameter types and
// the checked exceptions declared.
func methodSig(m *jmethod) string {
	parts := []string{visibility(m.mods)}
	for _, x := range []string{"static", "abstract", "default", "final"} {
		if m.has(x) {
			parts = append(parts, x)
		}
	}
	if m.tparams != "" {
		parts = append(parts, m.tparams)
	}
	if !m.ctor {
		parts = append(parts, m.ret)
	}
	s := strings.Join(parts, " ") + " (" + strings.Join(paramTypes(m.params), ", ") + ")"
	if len(m.throws) > 0 {
		s += " throws " + strings.Join(m.throws, ", ")
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

func joinTypes(ps []param) string { return strings.Join(paramTypes(ps), ", ") }
