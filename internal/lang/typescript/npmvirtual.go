package typescript

import (
	"os"
	"path/filepath"
	"strings"
)

// The analyzer's view of the packages a bump read (npm.go): a bare
// specifier of a bumped package ("radix3", "radix3/sub") resolves to the
// new version's declaration file under the version's root
// ("radix3@0.2.0/dist/index.d.ts"), the path the bump's changes carry
// (internal/bump rewrites the trees' root to it), so that an import of
// the package binds the changed declarations as an import of a
// repository module does. The files under that root are the version's
// declaration files, read and parsed like the repository's: their
// re-exports (`export * from './x'`, `export { a } from`) are followed
// by exportOf and mayReach as for any module.

// bumpOf is the bump whose trees or versions p lies under, nil for a
// repository path.
func (fe *Frontend) bumpOf(p string) *npmBump {
	if !strings.Contains(p, "@") {
		return nil
	}
	fe.mu.Lock()
	defer fe.mu.Unlock()
	// the versioned roots first: two manifests may bump one package
	// (one root) to different versions
	for _, b := range fe.npm {
		if strings.HasPrefix(p, b.newRoot+"/") || strings.HasPrefix(p, b.oldRoot+"/") {
			return b
		}
	}
	for _, b := range fe.npm {
		if strings.HasPrefix(p, b.root+"/") {
			return b
		}
	}
	return nil
}

// headPath maps a path of a bump's tree or of its old version to the
// new version's: a declaration the bump deleted is looked for where the
// repository's imports now resolve. Other paths are returned as given.
func (fe *Frontend) headPath(p string) string {
	b := fe.bumpOf(p)
	if b == nil {
		return p
	}
	for _, r := range []string{b.root, b.oldRoot} {
		if rest, ok := strings.CutPrefix(p, r+"/"); ok {
			return b.newRoot + "/" + rest
		}
	}
	return p
}

// virtualSrc is the new version's declaration file at p.
func (fe *Frontend) virtualSrc(p string) ([]byte, bool) {
	b := fe.bumpOf(p)
	if b == nil {
		return nil, false
	}
	rel, ok := strings.CutPrefix(p, b.newRoot+"/")
	if !ok {
		return nil, false
	}
	src, ok := b.pkg.files[rel]
	return src, ok
}

// has reports a file of the head state: the repository's, or a bumped
// package's new declaration file.
func (a *analyzer) has(p string) bool {
	if a.files[p] {
		return true
	}
	_, ok := a.fe.virtualSrc(p)
	return ok
}

// virtualFile is the parsed declaration file of a bumped package at p.
func (a *analyzer) virtualFile(p string) *tsfile {
	src, ok := a.fe.virtualSrc(p)
	if !ok {
		return nil
	}
	f, _ := a.fe.cache.Get(p, src)
	return f
}

// splitPackage splits a bare specifier into its package name and the
// subpath ("." or "./x").
func splitPackage(spec string) (name, sub string) {
	segs := strings.Split(spec, "/")
	n := 1
	if strings.HasPrefix(spec, "@") {
		n = 2
	}
	if len(segs) < n {
		return spec, "."
	}
	name = strings.Join(segs[:n], "/")
	if len(segs) == n {
		return name, "."
	}
	return name, "./" + strings.Join(segs[n:], "/")
}

// npmResolve resolves a bare specifier of a bumped package to the new
// version's declaration file, through the bump of the nearest manifest
// above the importing file that bumped it. "" for a package no bump
// read.
func (a *analyzer) npmResolve(from, spec string) string {
	name, sub := splitPackage(spec)
	a.fe.mu.Lock()
	var best *npmBump
	for _, b := range a.fe.npm {
		if b.name != name {
			continue
		}
		if b.dir == "." || strings.HasPrefix(from, b.dir+"/") {
			if best == nil || best.dir == "." || len(b.dir) > len(best.dir) && b.dir != "." {
				best = b
			}
		} else if best == nil {
			best = b // hoisted: another package's manifest bumped it
		}
	}
	a.fe.mu.Unlock()
	if best == nil {
		return ""
	}
	if rel := best.pkg.entry(sub); rel != "" {
		return best.newRoot + "/" + rel
	}
	return ""
}

// npmWords are the words an importer of a bumped package's module
// writes: the package name's.
func npmWords(name string) []string {
	return moduleWords(strings.TrimPrefix(name, "@") + ".ts")
}

// modWords are the words an importer of module p writes (moduleWords;
// for a bumped package's file, its package name).
func (a *analyzer) modWords(p string) []string {
	if b := a.fe.bumpOf(p); b != nil {
		var out []string
		for _, s := range strings.Split(b.name, "/") {
			out = append(out, npmWords(s)...)
		}
		return out
	}
	return moduleWords(p)
}

// npmPaths writes the bumped packages' new declaration files under dir
// and maps their specifiers there, for tsc's compilerOptions.paths: the
// type checker then checks the sites against the new version, whatever
// node_modules holds.
func (a *analyzer) npmPaths(dir string) map[string][]string {
	a.fe.mu.Lock()
	bumps := append([]*npmBump(nil), a.fe.npm...)
	a.fe.mu.Unlock()
	out := map[string][]string{}
	for _, b := range bumps {
		root := filepath.Join(dir, "npm", filepath.FromSlash(strings.ReplaceAll(b.newRoot, "/", "+")))
		ok := true
		for rel, src := range b.pkg.files {
			full := filepath.Join(root, filepath.FromSlash(rel))
			if os.MkdirAll(filepath.Dir(full), 0o755) != nil || os.WriteFile(full, src, 0o644) != nil {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		if e := b.pkg.entry("."); e != "" {
			out[b.name] = []string{filepath.Join(root, filepath.FromSlash(e))}
		}
		for _, s := range b.imported {
			_, sub := splitPackage(s)
			if e := b.pkg.entry(sub); e != "" && sub != "." {
				out[s] = []string{filepath.Join(root, filepath.FromSlash(e))}
			}
		}
		out[b.name+"/*"] = []string{filepath.Join(root, "*")}
	}
	return out
}
