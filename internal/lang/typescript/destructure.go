package typescript

import (
	"fmt"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// Destructured members: `const { get } = store` (or `{ get: read }`, or
// a parameter `({ get }: Store) =>`) binds a member of the target's class
// or interface to a local name. Its calls are calls of the member, and
// destructuring a member that is gone is an error where it is written
// (TypeScript: the property does not exist on the type).

// destructured calls visit for each destructuring of the target member
// from a value of the target's type: the pattern entry, and the calls
// of the local name it binds. typed says whether an expression (a
// declarator's value) or an annotation is of the target's type.
func (j *judge) destructured(typedExpr func(*treesit.Node) bool, typedAnn func(string) bool, visit func(entry *treesit.Node, calls []*treesit.Node)) {
	t := j.t
	treesit.Walk(j.f.t.Root, func(n *treesit.Node) bool {
		if n.Bad {
			return false
		}
		if n.Kind != "object_pattern" {
			return true
		}
		var decl *treesit.Node // the declarator or parameter binding the names
		switch p := n.Parent; {
		case p == nil:
			return true
		case p.Kind == "variable_declarator" && p.Child("name") == n:
			ann := p.Child("type")
			if !(ann != nil && typedAnn(ann.Text()) || ann == nil && p.Child("value") != nil && typedExpr(p.Child("value"))) {
				return true
			}
			decl = p
		case (p.Kind == "required_parameter" || p.Kind == "optional_parameter") && p.Child("pattern") == n:
			ann := p.Child("type")
			if ann == nil || !typedAnn(ann.Text()) {
				return true
			}
			decl = p
		default:
			return true
		}
		for _, k := range n.NamedKids() {
			var entry, local *treesit.Node
			switch k.Kind {
			case "shorthand_property_identifier_pattern":
				if k.Text() == t.name {
					entry, local = k, k
				}
			case "pair_pattern":
				if key := k.Child("key"); key != nil && (key.Text() == t.name || key.Kind == "string" && stringValue(key) == t.name) {
					entry = key
					if v := k.Child("value"); v != nil && v.Kind == "identifier" {
						local = v
					}
				}
			}
			if entry == nil {
				continue
			}
			var calls []*treesit.Node
			if local != nil {
				name := local.Text()
				scope := decl.Parent
				for scope != nil && !funcScope(scope) && scope.Kind != "statement_block" && scope.Kind != "program" {
					scope = scope.Parent
				}
				treesit.Walk(scope, func(c *treesit.Node) bool {
					if c.Kind == "call_expression" {
						if fn := c.Child("function"); fn != nil && fn.Kind == "identifier" && fn.Text() == name && lookup(fn, name) == decl {
							calls = append(calls, c)
						}
					}
					return true
				})
			}
			visit(entry, calls)
		}
		return true
	})
}

// destructuredMember judges the destructurings of the target member of a
// class or an interface (rel: the relation of its calls; inherited: why
// a gone member may still be provided, as classMember says).
func (j *judge) destructuredMember(typedExpr func(*treesit.Node) bool, typedAnn func(string) bool, rel model.Relation, inherited func() string) {
	t := j.t
	j.destructured(typedExpr, typedAnn, func(entry *treesit.Node, calls []*treesit.Node) {
		for _, n := range j.at {
			if n == entry {
				return // judged already: a component's props (componentProps)
			}
		}
		switch t.kind {
		case tGone:
			if why := inherited(); why != "" {
				j.emit(entry, model.UsedBy, model.MayBeImpacted, model.PrecisionSyntax,
					fmt.Sprintf("destructures %s; %s %s, but %s", t.name, t.display(), j.what(), why))
				return
			}
			j.emit(entry, model.UsedBy, model.Inconsistent, model.PrecisionSyntax,
				fmt.Sprintf("destructures %s from a %s, which %s", t.name, t.container, j.what()))
			j.withFix(j.fx.renameKey(entry))
		case tCall, tIMethod:
			for _, c := range calls {
				j.call(c.Child("function"), c, rel, model.PrecisionSyntax, false)
			}
		}
	})
}
