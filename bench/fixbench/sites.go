package main

import (
	"context"
	"strings"

	"github.com/ripple-dev/ripple/internal/fix"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
)

// states are the three commits of a case.
type states struct {
	base, partial, full gitio.Tree
}

// sites finds planned blocks in the states of a case through the
// front-ends' declarations, whatever the language.
type sites struct {
	fes   lang.Set
	st    states
	decls map[string]fileDecls // by rev|path
}

type fileDecls struct {
	lines []string
	ds    []*lang.Decl
}

func newSites(_ context.Context, fes lang.Set, st states) *sites {
	return &sites{fes: fes, st: st, decls: map[string]fileDecls{}}
}

func (s *sites) file(ctx context.Context, t gitio.Tree, path string) fileDecls {
	k := t.Rev() + "|" + path
	if fd, ok := s.decls[k]; ok {
		return fd
	}
	var fd fileDecls
	if fe := s.fes.For(path); fe != nil {
		if src, err := t.ReadFile(ctx, path); err == nil {
			fd.lines = strings.SplitAfter(string(src), "\n")
			fd.ds, _ = fe.Decls(path, src)
		}
	}
	s.decls[k] = fd
	return fd
}

// find is the declaration a block names (its display name) in a state.
func (s *sites) find(ctx context.Context, t gitio.Tree, path, block string) (*lang.Decl, fileDecls) {
	fd := s.file(ctx, t, path)
	for _, d := range fd.ds {
		if d.Display == block {
			return d, fd
		}
	}
	return nil, fd
}

// reaches reports whether a planned block covers a truth block: the
// benchmark names a truth block as its enclosing unit ("T.M", "f",
// "C.m", a Python class header "C", "<module>" for top-level
// statements), with its lines in the partial state; nested definitions
// belong to the function that holds them. A block is found in the
// partial state by its display name, and reaches the truth block whose
// name is its own (Container.Name, or Name), whose lines hold it while
// its name extends the truth's (a function nested in it), or, for
// "<module>", whose lines hold it or a file-scope obligation's lines.
func (s *sites) reaches(ctx context.Context, ob *fix.Obligation, t truthRec) bool {
	if ob.Path != t.File || ob.Declare != "" {
		return false
	}
	if fix.AtFileScope(ob.Block) {
		return t.Func == "<module>" && ob.Span.StartLine <= t.EndLine && t.StartLine <= ob.Span.EndLine
	}
	d, fd := s.find(ctx, s.st.partial, ob.Path, ob.Block)
	if d == nil {
		// a block the front-end names but does not declare (a member of
		// an object literal, "method visitor.Identifier"): it counts for
		// the innermost declaration whose lines hold it
		for _, x := range fd.ds {
			if x.Span.StartLine <= ob.Span.StartLine && ob.Span.EndLine <= x.Span.EndLine &&
				(d == nil || x.Span.EndLine-x.Span.StartLine < d.Span.EndLine-d.Span.StartLine) {
				d = x
			}
		}
		if d == nil {
			return false
		}
		return d.Key() == t.Func || t.StartLine <= d.NameLine && d.NameLine <= t.EndLine && t.Func == "<module>" && d.Container == ""
	}
	key := d.Key()
	if key == t.Func {
		return true
	}
	inside := t.StartLine <= d.NameLine && d.NameLine <= t.EndLine
	return inside && (t.Func == "<module>" && d.Container == "" || strings.HasPrefix(key, t.Func+"."))
}

// changedByCommit reports whether the real commit changed a planned
// block: its text at the base and at the commit differ (a block that
// one of them lacks counts as changed).
func (s *sites) changedByCommit(ctx context.Context, ob *fix.Obligation) bool {
	b, bf := s.find(ctx, s.st.base, ob.Path, ob.Block)
	f, ff := s.find(ctx, s.st.full, ob.Path, ob.Block)
	if b == nil || f == nil {
		return true
	}
	return text(bf, b) != text(ff, f)
}

func text(fd fileDecls, d *lang.Decl) string {
	if d.Span.StartLine < 1 || d.Span.EndLine > len(fd.lines) || d.Span.StartLine > d.Span.EndLine {
		return ""
	}
	return strings.Join(fd.lines[d.Span.StartLine-1:d.Span.EndLine], "")
}
