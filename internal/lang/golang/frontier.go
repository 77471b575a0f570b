package golang

import (
	"context"

	"github.com/ripple-dev/ripple/internal/config"

	"github.com/ripple-dev/ripple/internal/model"
)

// The farther frontier: the targets every finding of which is a note,
// found by what the syntax resolves and never type-checked in auto.

// frontierOnly reports a reference whose finding can only be a note
// (model.MayFollow): a site two uncertain steps from the diff
// (propagate.Cap), or a name-matched call of a declaration that may have
// to change in a way not known yet (a caller of a caller that may take
// the new value), which is a note when resolved. In auto precision the
// type checker does not run for such references: resolving them costs
// as much as the rest of the check on a large repository (terraform:
// four rounds of callers of `Run` methods) and can only add or remove a
// note; `types` resolves them.
func frontierOnly(r *ref) bool {
	return r.t.frontier() && (r.t.ch.Tentative >= 2 || r.prec == model.PrecisionName)
}

// frontier reports a target every finding of which is a note: a change
// two uncertain steps from the diff (propagate.Cap), or a declaration
// that may have to change in a way not known yet (a caller that may
// take a new value from its own callers), whose calls may follow
// (syntacticVerdict) unless it follows an interface method (then a call
// may break: breaksWhenFollowing).
func (t *target) frontier() bool {
	ch := t.ch
	return ch.Tentative >= 2 || ch.Derived && t.old == t.new && ch.Via != model.OverriddenBy
}

// farMember reports a member target on the farther frontier (every
// finding of it a note: target.frontier), in a precision other than
// types.
func (a *analyzer) farMember(t *target) bool {
	if a.env.Precision == config.PrecisionTypes || !t.member || t.container == "" {
		return false
	}
	// a method whose body changed, whose calls can only be notes: only
	// those the syntax resolves are reported (judge), so they are looked
	// for where it can resolve them, as the frontier's (on terraform's
	// last 50 commits, Reset and Validate were most of the 456 files
	// parsed)
	return t.frontier() || t.ch.Label == model.MMB && a.env.NoteOnly(model.MMB, model.CalledBy)
}

// frontier finds the files where calls of frontier members can be
// resolved by their syntax: files naming the member and its container
// type, or in the container's package (methods promoted through
// embedding, receivers of the package's own functions). The rest name
// the method of some other type (terraform's `Run`: 600 files, most of
// them `t.Run` in tests), which only the type checker could tell apart,
// and frontierOnly keeps it off the frontier. What this leaves out: a
// call in another package through a value whose type the file never
// names (`svc().Handle()`, svc declared elsewhere); taking every file of
// the packages that name the type instead costs twice the whole check
// on terraform (367 files parsed against 144). `types` finds them.
func (a *analyzer) frontier(ctx context.Context, far map[string][]*target) ([]string, error) {
	var names, containers []string
	dirs := map[string]bool{}
	for name, ts := range far {
		names = append(names, name)
		for _, t := range ts {
			containers = append(containers, t.container)
			dirs[t.decl().Package] = true
		}
	}
	var named []string
	var cerr error
	done := make(chan struct{})
	go func() { // two greps of the tree at once
		defer close(done)
		named, cerr = a.ix.Search(ctx, containers)
	}()
	hits, err := a.ix.Search(ctx, names)
	<-done
	if err == nil {
		err = cerr
	}
	if err != nil || len(hits) == 0 {
		return nil, err
	}
	with := map[string]bool{}
	for _, p := range named {
		with[p] = true
	}
	var out []string
	for _, p := range hits {
		if with[p] || dirs[dirOf(p)] {
			out = append(out, p)
		}
	}
	return out, nil
}
