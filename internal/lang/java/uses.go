package java

import (
	"context"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// fieldQuery answers the relations of a field's change: its readers and
// writers (UsedBy) and, for a deleted one, its static importers.
func (a useJudge) fieldQuery(ctx context.Context, q lang.Query, t *target) ([]*lang.Ref, error) {
	if t.ch.Label != model.MF && t.ch.Label != model.DF || t.oldOwner == nil {
		return nil, nil
	}
	var out []*lang.Ref
	if q.Wants(model.UsedBy) {
		refs, err := a.fieldUses(ctx, t)
		if err != nil {
			return nil, err
		}
		out = append(out, refs...)
	}
	if q.Wants(model.ImportedBy) && t.ch.Label == model.DF {
		refs, err := callJudge{a.analyzer}.staticImporters(ctx, t)
		if err != nil {
			return nil, err
		}
		out = append(out, refs...)
	}
	return out, nil
}

// fieldUses judges the reads and writes of a changed or deleted field:
// obj.f on a receiver whose type resolves to the field's class (or a
// subclass), and f alone in code of such a class.
func (a useJudge) fieldUses(ctx context.Context, t *target) ([]*lang.Ref, error) {
	base := t.cls
	if base == nil {
		return nil, nil
	}
	files, _, err := a.memberFiles(ctx, base, t.name)
	if err != nil {
		return nil, err
	}
	display := t.oldOwner.qual + "." + t.name
	var out []*lang.Ref
	for _, f := range files {
		treesit.Walk(f.t.Root, func(n *treesit.Node) bool {
			if n.Bad {
				return false
			}
			var r rtype
			switch {
			case n.Kind == "field_access" && n.Child("field").Text() == t.name:
				r = a.ix.typeOf(f, n.Child("object"), 0)
				n = n.Child("field")
			case n.Kind == "identifier" && n.Text() == t.name && isBareUse(n):
				if _, _, local := localDecl(n, t.name); local {
					return true
				}
				r = a.b.bareOwner(f, n, t.name, base)
			default:
				return true
			}
			if r.state == outside || r.state == known && !a.ix.subtypeOf(r.t, base) {
				return true
			}
			if ref := a.fieldVerdict(t, f, n, r, display); ref != nil {
				out = append(out, ref)
			}
			return true
		})
	}
	return out, nil
}

// bareOwner is the class whose field a bare name reads: the innermost
// enclosing type that has (or had: base) a field of the name.
func (ix binder) bareOwner(f *jfile, n *treesit.Node, name string, base *jtype) rtype {
	scope, anon := enclosingType(f, n)
	if anon != nil {
		return rtype{why: "the use is inside an anonymous class"}
	}
	for s := scope; s != nil; s = s.outer {
		if fd, _ := ix.fieldOf(s, name); fd != nil || ix.subtypeOf(s, base) {
			return rtype{state: known, t: s}
		}
	}
	for _, im := range f.imports {
		if im.static && (im.wildcard || im.last() == name) {
			owner := im.name
			if !im.wildcard {
				owner = strings.TrimSuffix(im.name, "."+name)
			}
			if t := ix.typeByFQN(owner, f); t != nil {
				return rtype{state: known, t: t, static: true}
			}
		}
	}
	return rtype{state: outside}
}

// isBareUse reports an identifier used as a value: not a declaration's
// name, a method's name, a label or a member after a dot.
func isBareUse(n *treesit.Node) bool {
	p := n.Parent
	if p == nil {
		return false
	}
	switch p.Kind {
	case "method_invocation", "field_access", "method_reference":
		return n.Field == "object" || p.Kind == "method_invocation" && n.Field == "arguments"
	case "variable_declarator", "formal_parameter", "catch_formal_parameter", "enum_constant", "labeled_statement",
		"break_statement", "continue_statement", "inferred_parameters", "lambda_expression", "element_value_pair",
		"scoped_identifier", "marker_annotation", "annotation", "method_declaration", "constructor_declaration",
		"enhanced_for_statement", "resource", "annotation_type_element_declaration":
		if p.Kind == "enhanced_for_statement" || p.Kind == "resource" || p.Kind == "variable_declarator" || p.Kind == "lambda_expression" || p.Kind == "element_value_pair" {
			return n.Field == "value" || n.Field == "body"
		}
		return false
	}
	if _, ok := typeKinds[p.Kind]; ok {
		return false
	}
	return true
}

// fieldVerdict judges one use of a field.
func (a useJudge) fieldVerdict(t *target, f *jfile, n *treesit.Node, r rtype, display string) *lang.Ref {
	prec, missing := model.PrecisionSyntax, ""
	if r.state != known {
		prec, missing = model.PrecisionName, r.why
	}
	verb := "reads"
	if p := n.Parent; p != nil && (p.Kind == "assignment_expression" && n.Field == "left" || p.Kind == "field_access" && p.Field == "left" && p.Parent.Kind == "assignment_expression") {
		verb = "writes"
	}
	if t.ch.Label == model.MF {
		return a.fieldChanged(t, f, n, r, verb, display, prec, missing)
	}
	if r.state == known {
		if fd, _ := a.ix.fieldOf(r.t, t.name); fd != nil {
			return nil // another field of the name is visible
		}
		if a.ix.openAncestry(r.t) {
			return a.ref(t, f, n, model.UsedBy, model.MayBeImpacted, prec, verb+" "+display+", "+t.gone(), "what its supertypes outside the repository declare")
		}
	}
	return a.ref(t, f, n, model.UsedBy, model.Inconsistent, prec, verb+" "+display+", "+t.gone(), missing)
}

// typeGone judges the importers and users of a deleted (or renamed)
// type: an import of it, and in its own package (where no import is
// needed) each name of it that nothing else of the repository now
// declares.
func (a useJudge) typeGone(ctx context.Context, t *target) ([]*lang.Ref, error) {
	old := t.od.typ
	fqn := old.fqn()
	if a.ix.typeByFQN(fqn, nil) != nil {
		return nil, nil // still declared (moved to another file)
	}
	files, err := a.search(ctx, old.name)
	if err != nil {
		return nil, err
	}
	var out []*lang.Ref
	for _, f := range files {
		imported, byName := false, false
		for _, im := range f.imports {
			if im.name == fqn || strings.HasPrefix(im.name, fqn+".") {
				imported = true
				byName = byName || im.name == fqn && !im.static
				out = append(out, a.ref(t, f, im.node, model.ImportedBy, model.Inconsistent, model.PrecisionSyntax, "imports "+fqn+", "+t.gone(), ""))
			}
		}
		// a top-level type is seen by its package; a nested one by simple
		// name only in its own file (or through an import)
		sees := f.pkg == old.file.pkg && (old.outer == nil || f.path == old.file.path)
		switch {
		case byName:
			// a single-type import names the type for the whole file:
			// each of its uses that the file's own types do not shadow
			// and no other import or the package supplies is broken too
			if a.otherSupplier(f, old.name) == nil {
				out = append(out, a.typeNames(t, f, old, true)...)
			}
		case imported || !sees && !wildcardOf(f, old):
		default:
			out = append(out, a.typeNames(t, f, old, false)...)
		}
	}
	return out, nil
}

// otherSupplier is a head-state type that f's package or its wildcard
// imports supply under name, which the deleted type's import shadowed
// (a type moved into the file's package leaves only the import broken).
func (a useJudge) otherSupplier(f *jfile, name string) *jtype {
	if t := a.ix.typeByFQN(qualify(f.pkg, name), f); t != nil {
		return t
	}
	for _, im := range f.imports {
		if im.wildcard && !im.static {
			if t := a.ix.typeByFQN(im.name+"."+name, f); t != nil {
				return t
			}
		}
	}
	return nil
}

// wildcardOf reports a file importing every type of old's package (or
// of its outer type).
func wildcardOf(f *jfile, old *jtype) bool {
	for _, im := range f.imports {
		if im.wildcard && !im.static && (im.name == old.file.pkg || old.outer != nil && im.name == old.outer.fqn()) {
			return true
		}
	}
	return false
}

// typeNames reports the names of a deleted type in a file that sees it
// without an import (its package, a wildcard import) or, byImport,
// through a single-type import of it: in types, static receivers and
// annotations.
func (a useJudge) typeNames(t *target, f *jfile, old *jtype, byImport bool) []*lang.Ref {
	var out []*lang.Ref
	lines := map[int]bool{}
	sure := byImport || f.pkg == old.file.pkg && (old.outer == nil || f.path == old.file.path)
	treesit.Walk(f.t.Root, func(n *treesit.Node) bool {
		if n.Bad || n.Kind == "import_declaration" || n.Kind == "package_declaration" {
			return false
		}
		if n.Kind != "type_identifier" && !(n.Kind == "identifier" && (n.Field == "object" || annotationName(n))) || n.Text() != old.name || lines[int(n.Line)] {
			return true
		}
		if n.Parent != nil && n.Parent.Kind == "scoped_type_identifier" && n.Parent.NamedKids()[0] != n {
			return true // Other.Name
		}
		scope, _ := enclosingType(f, n)
		if a.ix.resolveSimple(f, scope, old.name) != nil || typeParamInScope(n, old.name) {
			return true // another type of the name
		}
		if n.Kind == "identifier" {
			if _, _, local := localDecl(n, old.name); local {
				return true
			}
		}
		lines[int(n.Line)] = true
		rel, verb := model.ReferencedBy, "names "
		switch p := n.Parent; {
		case p != nil && p.Kind == "object_creation_expression":
			rel, verb = model.InstantiatedBy, "instantiates "
		case p != nil && (p.Kind == "superclass" || p.Kind == "type_list" && p.Parent != nil && (p.Parent.Kind == "super_interfaces" || p.Parent.Kind == "extends_interfaces")):
			rel, verb = model.EmbeddedBy, "derives from "
		}
		if sure {
			out = append(out, a.ref(t, f, n, rel, model.Inconsistent, model.PrecisionSyntax, verb+old.qual+", "+t.gone(), ""))
		} else {
			out = append(out, a.ref(t, f, n, rel, model.MayBeImpacted, model.PrecisionSyntax, verb+old.qual+", "+t.gone()+", through a wildcard import", "whether another wildcard import or java.lang supplies the name"))
		}
		return true
	})
	return out
}

// fieldChanged judges one use of a field whose declaration changed: an
// access it no longer has, a write to a field that became final outside
// its class are errors; a type or staticness changed may impact it; an
// access widened or a final dropped does not.
func (a useJudge) fieldChanged(t *target, f *jfile, n *treesit.Node, r rtype, verb, display string, prec model.Precision, missing string) *lang.Ref {
	of, nf := t.od.field, t.nd.field
	if of == nil || nf == nil {
		return a.ref(t, f, n, model.UsedBy, model.MayBeImpacted, prec, verb+" "+display+", whose "+t.details(), missing)
	}
	inClass := sameType(topLevel(f, n), topType(nf.owner))
	switch {
	case r.state == known && !a.b.accessibleMember(nf.mods, nf.owner, f, n) && a.b.accessibleMember(of.mods, of.owner, f, n):
		return a.ref(t, f, n, model.UsedBy, model.Inconsistent, prec, verb+" "+display+" from where it is no longer accessible: it became "+visibility(nf.mods), missing)
	case verb == "writes" && hasMod(nf.mods, "final") && !hasMod(of.mods, "final") && r.state == known && !inClass:
		return a.ref(t, f, n, model.UsedBy, model.Inconsistent, prec, "writes "+display+", which became final", missing)
	case of.typ != nf.typ || hasMod(of.mods, "static") != hasMod(nf.mods, "static") || verb == "writes" && hasMod(nf.mods, "final") && !hasMod(of.mods, "final"):
		return a.ref(t, f, n, model.UsedBy, model.MayBeImpacted, prec, verb+" "+display+", whose "+t.details(), missing)
	}
	if r.state != known {
		return nil
	}
	return a.ref(t, f, n, model.UsedBy, model.Consistent, prec, verb+" "+display+", which it may still use", "")
}

// annotationName reports the name of an annotation (@Name, @Name(...)).
func annotationName(n *treesit.Node) bool {
	p := n.Parent
	return p != nil && (p.Kind == "marker_annotation" || p.Kind == "annotation") && n.Field == "name"
}

// typeParamInScope reports a type variable named name declared by a
// class or method enclosing n.
func typeParamInScope(n *treesit.Node, name string) bool {
	for p := n; p != nil; p = p.Parent {
		tps := p.Child("type_parameters")
		for _, tp := range tps.NamedKids() {
			if id := tp.FirstOf("type_identifier"); id != nil && id.Text() == name {
				return true
			}
		}
	}
	return false
}
