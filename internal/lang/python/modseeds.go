package python

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// Module-level seeds: a module or package the change deletes, renames or
// moves (git mv) leaves every import of it broken, whatever its
// importers use of it. Declarations answer for their uses; this answers
// for the import statements, which name the module itself: `import
// app.util`, `from app import util`, `from app.util import helper`,
// `from .util import helper`, and imports of a deleted package's
// submodules. Each is resolved in the base state (where the module was)
// and in the head state (where it is not): an import that resolved to a
// removed module at the base and resolves to nothing of the repository
// now is an error. A module replaced by a package of the same name (or
// the reverse) still resolves, and is left to its declarations.

// moduleSeeds finds the importers of the modules the change removed
// (moduleFindings): it reads the index and the environment's trees, and
// keeps what it found once per check (the removed modules, the base
// state's modules, the modules whose importers were reported).
type moduleSeeds struct {
	env *lang.Env
	ix  *index
	// the modules the change removed, and those whose importers were
	// reported
	goneOnce sync.Once
	gone     []goneModule
	baseMods *modules
	modDone  map[string]bool
}

// goneModule is a Python file of the base state that the head lacks.
type goneModule struct {
	path    string // base path
	name    string // dotted module name at the base
	movedTo string // dotted name at the head of a renamed file; "" when deleted
}

// goneModules lists the Python files the change deleted or renamed, once
// per check; the base state's module map is read only when there are
// some (ms.baseMods).
func (ms *moduleSeeds) goneModules(ctx context.Context) []goneModule {
	ms.goneOnce.Do(func() {
		renamed := map[string]string{} // base path -> head path
		var paths []string
		for _, fc := range ms.env.Changed {
			p := fc.OldPath
			if p == "" || !(strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi")) || ms.ix.mods.files[p] {
				continue
			}
			switch fc.Status {
			case gitio.Renamed:
				renamed[p] = fc.NewPath
			case gitio.Deleted:
			default:
				continue
			}
			paths = append(paths, p)
		}
		if len(paths) == 0 {
			return
		}
		sort.Strings(paths)
		base := ms.baseModules(ctx)
		if base == nil {
			return
		}
		ms.baseMods = base
		for _, p := range paths {
			g := goneModule{path: p, name: base.moduleName(p)}
			if np := renamed[p]; np != "" && ms.ix.mods.files[np] {
				g.movedTo = ms.ix.mods.moduleName(np)
			}
			ms.gone = append(ms.gone, g)
		}
	})
	return ms.gone
}

// baseModules is the module map of the base state, or nil when the base
// cannot be listed.
func (ms *moduleSeeds) baseModules(ctx context.Context) *modules {
	if ms.env.Base == nil {
		return nil
	}
	paths, err := ms.env.Base.List(ctx, "*.py", "*.pyi")
	if err != nil {
		ms.env.Diag(model.Diagnostic{Message: "deleted Python modules not checked: listing the base state: " + err.Error()})
		return nil
	}
	m := newModules(paths)
	m.deps = ms.ix.mods.deps
	return m
}

// moduleFindings reports the imports of the modules the change removed
// among the changes' files; each module once per check.
func (ms *moduleSeeds) moduleFindings(ctx context.Context, changes []*model.Change) ([]*lang.Ref, error) {
	gone := ms.goneModules(ctx)
	if len(gone) == 0 {
		return nil, nil
	}
	byPath := map[string]*model.Change{}
	for _, c := range changes {
		if c.Old != nil && byPath[c.Old.Path] == nil {
			byPath[c.Old.Path] = c
		}
	}
	var mine []goneModule
	words := map[string]bool{}
	for _, g := range gone {
		if byPath[g.path] == nil || ms.modDone[g.path] {
			continue
		}
		ms.modDone[g.path] = true
		mine = append(mine, g)
		words[lastPart(g.name)] = true
	}
	if len(mine) == 0 {
		return nil, nil
	}
	files, err := ms.ix.candidates(ctx, words, nil)
	if err != nil {
		return nil, err
	}
	base := ms.baseMods
	removed := map[string]goneModule{}
	for _, g := range mine {
		removed[g.path] = g
	}
	var out []*lang.Ref
	for _, f := range files {
		for _, b := range importBindings(f) {
			for _, g := range ms.brokenImport(base, f, b, removed) {
				c := byPath[g.path]
				msg := fmt.Sprintf("imports %s, which this change deletes", g.name)
				if g.movedTo != "" {
					msg = fmt.Sprintf("imports %s, which this change moves to %s", g.name, g.movedTo)
				}
				line := int(b.stmt.Line)
				if b.at != nil {
					line = int(b.at.Line)
				}
				out = append(out, &lang.Ref{Change: c, Relation: model.ImportedBy, Verdict: model.Inconsistent,
					Precision: model.PrecisionSyntax, Message: msg,
					Site: model.Site{Path: f.path, Line: line, Col: int(b.stmt.Col) + 1, Text: f.t.LineText(line)}})
			}
		}
	}
	return out, nil
}

// importBindings are the import and from-import bindings of every scope
// of a file, one per statement and imported name.
func importBindings(f *pfile) []*binding {
	var out []*binding
	add := func(s *scope) {
		for _, bs := range s.names {
			for _, b := range bs {
				if (b.kind == bImport || b.kind == bFrom) && b.stmt != nil {
					out = append(out, b)
				}
			}
		}
	}
	add(f.top)
	for _, s := range f.scopes {
		add(s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].stmt.Line != out[j].stmt.Line {
			return out[i].stmt.Line < out[j].stmt.Line
		}
		return out[i].name < out[j].name
	})
	return out
}

// brokenImport returns the removed modules an import reached at the base
// that it no longer reaches at the head.
func (ms *moduleSeeds) brokenImport(base *modules, f *pfile, b *binding, removed map[string]goneModule) []goneModule {
	head := ms.ix.mods
	var out []goneModule
	hit := func(p string) bool {
		g, ok := removed[p]
		if ok {
			out = append(out, g)
		}
		return ok
	}
	switch b.kind {
	case bImport:
		// import a.b.c loads a, a.b and a.b.c
		full := b.module // `import a.b` binds a, with module "a"
		if b.at != nil && b.at.Kind == "dotted_name" {
			full = f.t.Text(b.at)
		}
		parts := strings.Split(full, ".")
		for i := range parts {
			spec := strings.Join(parts[:i+1], ".")
			if p := base.resolve(spec, f.path); p != "" && head.resolve(spec, f.path) == "" && hit(p) {
				break
			}
		}
	case bFrom:
		pb := base.resolve(b.module, f.path)
		if pb == "" {
			return nil
		}
		ph := head.resolve(b.module, f.path)
		if ph == "" {
			if !hit(pb) {
				// a submodule of a removed package: from app.legacy.sub import go
				for p := range removed {
					if strings.HasSuffix(p, "/__init__.py") && strings.HasPrefix(pb, path.Dir(p)+"/") {
						hit(p)
						break
					}
				}
			}
			return out
		}
		// from pkg import mod: the member was a submodule that is gone
		if b.member != "" && b.member != "*" {
			if sb := base.submodule(pb, b.member); sb != "" && head.submodule(ph, b.member) == "" && !ms.definesName(ph, b.member) {
				hit(sb)
			}
		}
	}
	return out
}

// definesName reports whether the module file p binds name at its top
// level (a package's __init__ re-exporting what a submodule held).
func (ms *moduleSeeds) definesName(p, name string) bool {
	f := ms.ix.file(p)
	return f != nil && len(f.top.names[name]) > 0
}
