package harness

import "testing"

// TestExpressions: GitHub's semantics where they differ from Go's or
// JavaScript's: case-insensitive string equality, numeric coercion, &&
// and || returning an operand, a missing property being null.
func TestExpressions(t *testing.T) {
	e := &evaluator{ctx: Contexts{
		"inputs": map[string]any{"mode": "fix", "max-comments": "25", "empty": ""},
		"steps":  map[string]any{"go": map[string]any{"outputs": map[string]any{"found": "true"}}},
		"github": map[string]any{"event": map[string]any{"pull_request": map[string]any{"number": float64(7)}}},
	}}
	for _, c := range []struct{ expr, want string }{
		{"inputs.mode == 'FIX'", "true"},
		{"inputs.mode != 'check'", "true"},
		{"inputs.max-comments == 25", "true"},
		{"inputs.max-comments > 3", "true"},
		{"inputs.empty || 'default'", "default"},
		{"inputs.mode && 'yes'", "yes"},
		{"steps.go.outputs.found != 'true'", "false"},
		{"steps.nope.outputs.x", ""},
		{"steps.nope.outputs.x == ''", "true"},
		{"github.event.pull_request.number", "7"},
		{"format('{0}-{1}', 'a', github.event.pull_request.number)", "a-7"},
		{"startsWith(inputs.mode, 'F')", "true"},
		{"contains(fromJSON('[\"a\",\"b\"]'), 'B')", "true"},
		{"!inputs.empty", "true"},
		{"null == 0", "true"},
		{"'' == false", "true"},
	} {
		n, err := parse(c.expr)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		v, err := e.eval(n)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if got := str(v); got != c.want {
			t.Errorf("%s = %q, want %q", c.expr, got, c.want)
		}
	}
	got, err := e.interpolate("mode=${{ inputs.mode }}, n=${{ github.event.pull_request.number }}${{ '}}' }}")
	if err != nil || got != "mode=fix, n=7}}" {
		t.Errorf("interpolate = %q, %v", got, err)
	}
	if _, err := e.interpolate("${{ inputs.mode == }}"); err == nil {
		t.Error("a malformed expression interpolated")
	}
	if _, err := parse("nocontext.x"); err != nil {
		t.Fatal(err)
	} else if n, _ := parse("nocontext.x"); n != nil {
		if _, err := e.eval(n); err == nil {
			t.Error("an unknown context evaluated")
		}
	}
	// if: is under an implicit success() unless it calls a status
	// function
	e.failed = true
	for cond, want := range map[string]bool{"": false, "inputs.mode == 'fix'": false, "always()": true, "${{ failure() && inputs.mode == 'fix' }}": true, "success()": false} {
		if got, err := e.condition(cond); err != nil || got != want {
			t.Errorf("after a failure, if: %q = %v, %v; want %v", cond, got, err, want)
		}
	}
}

func TestGlob(t *testing.T) {
	for pat, paths := range map[string]map[string]bool{
		"**/go.sum":            {"go.sum": true, "a/b/go.sum": true, "a/go.sums": false},
		"**/requirements*.txt": {"requirements.txt": true, "x/requirements-dev.txt": true, "requirements/dev.txt": false},
		"src/*.ts":             {"src/a.ts": true, "src/x/a.ts": false},
	} {
		re := globRE(pat)
		for p, want := range paths {
			if re.MatchString(p) != want {
				t.Errorf("%s matches %s: %v, want %v", pat, p, !want, want)
			}
		}
	}
}
