package golang

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/lang"
)

// Warm fills the export-data cache with the types of every package of
// the repository at env.Head under the first build configuration a
// check tries (platforms[0]), and with those of everything they import:
// what a check with an empty cache would load from source on its own
// time. Packages are loaded one at a time, as a check's loader does, and
// the cache entries are the ones a check reads (repository packages by
// content, so a later check finds every package its change did not
// touch). It stops at ctx's end, keeping what it wrote.
func (fe *Frontend) Warm(ctx context.Context, env *lang.Env) (string, error) {
	an, err := fe.NewAnalyzer(ctx, env)
	if err != nil {
		return "", err
	}
	a := an.(*analyzer)
	l := newLoader(a, time.Time{})
	if l.cache == nil {
		return "go: the type cache is off (RIPPLE_CACHE=off, or no Go toolchain found): nothing to prepare", nil
	}
	a.loader = l
	var dirs []string
	for d, files := range a.ix.byDir {
		for _, p := range files {
			if !strings.HasSuffix(p, "_test.go") {
				dirs = append(dirs, d)
				break
			}
		}
	}
	sort.Strings(dirs)
	t0 := time.Now()
	done := 0
	for _, d := range dirs {
		if ctx.Err() != nil {
			break
		}
		if strings.Contains("/"+d+"/", "/vendor/") {
			continue // loaded when a package of the repository imports it
		}
		l.load(a.ix.mods.importPath(d), location{repo: true, dir: d}, platforms[0])
		done++
	}
	l.cache.heads.save()
	msg := fmt.Sprintf("go: %d of %d packages of the repository prepared in %v (%d packages loaded from source, %d already prepared)",
		done, len(dirs), time.Since(t0).Round(100*time.Millisecond), l.loaded, l.cached)
	if ctx.Err() != nil {
		return msg + ", stopped before the end", nil
	}
	return msg, nil
}
