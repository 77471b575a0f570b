package typescript

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/jsonc"
	"github.com/ripple-dev/ripple/internal/lang"
)

// A lock file that moves a dependency to another version while the
// manifest's range stays (npm update, a lock-file-only update of
// Dependabot or Renovate) bumps it as surely as a changed range. The
// lock governs the package.json of its own folder and the workspace
// members it names (package-lock's "packages" entries, pnpm's
// importers, yarn berry's "@workspace:" entries); a dependency of one
// of them whose locked version differs between the two states, and
// whose range did not change (that bump is the manifest's), is a bump
// read from the lock.

// lockDep is a dependency a changed lock moved.
type lockDep struct {
	npmDep
	dir, lock string
	from, to  string
}

// lockOnly finds the dependencies the changed locks moved within an
// unchanged range; covered ("dir\x00name") are those a manifest's
// range change already bumps.
func lockOnly(ctx context.Context, in lang.BumpInput, locks []*gitio.FileChange, covered map[string]bool, baseLocks, headLocks *lockCache) ([]lockDep, error) {
	var out []lockDep
	for _, fc := range locks {
		oldSrc, err1 := in.Base.ReadFile(ctx, fc.OldPath)
		newSrc, err2 := in.Head.ReadFile(ctx, fc.NewPath)
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		// package-lock is a map: every dependency is looked up; the
		// line-based locks only for the names their changed lines hold
		// (a moved version changes its key or its resolved tarball)
		changed, scan := changedText(fc, oldSrc, newSrc), !strings.HasSuffix(fc.NewPath, ".json")
		lockDir := path.Dir(fc.NewPath)
		dirs, err := governed(ctx, in.Head, lockDir, path.Base(fc.NewPath), newSrc)
		if err != nil {
			return nil, err
		}
		for _, dir := range dirs {
			pj := path.Join(dir, "package.json")
			oldM := jsonc.Object(readOr(ctx, in.Base, pj))
			newM := jsonc.Object(readOr(ctx, in.Head, pj))
			if oldM == nil || newM == nil {
				continue
			}
			o, n := rangesOf(oldM), rangesOf(newM)
			for _, name := range slices.Sorted(maps.Keys(n)) {
				nr := n[name]
				or, ok := o[name]
				if !ok || or[0] != nr[0] || covered[dir+"\x00"+name] || !registrySpec(nr[0]) || scan && !bytes.Contains(changed, []byte(name)) {
					continue // new, its range's bump, or not touched by the lock's change
				}
				ov := baseLocks.version(ctx, in.Base, dir, name, or[0])
				nv := headLocks.version(ctx, in.Head, dir, name, nr[0])
				if ov.from != fc.OldPath || nv.from != fc.NewPath || ov.version == nv.version {
					continue // resolved elsewhere, or not moved
				}
				covered[dir+"\x00"+name] = true
				out = append(out, lockDep{npmDep: npmDep{name: name, section: nr[1], oldRange: or[0], range_: nr[0], line: lockLine(newSrc, name, nv.version)},
					dir: dir, lock: fc.NewPath, from: ov.version, to: nv.version})
			}
		}
	}
	return out, nil
}

// changedText is the text of a lock's changed lines, both sides
// (everything when the diff has no hunks).
func changedText(fc *gitio.FileChange, oldSrc, newSrc []byte) []byte {
	if fc.Whole || len(fc.Hunks) == 0 {
		return append(append([]byte{}, oldSrc...), newSrc...)
	}
	ol, nl := bytes.Split(oldSrc, []byte("\n")), bytes.Split(newSrc, []byte("\n"))
	var out []byte
	take := func(lines [][]byte, start, n int) {
		for i := start - 1; i < start-1+n && i < len(lines); i++ {
			if i >= 0 {
				out = append(append(out, lines[i]...), '\n')
			}
		}
	}
	for _, h := range fc.Hunks {
		take(ol, h.OldStart, h.OldLines)
		take(nl, h.NewStart, h.NewLines)
	}
	return out
}

// governed lists the folders whose package.json a lock resolves: its
// own, and the workspace members the lock names, unless a nearer lock
// of theirs does.
func governed(ctx context.Context, head gitio.Tree, lockDir, kind string, src []byte) ([]string, error) {
	var specs []string
	prefix := ""
	if lockDir != "." {
		prefix = lockDir + "/"
	}
	specs = append(specs, prefix+"package.json", prefix+"*/package.json")
	pjs, err := head.List(ctx, specs...)
	if err != nil {
		return nil, err
	}
	var lockSpecs []string
	for _, n := range lockNames {
		lockSpecs = append(lockSpecs, prefix+"*/"+n)
	}
	nested, err := head.List(ctx, lockSpecs...)
	if err != nil {
		return nil, err
	}
	lockDirs := map[string]bool{}
	for _, l := range nested {
		lockDirs[path.Dir(l)] = true
	}
	var members map[string]any
	if kind == "package-lock.json" || kind == "npm-shrinkwrap.json" {
		members, _ = jsonc.Object(src)["packages"].(map[string]any)
	}
	var out []string
	for _, pj := range pjs {
		dir := path.Dir(pj)
		if ignoredConfigPath(pj) {
			continue
		}
		if dir == lockDir {
			out = append(out, dir)
			continue
		}
		own := false
		for d := dir; d != lockDir && d != "." && d != "/"; d = path.Dir(d) {
			if lockDirs[d] {
				own = true
			}
		}
		rel := strings.TrimPrefix(dir, prefix)
		if own || !namesMember(kind, src, members, rel) {
			continue
		}
		out = append(out, dir)
	}
	return out, nil
}

// namesMember reports whether a lock lists folder rel (relative to the
// lock) as a workspace member.
func namesMember(kind string, src []byte, members map[string]any, rel string) bool {
	switch kind {
	case "package-lock.json", "npm-shrinkwrap.json":
		_, ok := members[rel]
		return ok
	case "pnpm-lock.yaml":
		return bytes.Contains(src, []byte("\n  "+rel+":")) || bytes.Contains(src, []byte("\n  '"+rel+"':"))
	case "yarn.lock":
		return bytes.Contains(src, []byte("@workspace:"+rel+`"`)) || bytes.Contains(src, []byte("@workspace:"+rel+":"))
	}
	return false
}

// lockLine is the line of a lock where it names a dependency at a
// version (its key, or its resolved tarball), else where it names the
// dependency, else 1.
func lockLine(src []byte, name, version string) int {
	lines := bytes.Split(src, []byte("\n"))
	for _, want := range [][]string{{name, version}, {`"node_modules/` + name + `"`}, {name}} {
		for i, l := range lines {
			all := true
			for _, w := range want {
				all = all && bytes.Contains(l, []byte(w))
			}
			if all {
				return i + 1
			}
		}
	}
	return 1
}

// readOr is a file of a tree, nil when it cannot be read.
func readOr(ctx context.Context, t gitio.Tree, p string) []byte {
	b, err := t.ReadFile(ctx, p)
	if err != nil {
		return nil
	}
	return b
}
