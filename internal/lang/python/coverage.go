package python

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// Code written attribute by attribute (issue 10: a field change reaches
// "the functions that copy, compare, serialise or clone the type"). A
// class that gains an attribute still works everywhere, but a function
// that reads every attribute the class had through one value of it
// (__eq__, __repr__, to_dict, copy, a conversion to another class) was
// written to cover them all and now misses one: may be impacted. The
// value is self in a method of the class or a subclass, or a parameter
// annotated with the class. The class must have had at least minCovered
// data attributes (instance attributes and annotated class attributes;
// not methods, nor unannotated class constants), so that covering all
// of them is a choice, and a function the diff edited is consistent. An
// added cache, lock or memo (lang.Bookkeeping) is left out of such code
// on purpose.

// minCovered is the number of old attributes a function must read.
const minCovered = 3

// coverTarget is a class that gained data attributes.
type coverTarget struct {
	ch    *model.Change // the first addition, the findings' change
	cls   *classInfo
	old   []string // sorted
	added map[string]bool
	data  []string // the added attributes that are data, not bookkeeping
}

// coverTargets groups the attribute additions of a round by class.
func (a *analyzer) coverTargets(changes []*model.Change) []*coverTarget {
	byClass := map[*classInfo]*coverTarget{}
	var out []*coverTarget
	for _, c := range changes {
		if c.Label != model.AF || c.New == nil || c.New.Kind != model.KindField {
			continue
		}
		cls := a.headClass(c.New.Path, c.New.Container)
		if cls == nil {
			continue
		}
		ct := byClass[cls]
		if ct == nil {
			ct = &coverTarget{cls: cls, added: map[string]bool{}}
			byClass[cls] = ct
			out = append(out, ct)
		}
		ct.added[c.New.Name] = true
		if !lang.Bookkeeping(c.New.Name) {
			if ct.ch == nil {
				ct.ch = c
			}
			ct.data = append(ct.data, c.New.Name)
		}
	}
	kept := out[:0]
	for _, ct := range out {
		if ct.ch == nil {
			continue // only bookkeeping was added
		}
		for name, at := range ct.cls.attrs {
			if !ct.added[name] && (at.instance || at.annot != nil) && !strings.HasPrefix(name, "__") {
				ct.old = append(ct.old, name)
			}
		}
		if len(ct.old) >= minCovered {
			sort.Strings(ct.old)
			kept = append(kept, ct)
		}
	}
	return kept
}

func (ct *coverTarget) names() string {
	ns := append([]string(nil), ct.data...)
	sort.Strings(ns)
	return strings.Join(ns, ", ")
}

// coverageRules report the functions written to cover every attribute
// of a class that gained some (coverageFindings): they judge through the
// judge they extend, whose resolver and findings they share.
type coverageRules struct{ *judge }

// coverageFindings finds, in the candidate files, the functions that
// read every old attribute of a class that gained some through one value.
func (j coverageRules) coverageFindings(cts []*coverTarget, files []*pfile) {
	for _, f := range files {
		for _, fn := range f.funcs {
			for _, ct := range cts {
				if holder := j.coveringHolder(fn, ct); holder != "" {
					j.emitCoverage(f, fn, ct, holder)
				}
			}
		}
	}
}

// coveringHolder is the name of the value of fn through which it reads
// every old attribute of ct's class and none of the added ones, or "".
func (j coverageRules) coveringHolder(fn *funcInfo, ct *coverTarget) string {
	body := fn.node.Child("body")
	if body == nil {
		return ""
	}
	holders := map[string]bool{}
	for i, p := range fn.params {
		if p.kind == varArgs || p.kind == varKw {
			continue
		}
		v := j.r.paramValue(fn, i)
		if v.k == vInstance && v.cls != nil && (sameClass(v.cls, ct.cls) || j.r.isSubclass(v.cls, ct.cls)) {
			holders[p.name] = true
		}
	}
	if len(holders) == 0 {
		return ""
	}
	seen := map[string]map[string]bool{}
	treesit.Walk(body, func(n *treesit.Node) bool {
		if n.Kind == "function_definition" || n.Kind == "class_definition" || n.Kind == "lambda" {
			return false // its own scope
		}
		if n.Kind != "attribute" || isStore(n) {
			return true
		}
		obj, attr := n.Child("object"), n.Child("attribute")
		if obj == nil || attr == nil || obj.Kind != "identifier" || !holders[obj.Text()] {
			return true
		}
		if seen[obj.Text()] == nil {
			seen[obj.Text()] = map[string]bool{}
		}
		seen[obj.Text()][attr.Text()] = true
		return true
	})
	var names []string
	for h := range seen {
		names = append(names, h)
	}
	sort.Strings(names)
next:
	for _, h := range names {
		s := seen[h]
		for n := range ct.added {
			if s[n] {
				continue next
			}
		}
		for _, n := range ct.old {
			if !s[n] {
				continue next
			}
		}
		return h
	}
	return ""
}

func (j coverageRules) emitCoverage(f *pfile, fn *funcInfo, ct *coverTarget, holder string) {
	at := fn.node.Child("name")
	if at == nil {
		return
	}
	v, msg := model.MayBeImpacted, fmt.Sprintf("reads every attribute of %s through %s but not the added %s: a copy, comparison or serialisation written attribute by attribute may have to handle it", ct.cls.qual, holder, ct.names())
	if j.a.touched(f.path, fn.outer) {
		v, msg = model.Consistent, "edited in the same diff"
	}
	site := model.Site{Path: f.path, Line: int(at.Line), Col: int(at.Col) + 1, Text: f.t.LineText(int(at.Line)),
		Enclosing: funcDisplay(fn), EnclosingSpan: model.Span{StartLine: int(fn.outer.Line), EndLine: int(fn.outer.EndLine)}}
	j.out = append(j.out, &lang.Ref{Change: ct.ch, Relation: model.UsedBy, Site: site, Verdict: v, Precision: model.PrecisionSyntax,
		Message: msg, Generated: generated(f.t.Src)})
}
