package typescript

import (
	"reflect"
	"testing"
	"time"
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
