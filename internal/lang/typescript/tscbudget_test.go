package typescript

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ripple-dev/ripple/internal/lang"
)

// TestSpecifiers reads the module specifiers the closure estimate
// follows, and nothing that only looks like one.
func TestSpecifiers(t *testing.T) {
	src := `import a from './a';
import { b,
  c } from "../b/c.js";
export * from './d';
export { e } from '@scope/e';
import './side-effect';
const f = await import('./f');
const g = require( "g" );
type H = import("./h").H;
const s = "from './not-a-spec'"; // a string after from, inside a string: still read
myimport('./no'); reimport('./no'); x.from('./no'); fromage('./no');
import type { T } from './types';
`
	got := specifiers([]byte(src), nil)
	want := []string{"./a", "../b/c.js", "./d", "@scope/e", "./not-a-spec", "./types", "./side-effect", "./f", "./h", "g"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestTSCCost: the estimate grows with the bytes tsc will read, from a
// fixed start-up cost.
func TestTSCCost(t *testing.T) {
	if got := tscCost(0); got != tscStartup {
		t.Errorf("empty program: %v", got)
	}
	if got := tscCost(4 << 20); got != tscStartup+4*time.Second {
		t.Errorf("4 MB: %v", got)
	}
}

// TestFitsTenth: auto type-checks only when the check's time so far and
// tsc's on the sites' files fit in a tenth of a full tsc or in
// tscRooted, or the full tsc takes under tscFloor, and says why not
// once, in a note.
func TestFitsTenth(t *testing.T) {
	var notes []string
	a := &analyzer{started: time.Now(), env: &lang.Env{Note: func(_, s string) { notes = append(notes, s) }}}
	roots := []string{"src/a.ts", "src/b.ts"}
	// a large project: 0.25 s + 0.1 s for the sites against 30 s
	if !a.fitsTenth(roots, 400<<10, 30*time.Second, "p") || len(notes) != 0 {
		t.Errorf("a large project: did not fit (%q)", notes)
	}
	// a small one: the same against 2 s, within tscRooted
	if !a.fitsTenth(roots, 400<<10, 2*time.Second, "p") || len(notes) != 0 {
		t.Errorf("a small project's sites (0.35 s): did not fit (%q)", notes)
	}
	// sites importing 6 MB (1.75 s) of a 4 s project: neither a tenth
	// nor tscRooted
	if a.fitsTenth(roots, 6<<20, 4*time.Second, "the whole repository (90 files, 7.0 MB)") {
		t.Error("6 MB of sites in a 4 s project: fit")
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "tsc on the 2 sites' files and what they import (6.0 MB)") ||
		!strings.Contains(notes[0], "more than a tenth of a full tsc of the whole repository (90 files, 7.0 MB) (about 4s)") {
		t.Errorf("notes %q", notes)
	}
	// the floor: a project whose full tsc takes under 2 s is checked,
	// though tsc's fixed cost is more than a tenth of it (a 3-file
	// project once never was)
	notes = nil
	if !a.fitsTenth(roots, 10<<10, tscFull(30<<10), "the whole repository (3 files, 0.0 MB)") || len(notes) != 0 {
		t.Errorf("a 3-file project: did not fit (%q)", notes)
	}
	if !a.fitsTenth(roots, 400<<10, 1900*time.Millisecond, "p") {
		t.Error("a full tsc of 1.9 s: did not fit")
	}
	// the time the check has spent counts
	a.started = time.Now().Add(-3 * time.Second)
	if a.fitsTenth(roots, 400<<10, 5*time.Second, "p") {
		t.Error("3 s spent, then 0.35 s of sites: fit in tscRooted")
	}
	if a.fitsTenth(roots, 400<<10, 30*time.Second, "p") {
		t.Error("3 s spent of a 3 s tenth: fit")
	}
	// the full estimate errs short, the sites' one long
	if tscFull(16700<<10) > 3*time.Second || tscQuick(400<<10) < 300*time.Millisecond {
		t.Errorf("estimates: full %v for 16.7 MB (tsc took 2.2-3.7 s), sites %v for 0.4 MB (0.35-0.45 s)", tscFull(16700<<10), tscQuick(400<<10))
	}
}
