package java

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
)

// Details explains a change of signature as short phrases.
func (fe *Frontend) Details(old, new *lang.Decl) []string {
	o, n, ok := lang.DataOf[*declData](old, new)
	if !ok {
		return nil
	}
	switch {
	case o.meth != nil && n.meth != nil:
		return methodDetails(o.meth, n.meth)
	case o.field != nil && n.field != nil:
		return fieldDetails(o.field, n.field)
	case o.typ != nil && n.typ != nil:
		return typeDetails(o.typ, n.typ)
	}
	if old.Sig != new.Sig {
		return []string{"declaration changed from " + string(old.Kind) + " to " + string(new.Kind)}
	}
	return nil
}

func methodDetails(o, n *jmethod) []string {
	var out []string
	out = append(out, modDetails(o.mods, n.mods, "static", "abstract", "default", "final")...)
	if vo, vn := visibility(o.mods), visibility(n.mods); vo != vn {
		out = append(out, "visibility changed from "+vo+" to "+vn)
	}
	if o.tparams != n.tparams {
		out = append(out, fmt.Sprintf("type parameters changed from %q to %q", o.tparams, n.tparams))
	}
	if o.ret != n.ret {
		out = append(out, "return type changed from "+o.ret+" to "+n.ret)
	}
	out = append(out, paramDetails(o.params, n.params)...)
	out = append(out, listDetails("throws ", o.throws, n.throws)...)
	return out
}

// paramDetails compares parameter lists by position, then says what was
// added or removed at the end.
func paramDetails(o, n []param) []string {
	var out []string
	// a parameter inserted or removed: match by name where names survive
	if len(o) != len(n) {
		oldNames, newNames := map[string]param{}, map[string]param{}
		for _, p := range o {
			oldNames[p.name] = p
		}
		for _, p := range n {
			newNames[p.name] = p
		}
		for _, p := range n {
			if _, ok := oldNames[p.name]; !ok {
				out = append(out, "parameter "+p.typ+" "+p.name+" added")
			} else if oldNames[p.name].typ != p.typ {
				out = append(out, "parameter "+p.name+" retyped from "+oldNames[p.name].typ+" to "+p.typ)
			}
		}
		for _, p := range o {
			if _, ok := newNames[p.name]; !ok {
				out = append(out, "parameter "+p.typ+" "+p.name+" removed")
			}
		}
		if len(out) == 0 {
			out = append(out, fmt.Sprintf("takes %d parameters instead of %d", len(n), len(o)))
		}
		return out
	}
	for i := range o {
		if o[i].typ != n[i].typ {
			out = append(out, fmt.Sprintf("parameter %d (%s) retyped from %s to %s", i+1, n[i].name, o[i].typ, n[i].typ))
		}
	}
	return out
}

func modDetails(o, n []string, mods ...string) []string {
	var out []string
	for _, m := range mods {
		switch {
		case hasMod(o, m) && !hasMod(n, m):
			out = append(out, "no longer "+m)
		case !hasMod(o, m) && hasMod(n, m):
			out = append(out, "became "+m)
		}
	}
	return out
}

func listDetails(prefix string, o, n []string) []string {
	var out []string
	for _, x := range n {
		if !hasMod(o, x) {
			out = append(out, prefix+x+" added")
		}
	}
	for _, x := range o {
		if !hasMod(n, x) {
			out = append(out, prefix+x+" removed")
		}
	}
	return out
}

func fieldDetails(o, n *jfield) []string {
	var out []string
	if o.typ != n.typ {
		out = append(out, "type changed from "+o.typ+" to "+n.typ)
	}
	if vo, vn := visibility(o.mods), visibility(n.mods); vo != vn {
		out = append(out, "visibility changed from "+vo+" to "+vn)
	}
	return append(out, modDetails(o.mods, n.mods, "static", "final")...)
}

func typeDetails(o, n *jtype) []string {
	var out []string
	if o.kind != n.kind {
		out = append(out, "became "+articled(n.kind)+" (was "+articled(o.kind)+")")
	}
	if vo, vn := visibility(o.mods), visibility(n.mods); vo != vn {
		out = append(out, "visibility changed from "+vo+" to "+vn)
	}
	out = append(out, modDetails(o.mods, n.mods, "abstract", "final", "static", "sealed")...)
	if o.tparams != n.tparams {
		out = append(out, fmt.Sprintf("type parameters changed from %q to %q", o.tparams, n.tparams))
	}
	os, ns := "", ""
	if o.super != nil {
		os = typeText(o.super)
	}
	if n.super != nil {
		ns = typeText(n.super)
	}
	switch {
	case os != ns && ns == "":
		out = append(out, "no longer extends "+os)
	case os != ns:
		out = append(out, "extends "+ns+" instead of "+strings.TrimSpace(os+" (nothing)"))
	}
	out = append(out, listDetails("supertype ", typeTexts(o.ifaces), typeTexts(n.ifaces))...)
	if o.kind == "record" && n.kind == "record" {
		out = append(out, paramDetails(o.comps, n.comps)...)
	}
	return out
}

func articled(kind string) string {
	switch kind {
	case "interface", "enum", "annotation":
		return "an " + kind
	}
	return "a " + kind
}

// Escapes: a Java body change is not followed to callers (the syntactic
// tier does not read what a body returns or throws).
func (fe *Frontend) Escapes(old, new *lang.Decl, oldChanged, newChanged func(from, to int) bool) []string {
	return nil
}
