package typescript

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// Mechanical fixes: the edit of an inconsistent site that the seed alone
// decides, made without a model (internal/fix applies them first), as
// the Go and Python front-ends make them.
//
//   - A renamed function, class, const, interface, type or enum: the old
//     name becomes the new one in named imports (`import { old as x }`
//     keeps its alias), `export { old } from` re-exports (their own
//     importers are then reported and fixed in turn), `const { old } =
//     require()`, namespace uses (`ns.old`) and every use of a binding
//     that has the old name (a shorthand property `{ old }` becomes `{
//     old: new }`). When the new name is taken where a use stands (a
//     local, another import) the import becomes `{ new as old }` and the
//     uses are left as they are.
//   - A renamed method, property, interface member or enum member: the
//     name at each use through a known receiver, the keys of object
//     literals written for the interface (`{ old }` becomes `{ new: old
//     }`), JSX attributes, and destructured props.
//   - A call of a changed parameter list whose arguments bound to the
//     old one: the list is rebuilt for the new one. A removed parameter's
//     argument is dropped, arguments follow their parameters to their
//     new places, an optional parameter left out between two passed ones
//     gets `undefined`, and an added required parameter gets the
//     expression the developer gave for it (param_defaults), else there
//     is no fix.
//
// A fix is offered only where the result is certain: no spread argument,
// no rest parameter on either side, no overloads, no comment and no line
// break inside the argument list, names that are identifiers, a site
// judged inconsistent through a resolved binding (never a warning, never
// a derived change).

// withFix sets the fix of the ref emitted last.
func (j *judge) withFix(f *model.Fix) {
	if f == nil || len(j.out) == 0 {
		return
	}
	j.out[len(j.out)-1].Fix = f
}

// fixer makes the mechanical fixes of one target's sites in one file:
// the edits the seed alone decides (see above). It reads the target, the
// file and the parameter defaults (param_defaults); the judge attaches
// its fixes to the findings (withFix).
type fixer struct {
	a *analyzer
	t *target
	f *tsfile
	// canRename caches renameUses
	canRename *bool
}

// renaming returns the old and new names of a renamed target whose
// sites may be fixed.
func (fx *fixer) renaming() (oldName, newName string, ok bool) {
	c := fx.t.ch
	if c == nil || c.Derived || !c.Renamed() || fx.t.kind != tGone {
		return "", "", false
	}
	oldName, newName = c.Old.Name, c.New.Name
	if !isIdent(oldName) || !isIdent(newName) {
		return "", "", false
	}
	return oldName, newName, true
}

// isIdent reports a plain identifier.
func isIdent(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentPart(s[i]) {
			return false
		}
	}
	return true
}

// edit is the fix replacing node n's source with text.
func (fx *fixer) edit(desc string, n *treesit.Node, text string) *model.Fix {
	return &model.Fix{Description: desc, Edits: []model.TextEdit{editOf(fx.f, n, text)}}
}

// editOf replaces node n's source in file f with text.
func editOf(f *tsfile, n *treesit.Node, text string) model.TextEdit {
	return lang.EditBytes(f.path, f.t.Src, int(n.Start), int(n.End), text)
}

// renameAt renames a member at a node holding its old name (a property
// of a member expression, an attribute, a key).
func (fx *fixer) renameAt(n *treesit.Node) *model.Fix {
	o, nw, ok := fx.renaming()
	if !ok || n == nil || n.Text() != o {
		return nil
	}
	return fx.edit(fmt.Sprintf("rename %s to %s", o, nw), n, nw)
}

// renameKey renames a member where a literal or a pattern names it as a
// key: a shorthand `{ old }` keeps its value or local under the new key.
func (fx *fixer) renameKey(k *treesit.Node) *model.Fix {
	o, nw, ok := fx.renaming()
	if !ok || k == nil || k.Text() != o {
		return nil
	}
	switch k.Kind {
	case "shorthand_property_identifier", "shorthand_property_identifier_pattern":
		return fx.edit(fmt.Sprintf("rename %s to %s", o, nw), k, nw+": "+o)
	case "property_identifier":
		return fx.edit(fmt.Sprintf("rename %s to %s", o, nw), k, nw)
	}
	return nil
}

// literalKey is the node of an object literal that writes key name: a
// pair's key, a shorthand property, a method's name.
func literalKey(o *treesit.Node, name string) *treesit.Node {
	for _, k := range o.NamedKids() {
		switch k.Kind {
		case "pair":
			if kn := k.Child("key"); kn != nil && kn.Text() == name {
				return kn
			}
		case "shorthand_property_identifier":
			if k.Text() == name {
				return k
			}
		case "method_definition":
			if nm := k.Child("name"); nm != nil && nm.Text() == name {
				return nm
			}
		}
	}
	return nil
}

// renameUses reports whether the uses of a top-level binding named with
// the old name can take the new one in this file: the file binds no
// other declaration to it, and no scope around a use declares it.
// Computed once per judge.
func (fx *fixer) renameUses() bool {
	if fx.canRename != nil {
		return *fx.canRename
	}
	ok := false
	defer func() { fx.canRename = &ok }()
	o, nw, can := fx.renaming()
	if !can {
		return false
	}
	if fx.f.path != fx.t.path && (fx.f.declares(nw) || fx.f.imports[nw] != nil) {
		return false
	}
	if b := fx.f.imports[o]; b != nil && b.name != o {
		return false // the old name binds something else (`import { x as old }`)
	}
	if fx.f.path != fx.t.path {
		for _, local := range fx.f.exports {
			if local == o {
				return false // `export { old }`: the file's own export keeps the name
			}
		}
	}
	ok = true
	locals := map[string]bool{o: true}
	fx.f.refs(locals, nil, nil, func(ref *treesit.Node) {
		if shadowed(ref, nw) {
			ok = false
		}
	})
	return ok
}

// useFix renames a use of a renamed top-level declaration: a name
// bound under the old name, or ns.old through a namespace import. An
// element's opening tag takes its closing tag along.
func (fx *fixer) useFix(ref *treesit.Node) *model.Fix {
	f := fx.useFixAt(ref)
	if f == nil || ref.Parent.KindOr() != "jsx_opening_element" {
		return f
	}
	if cl := ref.Parent.Parent.Child("close_tag"); cl != nil {
		c := fx.useFixAt(cl.Child("name"))
		if c == nil || c.Edits[0].NewText != f.Edits[0].NewText {
			return nil // the tags would disagree
		}
		f.Edits = append(f.Edits, c.Edits...)
	}
	return f
}

func (fx *fixer) useFixAt(ref *treesit.Node) *model.Fix {
	o, nw, ok := fx.renaming()
	if !ok || ref == nil {
		return nil
	}
	desc := fmt.Sprintf("rename %s to %s", o, nw)
	switch ref.Kind {
	case "member_expression":
		if p := ref.Child("property"); p.Text() == o {
			return fx.edit(desc, p, nw)
		}
	case "nested_type_identifier":
		if p := ref.Child("name"); p.Text() == o {
			return fx.edit(desc, p, nw)
		}
	case "identifier", "type_identifier":
		if ref.Text() == o && fx.renameUses() {
			return fx.edit(desc, ref, nw)
		}
	case "shorthand_property_identifier":
		if ref.Text() == o && fx.renameUses() {
			return fx.edit(desc, ref, o+": "+nw)
		}
	}
	return nil
}

// importFix renames the old name in an import specifier (`import { old
// }`, `import { old as x }`) or a require pattern (`const { old } =
// require()`, `{ old: x }`). Without an alias, the local keeps the old
// name (`{ new as old }`) when the uses cannot take the new one.
func (fx *fixer) importFix(b *binding) *model.Fix {
	o, nw, ok := fx.renaming()
	if !ok || b.name != o {
		return nil
	}
	desc := fmt.Sprintf("rename %s to %s", o, nw)
	n := b.node
	switch n.Kind {
	case "import_specifier":
		name := n.Child("name")
		if name == nil || name.Text() != o {
			return nil
		}
		if n.Child("alias") != nil || fx.renameUses() {
			return fx.edit(desc, name, nw)
		}
		return fx.edit(desc, name, nw+" as "+o)
	case "shorthand_property_identifier_pattern":
		if fx.renameUses() {
			return fx.edit(desc, n, nw)
		}
		return fx.edit(desc, n, nw+": "+o)
	case "pair_pattern":
		if key := n.Child("key"); key.KindOr() == "property_identifier" && key.Text() == o {
			return fx.edit(desc, key, nw)
		}
	}
	return nil
}

// reexportFix renames the old name in `export { old } from` (and `export
// { old as x } from`, which keeps its export name).
func (fx *fixer) reexportFix(r *reexport) *model.Fix {
	o, nw, ok := fx.renaming()
	if !ok || r.name != o || r.node.Kind != "export_specifier" {
		return nil
	}
	name := r.node.Child("name")
	if name.Text() != o {
		return nil
	}
	return fx.edit(fmt.Sprintf("rename %s to %s", o, nw), name, nw)
}

// argsFix rebuilds the argument list of a call (or new, or super) that
// bound to the target's old parameter list for the new one; nil when
// that is not certain.
func (fx *fixer) argsFix(call *treesit.Node) *model.Fix {
	t := fx.t
	if t.ch == nil || t.ch.Derived || t.od == nil || t.nd == nil || t.od.fn == nil || t.nd.fn == nil {
		return nil
	}
	of, nf := t.od.fn, t.nd.fn
	if len(t.od.overloads) > 0 || len(t.nd.overloads) > 0 || of.max() < 0 || nf.max() < 0 {
		return nil
	}
	list := call.Child("arguments")
	if list.KindOr() != "arguments" || list.Line != list.EndLine {
		return nil
	}
	for _, k := range list.Kids {
		if k.Kind == "comment" {
			return nil // between arguments: it would be lost (inside one it is kept)
		}
	}
	var vals []string
	for _, a := range list.NamedKids() {
		if a.Kind == "spread_element" {
			return nil
		}
		vals = append(vals, a.Text())
	}
	if len(vals) > len(of.params) || len(vals) < of.required() {
		return nil // it did not bind to the old list
	}
	newOf := paramMap(of, nf)
	oldOf := map[int]int{}
	for i, k := range newOf {
		oldOf[k] = i
	}
	out := make([]string, len(nf.params))
	last := -1
	var added []string
	for k, p := range nf.params {
		if i, ok := oldOf[k]; ok {
			if i < len(vals) {
				out[k], last = vals[i], k
			}
			continue
		}
		if p.optional {
			continue
		}
		expr, ok := fx.a.env.Defaults[p.name]
		if !ok || !isIdent(p.name) {
			return nil // an added required parameter with no given value
		}
		out[k], last = expr, k
		added = append(added, p.name+"="+expr)
	}
	for k, p := range nf.params {
		switch {
		case out[k] != "":
		case !p.optional:
			return nil // a required parameter nothing fills
		case k < last:
			out[k] = "undefined" // an optional one between two passed
		}
	}
	text := "(" + strings.Join(out[:last+1], ", ") + ")"
	if text == list.Text() {
		return nil
	}
	var what []string
	for i, p := range of.params {
		if _, kept := newOf[i]; !kept && i < len(vals) {
			what = append(what, "drop "+p.name)
		}
	}
	for _, a := range added {
		what = append(what, "pass "+a)
	}
	if len(what) == 0 {
		what = append(what, "follow the new parameter order")
	}
	name := t.name
	if t.d.kind == dCtor {
		name = t.container
	}
	return fx.edit("call "+name+": "+strings.Join(what, ", "), list, text)
}
