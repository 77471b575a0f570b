package java

import (
	"context"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// typeChanged judges what a type's own declaration change breaks: a
// class that became abstract (or an interface) cannot be instantiated,
// one that became final cannot be extended, and a class that became an
// interface (or the reverse) is extended or implemented with the wrong
// keyword.
func (a useJudge) typeChanged(ctx context.Context, q lang.Query, t *target) ([]*lang.Ref, error) {
	o, n := t.od.typ, t.nd.typ
	if o == nil || n == nil || t.cls == nil {
		return nil, nil
	}
	var out []*lang.Ref
	if q.Wants(model.InstantiatedBy) && !o.abstract() && n.abstract() {
		files, err := a.search(ctx, o.name)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			for _, s := range (ctorJudge{a.analyzer}).ctorCalls(f, t.cls) {
				if s.rel == model.InstantiatedBy && s.how == "instantiates" {
					out = append(out, a.ref(t, f, s.at, s.rel, model.Inconsistent, model.PrecisionSyntax, "instantiates "+n.qual+", which "+becameWhat(n), ""))
				}
			}
		}
	}
	if !q.Wants(model.EmbeddedBy) {
		return out, nil
	}
	finalNow := n.has("final") && !o.has("final") || n.kind == "enum" || n.kind == "record"
	kindChanged := (o.kind == "interface") != (n.kind == "interface")
	if !finalNow && !kindChanged {
		return out, nil
	}
	subs, err := a.subtypes(ctx, t.cls)
	if err != nil {
		return nil, err
	}
	for _, s := range subs {
		if s.node.Kind == "object_creation_expression" {
			continue // an anonymous class: its instantiation is judged above
		}
		at := supertypeNode(a.analyzer, s, t.cls)
		if at == nil {
			continue // an indirect subtype
		}
		switch {
		case finalNow:
			out = append(out, a.ref(t, s.file, at, model.EmbeddedBy, model.Inconsistent, model.PrecisionSyntax, s.qual+" extends "+n.qual+", which "+becameWhat(n), ""))
		case kindChanged:
			out = append(out, a.ref(t, s.file, at, model.EmbeddedBy, model.Inconsistent, model.PrecisionSyntax, s.qual+" names "+n.qual+" as "+supertypeRole(s, at)+", but it became "+articled(n.kind), ""))
		}
	}
	return out, nil
}

// becameWhat says what a type became that forbids the use.
func becameWhat(n *jtype) string {
	switch {
	case n.kind != "class":
		return "became " + articled(n.kind)
	case n.has("abstract"):
		return "became abstract"
	}
	return "became final"
}

// supertypeNode is the node of s's header that names base directly.
func supertypeNode(a *analyzer, s, base *jtype) *treesit.Node {
	nodes := s.ifaces
	if s.super != nil {
		nodes = append([]*treesit.Node{s.super}, nodes...)
	}
	for _, n := range nodes {
		if x := a.ix.resolveNoInherit(s.file, s, typeText(n)); x == base {
			return n
		}
	}
	return nil
}

// supertypeRole is how s's header names the supertype at n.
func supertypeRole(s *jtype, n *treesit.Node) string {
	if n == s.super || s.kind == "interface" {
		return "a superclass"
	}
	return "an interface"
}
