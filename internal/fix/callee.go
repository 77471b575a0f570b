package fix

import (
	"context"
	"fmt"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// Callees that must follow their callers. A developer's edit may take
// one more value from a helper than it returns (`a, b, rest :=
// split(s)`), or return a helper's result from a function whose own
// result gained a value: the oracle's diagnostic stands at the call, in
// a block that changed, and the fix is the helper's, which did not. So
// such a diagnostic is an obligation on the callee's block, never on the
// caller's again: the side that changed is the one the other follows.
// When the caller's block is one nobody changed, the callee's result is
// what it was and the caller follows, as for any diagnostic (that is how
// the other callers of a helper whose result the engine extended are
// planned).

// calleeObligation plans a diagnostic about a call's results on the
// callee's block (lang.ResultReader), when the block holding the call
// changed (the developer's, or an edit of the engine's) and the callee's
// did not. It reports false when the diagnostic must be planned on the
// block that holds it.
func (e *engine) calleeObligation(ctx context.Context, d oracle.Diagnostic, blk *model.Block, byKey map[string]*Obligation, obs *[]*Obligation, round int) bool {
	fe := e.frontendFor(d.Path)
	rr, ok := fe.(lang.ResultReader)
	dc, ok2 := fe.(lang.Declarer)
	if !ok || !ok2 || !e.changed(blockKey(d.Path, blk.Display)) {
		return false
	}
	src, err := e.sc.read(d.Path)
	if err != nil {
		return false
	}
	m, ok := rr.ResultMisfit(d.Path, src, d.Line, d.Message)
	if !ok {
		return false
	}
	scope := dc.Scope(d.Path)
	if m.Qualifier != "" {
		if recv := dc.Receiver(blk); recv != "" && recv == m.Qualifier {
			m.Type = blk.Container // a method of the caller's own receiver
		} else if scope, ok = dc.ImportScope(ctx, &gitio.WorkTree{R: e.sc.repo}, d.Path, src, m.Qualifier); !ok {
			return false // a variable's method, or another module's function
		}
	}
	want := m.Name
	if m.Type != "" {
		want = m.Type + "." + m.Name
	}
	cd := e.declaredNow(scope)[want]
	if cd == nil || cd.Kind != model.KindFunc && cd.Kind != model.KindMethod && cd.Kind != model.KindConstructor {
		return false
	}
	k := blockKey(cd.Path, cd.Display)
	if e.seeds[k] || e.attempts[k] >= maxAttempts {
		// the developer changed the callee too, or the engine could not
		// make it fit: the call's block is what is left
		return false
	}
	ob := byKey[k]
	if ob == nil {
		ob = &Obligation{Path: cd.Path, Block: cd.Display, Span: cd.Span, Status: Pending}
		byKey[k] = ob
		*obs = append(*obs, ob)
		e.adopt(ob, round)
	}
	r := Reason{
		Message: fmt.Sprintf("%s: %s (at %s:%d, in %s, which changed: what %s returns must follow its use)", d.Tool, d.Message, d.Path, d.Line, blk.Display, cd.Display),
		Line:    cd.Span.StartLine, Oracle: &d, Must: true,
	}
	ob.Reasons = append(ob.Reasons, e.linkUse(ob, d, r))
	return true
}

// changed reports whether a block is the developer's (a seed) or one the
// engine edited.
func (e *engine) changed(key string) bool {
	if e.seeds[key] {
		return true
	}
	p := e.all[key]
	return p != nil && p.Status == Done
}
