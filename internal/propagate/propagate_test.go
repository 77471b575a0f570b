package propagate

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// TestSettle checks the policy of the package documentation: errors stay
// errors even when touched, may-be-impacted sites take the configured
// level and become consistent when the diff touched them, callers of a
// body change use "body", switched-off relations disappear, ignored paths
// and duplicates are dropped, generated files say so once.
func TestSettle(t *testing.T) {
	sig := &model.Change{Label: model.MMS, New: &model.Block{Display: "func F"}}
	body := &model.Change{Label: model.MMB, New: &model.Block{Display: "func G"}}
	site := func(path string, line int) model.Site { return model.Site{Path: path, Line: line} }
	mk := func(c *model.Change, rel model.Relation, v model.Verdict, s model.Site) found {
		return found{f: &model.Finding{Change: c, Relation: rel, Verdict: v, Site: s}}
	}
	gen := mk(sig, model.CalledBy, model.Inconsistent, site("gen.go", 1))
	gen.generated = true // by header, and by the config's globs too
	fs := []found{
		mk(sig, model.CalledBy, model.Inconsistent, site("a.go", 3)),
		mk(sig, model.CalledBy, model.Inconsistent, site("touched.go", 5)),
		mk(sig, model.CalledBy, model.MayBeImpacted, site("b.go", 7)),
		mk(sig, model.CalledBy, model.MayBeImpacted, site("touched.go", 9)),
		mk(body, model.CalledBy, model.MayBeImpacted, site("c.go", 1)),
		mk(sig, model.UsedBy, model.Inconsistent, site("d.go", 2)),
		mk(sig, model.CalledBy, model.Inconsistent, site("vendor/x.go", 4)),
		mk(sig, model.CalledBy, model.MayBeImpacted, site("a.go", 3)), // duplicate, weaker
		gen,
	}
	cfg := config.Default()
	cfg.Severity = map[string]model.Level{"UsedBy": model.LevelNone}
	in := Input{
		Env: &lang.Env{
			Changed: map[string]*gitio.FileChange{"touched.go": {Status: gitio.Modified, NewPath: "touched.go",
				Hunks: []gitio.Hunk{{OldStart: 5, OldLines: 1, NewStart: 5, NewLines: 1}, {OldStart: 9, OldLines: 1, NewStart: 9, NewLines: 1}}}},
			Ignored: func(p string) bool { return p == "vendor/x.go" },
		},
		Level:     cfg.FindingLevel,
		Generated: func(p string) bool { return p == "gen.go" },
	}
	got := map[string]*model.Finding{}
	for _, f := range settle(fs, in, nil) {
		k := fmt.Sprintf("%s:%d:%s", f.Site.Path, f.Site.Line, f.Relation)
		if _, dup := got[k]; dup {
			t.Errorf("%s reported twice", k)
		}
		got[k] = f
	}
	want := map[string]model.Level{
		"a.go:3:CalledBy":       model.LevelError,   // the stronger of the duplicates
		"touched.go:5:CalledBy": model.LevelError,   // touched but still broken
		"touched.go:9:CalledBy": model.LevelNone,    // may be impacted and touched: consistent
		"b.go:7:CalledBy":       model.LevelWarning, // may be impacted
		"c.go:1:CalledBy":       model.LevelNote,    // callers of a body change: "body"
		"gen.go:1:CalledBy":     model.LevelError,
	}
	for k, l := range want {
		if got[k] == nil || got[k].Level != l {
			t.Errorf("%s: %v, want level %q", k, got[k], l)
		}
	}
	for _, k := range []string{"d.go:2:UsedBy", "vendor/x.go:4:CalledBy"} {
		if _, ok := got[k]; ok {
			t.Errorf("%s reported: switched off or ignored", k)
		}
	}
	if f := got["touched.go:9:CalledBy"]; f == nil || f.Verdict != model.Consistent || !f.Updated {
		t.Errorf("touched may-be-impacted site: %+v", f)
	}
	if f := got["gen.go:1:CalledBy"]; f == nil || strings.Count(f.Message, "regenerate") != 1 {
		t.Errorf("generated file by header and glob: message %q, want one 'regenerate it'", f.Message)
	}
}

// TestAggregate checks that many findings of one change with one reason
// below error become one listing the others, and that errors never do.
func TestAggregate(t *testing.T) {
	c := &model.Change{Label: model.MMS, New: &model.Block{Display: "func F"}}
	var fs []found
	for i := range 12 {
		path := "w.go"
		if i < 3 {
			path = "a_test.go" // sorted first; not the group's head
		}
		fs = append(fs, found{f: &model.Finding{Change: c, Relation: model.CalledBy, Verdict: model.MayBeImpacted,
			Message: "relies on the default of timeout, which changed", Site: model.Site{Path: path, Line: i + 1}}})
		fs = append(fs, found{f: &model.Finding{Change: c, Relation: model.CalledBy, Verdict: model.Inconsistent,
			Message: "call passes 1 argument; F now takes 2", Site: model.Site{Path: "e.go", Line: i + 1}}})
	}
	out := settle(fs, Input{AggregateAbove: 8}, func(f *model.Finding) bool { return strings.HasSuffix(f.Site.Path, "_test.go") })
	var warn, errs int
	for _, f := range out {
		switch f.Level {
		case model.LevelWarning:
			warn++
			if len(f.Also) != 11 || f.Site.Path != "w.go" || f.Site.Line != 4 {
				t.Errorf("aggregate at %s:%d lists %d other sites, want w.go:4 (the first outside tests) and 11", f.Site.Path, f.Site.Line, len(f.Also))
			}
		case model.LevelError:
			errs++
		}
	}
	if warn != 1 || errs != 12 {
		t.Errorf("%d warnings and %d errors, want 1 aggregate and 12 errors", warn, errs)
	}
}

// TestAggregateGather checks that findings a front-end asked to gather
// are one finding from two sites on, and that the others are not.
func TestAggregateGather(t *testing.T) {
	c := &model.Change{Label: model.MMS, New: &model.Block{Display: "func F"}}
	var fs []found
	for i := range 3 {
		fs = append(fs, found{f: &model.Finding{Change: c, Relation: model.CalledBy, Verdict: model.MayFollow,
			Message: "relies on the default of timeout", Site: model.Site{Path: "n.py", Line: i + 1}}, gather: true})
		fs = append(fs, found{f: &model.Finding{Change: c, Relation: model.CalledBy, Verdict: model.MayBeImpacted,
			Message: "the call binds, but argument 2 moved", Site: model.Site{Path: "w.py", Line: i + 1}}})
	}
	out := settle(fs, Input{AggregateAbove: 8}, nil)
	var notes, warns int
	for _, f := range out {
		switch f.Level {
		case model.LevelNote:
			notes++
			if len(f.Also) != 2 {
				t.Errorf("gathered note lists %d other sites, want 2", len(f.Also))
			}
		case model.LevelWarning:
			warns++
		}
	}
	if notes != 1 || warns != 3 {
		t.Errorf("%d notes and %d warnings, want 1 gathered note and 3 warnings", notes, warns)
	}
}

// toy is an analyzer of a made-up language: every change has one caller
// "caller(X)" in x.toy; the caller of a change of "F" forwards it (a
// wrapper, which must follow), and nothing calls the callers of its
// callers.
type toy struct{ asked [][]lang.Query }

func (a *toy) Answer(_ context.Context, qs []lang.Query) ([]*lang.Ref, error) {
	a.asked = append(a.asked, qs)
	var out []*lang.Ref
	for _, q := range qs {
		b := q.Change.Block()
		caller := "caller(" + b.Name + ")"
		r := &lang.Ref{Change: q.Change, Relation: model.CalledBy, Verdict: model.MayFollow, Precision: model.PrecisionSyntax,
			Site: model.Site{Path: "x.toy", Line: len(b.Name), Enclosing: caller}, Message: "calls " + b.Name}
		if q.Change.Hops() == 0 {
			r.Verdict = model.Inconsistent
			r.Follow = &lang.Follow{Decl: &lang.Decl{Block: model.Block{Lang: "toy", Kind: model.KindFunc, Path: "x.toy", Name: caller, Display: caller}},
				Label: model.MMS, Details: []string{"forwards " + b.Name}}
		}
		out = append(out, r, &lang.Ref{Change: q.Change, Relation: model.ImportedBy, Verdict: model.MayBeImpacted, Site: model.Site{Path: "y.toy", Line: 1}})
	}
	return out, nil
}

type toyFrontend struct{ an *toy }

func (toyFrontend) Name() string                                           { return "toy" }
func (toyFrontend) Match(p string) bool                                    { return strings.HasSuffix(p, ".toy") }
func (toyFrontend) Pathspecs() []string                                    { return []string{"*.toy"} }
func (toyFrontend) Decls(string, []byte) ([]*lang.Decl, *model.Diagnostic) { return nil, nil }
func (toyFrontend) Details(_, _ *lang.Decl) []string                       { return nil }
func (toyFrontend) Escapes(_, _ *lang.Decl, _, _ func(int, int) bool) []string {
	return nil
}
func (fe toyFrontend) NewAnalyzer(context.Context, *lang.Env) (lang.Analyzer, error) {
	return keepAll{fe.an}, nil
}

// keepAll keeps only what was asked for, as real analyzers do.
type keepAll struct{ *toy }

func (k keepAll) Answer(ctx context.Context, qs []lang.Query) ([]*lang.Ref, error) {
	refs, err := k.toy.Answer(ctx, qs)
	return lang.Keep(qs, refs), err
}

// TestWalk checks the walk: relations from the may-impact table, derived
// changes asked about in the next round with their relation and cause,
// the frontier ladder, the depth bound, and Keep.
func TestWalk(t *testing.T) {
	seed := &model.Change{Label: model.MMS, New: &model.Block{Lang: "toy", Kind: model.KindFunc, Path: "f.toy", Name: "F", Display: "func F"}}
	body := &model.Change{Label: model.MMB, New: &model.Block{Lang: "toy", Kind: model.KindFunc, Path: "f.toy", Name: "G", Display: "func G"}}
	an := &toy{}
	fe := toyFrontend{an}
	out, err := Walk(context.Background(), Input{
		Changes: []*model.Change{seed, body}, Frontends: lang.Set{fe},
		Env: &lang.Env{}, MaxDepth: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(an.asked) != 2 || len(an.asked[0]) != 1 || an.asked[0][0].Change != seed {
		t.Fatalf("rounds asked: %v; want the seed alone (a body change that does not escape has no relations), then its derived change", an.asked)
	}
	if q := an.asked[0][0]; !q.Wants(model.CalledBy) || !q.Wants(model.OverriddenBy) || q.Wants(model.ImportedBy) {
		t.Errorf("MMS asked for %v, want model.Impacts[MMS]", q.Relations)
	}
	if len(out.Derived) != 1 {
		t.Fatalf("derived %d changes, want 1", len(out.Derived))
	}
	d := out.Derived[0]
	if d.Cause != seed || d.Via != model.CalledBy || !d.Derived || d.Label != model.MMS {
		t.Errorf("derived change %+v: want MMS caused by the seed via CalledBy", d)
	}
	levels := map[int]model.Level{}
	for _, f := range out.Findings {
		if f.Relation == model.ImportedBy {
			t.Errorf("a relation MMS does not ask for was kept: %+v", f)
		}
		levels[f.Site.Line] = f.Level
		if f.Change == d {
			tr := f.Trail
			if len(tr) != 3 || tr[1].Relation != model.CalledBy || tr[1].Display != "caller(F)" || tr[2].Display != "caller(caller(F))" {
				t.Errorf("trail %+v", tr)
			}
		}
	}
	if levels[1] != model.LevelError || levels[len("caller(F)")] != model.LevelNote {
		t.Errorf("levels %v: want the seed's caller an error and the wrapper's caller (the frontier) a note", levels)
	}
}

// ladder is an analyzer whose seed has one caller of each rung: a
// wrapper that must follow (W: what it reaches could be errors), a base
// that may follow (B: warnings) and a function that may have to take a
// value from its callers (T: the frontier, notes). The derived changes
// have one caller each and derive nothing. block, when set, makes the
// rounds after the first wait for their context to end.
type ladder struct {
	asked [][]string
	block bool
}

func (a *ladder) Answer(ctx context.Context, qs []lang.Query) ([]*lang.Ref, error) {
	var names []string
	for _, q := range qs {
		names = append(names, q.Change.Block().Name)
	}
	a.asked = append(a.asked, names)
	if a.block && len(a.asked) > 1 {
		<-ctx.Done()
		return nil, fmt.Errorf("search: %w", ctx.Err())
	}
	var out []*lang.Ref
	for i, q := range qs {
		site := model.Site{Path: "x.toy", Line: 10*len(a.asked) + i}
		r := &lang.Ref{Change: q.Change, Relation: model.CalledBy, Verdict: model.Inconsistent, Site: site, Message: "calls " + names[i]}
		out = append(out, r)
		if q.Change.Derived {
			continue
		}
		follow := func(name string, may, frontier bool) *lang.Ref {
			site.Line++
			return &lang.Ref{Change: q.Change, Relation: model.CalledBy, Verdict: model.Inconsistent, Site: site, Message: "in " + name,
				Follow: &lang.Follow{Decl: &lang.Decl{Block: model.Block{Lang: "toy", Kind: model.KindFunc, Path: "x.toy", Name: name, Display: "func " + name}},
					Label: model.MMS, May: may, Frontier: frontier}}
		}
		out = append(out, follow("T", false, true), follow("B", true, false), follow("W", false, false))
	}
	return out, nil
}

type ladderFrontend struct {
	toyFrontend
	an *ladder
}

func (fe ladderFrontend) NewAnalyzer(context.Context, *lang.Env) (lang.Analyzer, error) {
	return fe.an, nil
}

// TestWalkRungs checks the order and the bounds of the walk of derived
// changes: the rung that could reach errors first, then warnings, then
// the frontier; SkipFrontier leaves the frontier out; a deadline that
// has passed leaves every derived change unwalked, counted by rung, and
// one that interrupts a round drops that round, never failing the walk;
// the seed's own dependents are answered whatever the deadline.
func TestWalkRungs(t *testing.T) {
	seed := &model.Change{Label: model.MMS, New: &model.Block{Lang: "toy", Kind: model.KindFunc, Path: "f.toy", Name: "S", Display: "func S"}}
	run := func(in Input, an *ladder) *Output {
		t.Helper()
		in.Changes = []*model.Change{seed}
		in.Frontends = lang.Set{ladderFrontend{an: an}}
		in.Env, in.MaxDepth = &lang.Env{}, 8
		out, err := Walk(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	asked := func(an *ladder) string {
		var rounds []string
		for _, r := range an.asked {
			rounds = append(rounds, strings.Join(r, ","))
		}
		return strings.Join(rounds, " ")
	}
	an := &ladder{}
	out := run(Input{}, an)
	if got := asked(an); got != "S W B T" {
		t.Errorf("rounds %q, want the seed, then W (errors' rung), B (warnings'), T (the frontier)", got)
	}
	for _, f := range out.Findings {
		if f.Change.Block().Name == "T" && f.Verdict != model.MayFollow {
			t.Errorf("a site of the frontier change T is %v, want may have to follow (Cap)", f.Verdict)
		}
	}

	an = &ladder{}
	out = run(Input{SkipFrontier: true}, an)
	if got := asked(an); got != "S W B" || out.Skipped != 1 || len(out.Derived) != 2 {
		t.Errorf("SkipFrontier: rounds %q, %d skipped, %d derived; want S W B, 1 skipped (T), 2 derived", got, out.Skipped, len(out.Derived))
	}

	an = &ladder{}
	out = run(Input{Deadline: time.Now().Add(-time.Second)}, an)
	want := map[model.Verdict]int{model.Inconsistent: 1, model.MayBeImpacted: 1, model.MayFollow: 1}
	if got := asked(an); got != "S" || fmt.Sprint(out.Unwalked) != fmt.Sprint(want) {
		t.Errorf("deadline passed: rounds %q, unwalked %v; want S alone, one of each rung unwalked", got, out.Unwalked)
	}
	if len(out.Findings) != 4 {
		t.Errorf("deadline passed: %d findings, want the seed's 4 sites", len(out.Findings))
	}

	an = &ladder{block: true}
	out = run(Input{Deadline: time.Now().Add(50 * time.Millisecond)}, an)
	if got := asked(an); got != "S W" || out.Unwalked[model.Inconsistent] != 1 || out.Unwalked[model.MayFollow] != 1 {
		t.Errorf("deadline during W's round: rounds %q, unwalked %v; want S W, then W dropped and B and T left", got, out.Unwalked)
	}
}

// TestMembersOfAddedTypes: the fields, methods and constructors of a
// type the same diff adds are not walked (nothing that compiled before
// names the type), while a field added to a type that was there is, and
// a same-named type of another package is another type.
func TestMembersOfAddedTypes(t *testing.T) {
	block := func(kind model.Kind, pkg, container, name string) *model.Block {
		return &model.Block{Lang: "toy", Kind: kind, Path: pkg + "/f.toy", Package: pkg, Unit: pkg, Container: container, Name: name, Display: name}
	}
	added := &model.Change{Label: model.AC, New: block(model.KindType, "a", "", "Graph")}
	field := &model.Change{Label: model.AF, New: block(model.KindField, "a", "Graph", "Depth")}
	method := &model.Change{Label: model.AM, New: block(model.KindMethod, "a", "Graph", "Draw")}
	elsewhere := &model.Change{Label: model.AF, New: block(model.KindField, "b", "Graph", "Depth")}
	an := &toy{}
	if _, err := Walk(context.Background(), Input{
		Changes: []*model.Change{added, field, method, elsewhere}, Frontends: lang.Set{toyFrontend{an}}, Env: &lang.Env{},
	}); err != nil {
		t.Fatal(err)
	}
	var asked []*model.Change
	for _, round := range an.asked {
		for _, q := range round {
			asked = append(asked, q.Change)
		}
	}
	if len(asked) != 1 || asked[0] != elsewhere {
		t.Errorf("asked about %d changes, want only the field of package b's Graph", len(asked))
	}
}
