package golang

import (
	"context"
	"go/ast"
	"slices"
	"strconv"
	"strings"

	"github.com/ripple-dev/ripple/internal/model"
)

// Which bodies an added interface method needs checked. A type that no
// longer implements the interface is an error wherever it is converted to
// it, and such a conversion may sit in a body naming neither the
// interface nor the type. Checking every body of every package that uses
// the interface costs most of a check on a large repository (terraform:
// 2.2 s of 2.6 s), so the check goes in two steps: first the bodies that
// name the interface (assertions `var _ I = (*T)(nil)`, functions
// returning it, literals of it); then, only if some type that implemented
// the interface before the change is not settled by that, every body of
// those packages and of the open types' own packages and importers
// (where a value of the type may be converted without naming either).
// A type is settled when it has a method of the added name, or when the
// first check found it used as the interface ("does not implement"
// names it): one use proves it must implement the interface, the fix is
// the same, and its other uses add no finding.

// isAddedMethod reports whether t is a method added to an interface.
func isAddedMethod(t *target) bool {
	return t.kind == model.KindInterface && t.ch.Label == model.AM
}

// implCands are the types that may have implemented the interface of an
// added-method target (implCandidates); ok is false when they cannot be
// bounded.
type implCands struct {
	types []tref
	ok    bool
}

// startImplCandidates finds the candidates of every added-method target
// in the background; the function returned waits for them. Only the
// symbol index and the parsed files change meanwhile (declarations
// parsed, never completed), which the units' checks do not read.
func (sr *implSearch) startImplCandidates(ctx context.Context, ts []*target) func() map[*target]implCands {
	out := map[*target]implCands{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, t := range ts {
			if isAddedMethod(t) && t.ch.New != nil {
				cs, ok := sr.implCandidates(ctx, t, ts)
				out[t] = implCands{cs, ok}
			}
		}
	}()
	return func() map[*target]implCands {
		<-done
		return out
	}
}

// unsettled returns the types that may have implemented an interface
// that gained a method and that the checks in results did not settle
// (see above); bounded is false when such types cannot be known (an
// interface with no method of its own before the change).
func (sr *implSearch) unsettled(ts []*target, results [][]*unitResult, cands map[*target]implCands) (open []tref, bounded bool) {
	used := map[[2]string]bool{} // {interface, type} of "does not implement"
	for _, rs := range results {
		for _, u := range rs {
			for _, e := range u.errs {
				if m := notImplRE.FindStringSubmatch(e.Msg); m != nil {
					used[[2]string{lastName(m[2]), lastName(m[1])}] = true
				}
			}
		}
	}
	bounded = true
	for _, t := range ts {
		if !isAddedMethod(t) || t.ch.New == nil {
			continue
		}
		cs := cands[t]
		if !cs.ok {
			trace("%s: the implementations before the change cannot be bounded", t.name)
			bounded = false
			continue
		}
		for _, c := range cs.types {
			if used[[2]string{t.name, c.name}] {
				continue
			}
			if fs := sr.syms.methodOf(&c, t.ch.New.Name, 0); fs != nil && sameArity(fs.decl.Type, ifaceSigs(t)[t.ch.New.Name]) {
				continue
			}
			trace("%s.%s may implement %s and was not seen used as it", c.pkg, c.name, t.name)
			open = append(open, c)
		}
	}
	return open, bounded
}

// maxConvertFiles bounds the files added to the check for the types an
// added interface method leaves open.
const maxConvertFiles = 400

// mayConvert returns the files of the packages that may hold values of
// the open types and convert them to the interface without naming it:
// the types' own packages and the packages importing them. Past
// maxConvertFiles none is added (the units that name the interface are
// still checked whole).
func (sr *implSearch) mayConvert(ctx context.Context, open []tref) []*pfile {
	var paths []string
	seen := map[string]bool{}
	for _, c := range open {
		ip := strings.TrimSuffix(c.pkg, "_test")
		if seen[ip] {
			continue
		}
		seen[ip] = true
		if f := sr.syms.lookupType(&c); f != nil && f.file != nil {
			paths = append(paths, sr.ix.byDir[f.file.dir]...)
		}
		importers, err := sr.ix.Search(ctx, []string{strconv.Quote(ip)})
		if err != nil {
			return nil
		}
		paths = append(paths, importers...)
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	if len(paths) > maxConvertFiles {
		trace("%d files may convert the open implementations: more than %d, not added", len(paths), maxConvertFiles)
		return nil
	}
	return sr.ix.parse(ctx, paths)
}

// implCandidates returns the types of the repository that may have
// implemented the interface of an added-method target before the change:
// each has every method the interface had, with its parameter and result
// counts (declared, or promoted from an embedded type the index knows),
// or lacks some and embeds a type whose methods the index does not know. They are found
// from the declarations of the method with the longest name, the one
// least likely to be common. ok is false when the interface had no
// method of its own (every type implemented it).
func (sr *implSearch) implCandidates(ctx context.Context, t *target, ts []*target) (out []tref, ok bool) {
	added := map[string]bool{}
	for _, u := range ts {
		if isAddedMethod(u) && u.name == t.name && u.ch.New != nil {
			added[u.ch.New.Name] = true
		}
	}
	sigs := ifaceSigs(t)
	var old []string
	rarest := ""
	for _, m := range ifaceMethods(t) {
		if added[m] {
			continue
		}
		old = append(old, m)
		if len(m) > len(rarest) {
			rarest = m
		}
	}
	if rarest == "" {
		return nil, false
	}
	paths, err := sr.ix.Search(ctx, []string{rarest})
	if err != nil {
		return nil, false
	}
	seen := map[tref]bool{}
	for _, f := range sr.ix.parseDecls(ctx, paths) {
		for _, d := range f.ast.Decls {
			fd, isFunc := d.(*ast.FuncDecl)
			if !isFunc || fd.Recv == nil || len(fd.Recv.List) == 0 || fd.Name.Name != rarest {
				continue
			}
			base, _ := recvBase(fd.Recv.List[0].Type)
			tr := tref{f.pkgKey, base}
			if base == "" || seen[tr] {
				continue
			}
			seen[tr] = true
			sr.indexPackage(f)
			// a method of another arity rules the type out (a promoted
			// method of the right one would be shadowed); a missing one
			// may be promoted from an embedded type the index does not know
			fits, missing := true, false
			for _, m := range old {
				fs := sr.syms.methodOf(&tr, m, 0)
				switch {
				case fs == nil:
					missing = true
				case !sameArity(fs.decl.Type, sigs[m]):
					fits = false
				}
			}
			if fits && (!missing || sr.openEmbeds(&tr) != "") {
				out = append(out, tr)
			}
		}
	}
	return out, ctx.Err() == nil
}

// ifaceSigs returns the method types of the interface of an interface
// target.
func ifaceSigs(t *target) map[string]*ast.FuncType {
	out := map[string]*ast.FuncType{}
	if it := ifaceType(t); it != nil {
		for _, m := range it.Methods.List {
			if ft, ok := m.Type.(*ast.FuncType); ok {
				for _, n := range m.Names {
					out[n.Name] = ft
				}
			}
		}
	}
	return out
}

// sameArity reports whether two function types may be identical as far
// as their parameter and result counts and variadic-ness show; an
// unknown type (nil) may be anything.
func sameArity(x, y *ast.FuncType) bool {
	if x == nil || y == nil {
		return true
	}
	return nFields(x.Params) == nFields(y.Params) && nFields(x.Results) == nFields(y.Results) && hasEllipsis(x) == hasEllipsis(y)
}

func nFields(fl *ast.FieldList) int {
	if fl == nil {
		return 0
	}
	return fl.NumFields()
}

func hasEllipsis(ft *ast.FuncType) bool {
	if ft.Params == nil || len(ft.Params.List) == 0 {
		return false
	}
	_, ok := ft.Params.List[len(ft.Params.List)-1].Type.(*ast.Ellipsis)
	return ok
}
