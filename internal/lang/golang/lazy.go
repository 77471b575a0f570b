package golang

import (
	"bytes"
	"go/types"
	"testing"

	"golang.org/x/tools/go/gcexportdata"
)

// The checked units import from a universe of their own, read from
// export data alone and lazily: a unit's direct imports are read whole
// from their entries, and what those entries refer to in deeper packages
// is created from the entries themselves (export data is deep: it holds
// every declaration its package's API needs), one package object per
// import path and build configuration, so that the same type is one type
// across imports. A package nothing imports directly is never read: on
// terraform, 127 of the 361 entries a parameter change used to read (7 of
// 19 MB), and the type objects of the rest are never built.
//
// Which entry holds a package is known without loading anything
// (keyOf): a repository package's content key from its files' heads and
// its imports' keys, a standard-library or module-cache package's by
// directory when that entry exists (it was written only when the
// package loaded with every import found), else by content. A package
// whose entry is missing or unreadable, or that has no key (a cycle, the
// package under test with its test files, the cache turned off), is
// loaded by the loader's other universe (loader.load: from source, its
// imports complete, writing the entries it can) and its declarations
// pass to this one as export data in memory. The two universes never
// share a package, so a package read partially here can always be
// completed from export data, never clashes with one built from source.
//
// The package under test with its test files (location.withTests, only
// the unit's external test package imports it) is read in place of the
// plain package for that import only: other packages' entries still
// refer to the plain one, as the loader's other universe has it.

// lazyImporter imports for a checked unit. Units are checked in
// parallel; their imports are read one at a time (loader.loadMu), before
// any unit is checked (checkUnits: reading a package may complete one a
// checker reaches through its imports), so the checker's own imports
// find them read.
type lazyImporter struct {
	l    *loader
	from location
	bc   buildCtx
	// checking: the unit is being checked; an import not read before
	// is a bug, and gets a stub rather than a read racing other checks
	checking bool
}

func (im *lazyImporter) Import(p string) (*types.Package, error) {
	return im.ImportFrom(p, "", 0)
}

func (im *lazyImporter) ImportFrom(p, _ string, _ types.ImportMode) (*types.Package, error) {
	if p == "unsafe" {
		return types.Unsafe, nil
	}
	im.l.loadMu.Lock()
	defer im.l.loadMu.Unlock()
	loc, ok := im.l.locate(p, im.from)
	if !ok {
		return im.l.absentStub(p), nil
	}
	if im.checking && !im.l.lazyRead(p, loc, im.bc) {
		if testing.Testing() {
			panic("golang: " + p + " imported by a unit being checked was not read before")
		}
		return im.l.stub(p), nil
	}
	return im.l.lazyLoad(p, loc, im.bc), nil
}

// lazyRead reports whether lazyLoad has p at loc under bc already.
func (l *loader) lazyRead(p string, loc location, bc buildCtx) bool {
	_, ok := l.lazyPkgs[lazyKey(p, loc, bc)]
	return ok
}

func lazyKey(p string, loc location, bc buildCtx) string {
	mk := bc.key() + "|" + loc.dir + "|" + p
	if loc.withTests {
		mk += "|tests"
	}
	return mk
}

// lazyLoad returns package p at loc under bc in the units' universe.
// Called with loadMu held.
func (l *loader) lazyLoad(p string, loc location, bc buildCtx) *types.Package {
	mk := lazyKey(p, loc, bc)
	if pkg, ok := l.lazyPkgs[mk]; ok {
		return pkg
	}
	if l.late() {
		if !loc.repo && l.cache != nil && !l.cache.has(l.cache.file(p, loc.dir, bc)) {
			l.lateMissing++ // a warm cache would have had it in time
		}
		l.lazyPkgs[mk] = l.stub(p)
		return l.lazyPkgs[mk]
	}
	universe := l.lazy[bc.key()]
	if universe == nil {
		universe = map[string]*types.Package{}
		l.lazy[bc.key()] = universe
	}
	var pkg *types.Package
	if key := l.keyOf(p, loc, bc); key != "" {
		if data := l.cache.entry(l.entryFile(p, loc, bc, key)); data != nil {
			pkg = readInto(universe, l, p, data, loc.withTests)
		}
	}
	if pkg == nil {
		full, _ := l.load(p, loc, bc)
		if l.isStub(p, full) {
			pkg = full
		} else {
			var buf bytes.Buffer
			if err := gcexportdata.Write(&buf, l.fset, full); err == nil {
				pkg = readInto(universe, l, p, buf.Bytes(), loc.withTests)
			}
			if pkg == nil {
				pkg = l.stub(p)
			}
		}
	} else {
		l.read++
	}
	l.lazyPkgs[mk] = pkg
	return pkg
}

// readInto reads package p's export data into universe and returns it;
// variant: p is the package under test with its test files, read in
// place of the plain package for this import only.
func readInto(universe map[string]*types.Package, l *loader, p string, data []byte, variant bool) *types.Package {
	if pkg, ok := universe[p]; ok && pkg.Complete() && !variant {
		return pkg
	}
	plain, had := universe[p]
	if variant {
		delete(universe, p)
	}
	pkg, err := gcexportdata.Read(exportReader(data), l.fset, universe, p)
	if variant {
		if had {
			universe[p] = plain
		} else {
			delete(universe, p)
		}
	}
	if err != nil {
		return nil
	}
	return pkg
}

// isStub reports whether pkg is the stub the loader made for p.
func (l *loader) isStub(p string, pkg *types.Package) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return pkg == l.pkgs["stub|"+p] || pkg == l.pkgs["absent|"+p]
}

// entryFile is the cache entry of package p under key (keyOf).
func (l *loader) entryFile(p string, loc location, bc buildCtx, key string) string {
	if key == "disk:"+loc.dir {
		return l.cache.file(p, loc.dir, bc)
	}
	return l.cache.keyFile(key)
}

// keyOf returns the key package p at loc has in the loader's other
// universe (the key its entry is written under, and that its importers'
// keys name) without loading it, or "" when that is not known without
// loading it: no cache, a cycle, the package under test with its test
// files, a module-cache or standard-library package with no entry.
// Called with loadMu held; remembered for the check.
func (l *loader) keyOf(p string, loc location, bc buildCtx) string {
	if l.cache == nil || loc.withTests {
		return ""
	}
	mk := bc.key() + "|" + loc.dir + "|" + p
	if k, ok := l.keys[mk]; ok {
		return k // "" while it is computed: a cycle
	}
	l.keys[mk] = ""
	k := ""
	switch {
	case !loc.repo && l.cache.has(l.cache.file(p, loc.dir, bc)):
		k = "disk:" + loc.dir
	case loc.std:
	default:
		// a repository package, or a module-cache package built on a
		// package not found: by content
		ck, ok := l.keyWith(p, loc, bc, func(ip string) string {
			dl, found := l.locate(ip, loc)
			if !found {
				l.absentStub(ip)
				return "absent:" + ip
			}
			return l.keyOf(ip, dl, bc)
		})
		// a repository package's key stands whether or not its entry
		// exists (its importers' keys name it); has marks the entry used
		if ok && (l.cache.has(l.cache.keyFile(ck)) || loc.repo) {
			k = ck
		}
	}
	l.keys[mk] = k
	return k
}
