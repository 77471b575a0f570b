package check

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ripple-dev/ripple/internal/bump"
	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/diffclassify"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/languages"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/propagate"
	"github.com/ripple-dev/ripple/internal/usercache"
)

// Options selects what to compare.
type Options struct {
	Base string // revision; "" = default base
	// Head is a revision, "" = HEAD (ignored with WorkTree); it may name
	// a tree (a merged tree: Merge), and then Base must be given.
	Head string
	// WorkTree compares the work tree (uncommitted changes, untracked
	// files included) with Base, by default HEAD.
	WorkTree bool
	Config   *config.Config
	// Now is the clock, for tests; nil = time.Now.
	Now func() time.Time
	// Deadline, when set, ends the budget instead of the check's start
	// plus Config.Budget: checks that share one budget (the merge
	// check's) pass the same.
	Deadline time.Time
	// Frontends makes the front-ends of one check; nil =
	// languages.Frontends (tests add a language without editing the list).
	Frontends func() lang.Set
	// SkipFrontier leaves the farther frontier unwalked (changes whose
	// dependents can only be notes: propagate.Input.SkipFrontier), for
	// a report that shows no notes (the hook's text without -verbose).
	SkipFrontier bool
}

// MaxDepth bounds the walk over derived changes (wrapper chains, a value
// threaded through callers, an override family); MaxDerived bounds how
// many are made in one check (a widely called function's callers'
// callers): past it the frontier is cut, and the check says so.
const (
	MaxDepth   = 8
	MaxDerived = 200
)

// Reaches reports whether a result holds a change that dependents may
// depend on (one the walk asks relations of): a check that failed after
// classifying such a change may have missed broken sites.
func Reaches(res *model.Result) bool {
	if res == nil {
		return false
	}
	members := propagate.MembersOfAdded(res.Changes)
	for _, c := range res.Changes {
		if len(propagate.Relations(c)) > 0 && !members[c] {
			return true
		}
	}
	return false
}

// Run checks one range. On a failure of the walk, the result returned
// with the error holds what was classified (Reaches).
func Run(ctx context.Context, repo *gitio.Repo, o Options) (*model.Result, error) {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	start := now()
	cfg := o.Config
	if cfg == nil {
		cfg = config.Default()
	}
	res := &model.Result{}
	if repo.Words == nil {
		repo.Words = OpenWords(repo)
	}
	defer repo.Words.Save()
	base, headRev, head, err := resolveRange(ctx, repo, o, res)
	if err != nil {
		return nil, err
	}
	res.Base, res.Head = base, headRev

	newFrontends := o.Frontends
	if newFrontends == nil {
		newFrontends = languages.Frontends
	}
	fes := newFrontends()
	// the manifests too: a dependency's version change is a seed
	// (internal/bump)
	files, err := repo.Diff(ctx, base, headRev, cfg.MaxFiles, append(fes.Pathspecs(), bump.Pathspecs(fes)...)...)
	if err != nil {
		return nil, err
	}
	res.Stats.ChangedFiles = len(files)
	if ht, ok := head.(*gitio.RevTree); ok && len(files) > 0 {
		ht.Prefetch(ctx) // the front-ends list it; the listing overlaps classification
	}
	ignored := func(p string) bool { return cfg.Ignored(p) }
	baseTree := &gitio.RevTree{R: repo, SHA: base}
	cl, err := diffclassify.Classify(ctx, diffclassify.Input{Files: files, Base: baseTree, Head: head, Frontends: fes, Ignored: ignored})
	if err != nil {
		return nil, err
	}
	deadline := o.Deadline
	if deadline.IsZero() && cfg.Budget > 0 {
		deadline = start.Add(cfg.Budget)
	}
	bumps, err := bump.Seeds(ctx, bump.Input{Frontends: fes, Base: baseTree, Head: head, Files: files, Deadline: deadline})
	if err != nil {
		return nil, err
	}
	cl.Changes = append(cl.Changes, bumps.Changes...)
	res.Bumps = bumps.Bumps
	cl.Parsed += bumps.Parsed
	res.Changes = cl.Changes
	res.Diagnostics = append(res.Diagnostics, cl.Diagnostics...)
	res.Diagnostics = append(res.Diagnostics, bumps.Diagnostics...)
	res.PrecisionNotes = append(res.PrecisionNotes, bumps.Notes...)

	changed := map[string]*gitio.FileChange{}
	for _, f := range files {
		changed[f.Path()] = f
	}
	env := analysisEnv(res, cfg, baseTree, head, changed, ignored)
	switch {
	case !o.Deadline.IsZero():
		env.Deadline = o.Deadline
	case cfg.Budget > 0:
		env.Deadline = start.Add(cfg.Budget)
	}
	if !env.Deadline.IsZero() {
		env.Deadline = env.Deadline.Add(-Reserve(cfg.Budget)) // the report's share
	}
	out, err := propagate.Walk(ctx, propagate.Input{
		Changes: cl.Changes, Frontends: fes, Env: env,
		Level: cfg.FindingLevel, Generated: cfg.IsGeneratedPath, MaxDepth: MaxDepth, MaxDerived: MaxDerived,
		Deadline: env.Deadline, SkipFrontier: o.SkipFrontier,
	})
	if err != nil {
		return res, err // what was classified: Reaches decides what a failure does to a push
	}
	limitNotes(res, out, cfg, env.Deadline, now)
	res.Stats.FrontierSkipped = out.Skipped
	res.Stats.Cold = out.Cold
	res.Changes = append(res.Changes, out.Derived...)
	res.Findings = out.Findings
	res.PrecisionNotes = append(res.PrecisionNotes, bump.Summarize(bumps.Bumps, res.Changes, res.Findings)...)
	res.Diagnostics = dedupeDiagnostics(res.Diagnostics)
	res.Stats.ParsedFiles = cl.Parsed + out.Parsed
	res.Stats.TypedPackages = out.Typed
	res.Stats.Millis = now().Sub(start).Milliseconds()
	return res, nil
}

// resolveRange resolves the range to check: the head (the work tree, or
// a commit) and the base (given, HEAD for the work tree, or found in the
// head's history, with a note on res saying how). headRev is "" for the
// work tree. An explicit base resolves while the head does.
func resolveRange(ctx context.Context, repo *gitio.Repo, o Options, res *model.Result) (base, headRev string, head gitio.Tree, err error) {
	if !o.WorkTree {
		// whether the head is checked out decides where the front-ends
		// search (gitio.RevTree.Grep); ask git while the range resolves
		go repo.HeadCommit(ctx)
	}
	// an explicit base resolves while the head does (10 ms a git process)
	type resolved struct {
		sha string
		err error
	}
	baseCh := make(chan resolved, 1)
	if o.Base != "" {
		go func() {
			sha, err := repo.Resolve(ctx, o.Base)
			baseCh <- resolved{sha, err}
		}()
	}
	if o.WorkTree {
		head = &gitio.WorkTree{R: repo}
	} else {
		h := o.Head
		if h == "" {
			h = "HEAD"
		}
		sha, tree, err := repo.ResolveState(ctx, h)
		if err != nil {
			return "", "", nil, fmt.Errorf("head: %w", err)
		}
		if tree && o.Base == "" {
			return "", "", nil, fmt.Errorf("head: %s is a tree, which has no history to find a base in: give a base", h)
		}
		headRev = sha
		head = &gitio.RevTree{R: repo, SHA: sha}
	}
	base = o.Base
	switch {
	case base != "":
		r := <-baseCh
		if r.err != nil {
			return "", "", nil, fmt.Errorf("base: %w", r.err)
		}
		base = r.sha
	case o.WorkTree:
		if base, err = repo.Resolve(ctx, "HEAD"); err != nil {
			return "", "", nil, fmt.Errorf("base: %w", err)
		}
	default:
		var why string
		if base, why, err = repo.DefaultBase(ctx, headRev); err != nil {
			return "", "", nil, err
		}
		res.PrecisionNotes = append(res.PrecisionNotes, "base: "+why)
	}
	return base, headRev, head, nil
}

// analysisEnv is the environment the front-ends analyse in: the two
// trees, the changed files, the configuration's precision and defaults,
// and the callbacks through which they report diagnostics and notes into
// res (from several goroutines, hence the lock) and ask a finding's
// level.
func analysisEnv(res *model.Result, cfg *config.Config, baseTree, head gitio.Tree, changed map[string]*gitio.FileChange, ignored func(string) bool) *lang.Env {
	var mu sync.Mutex // analyzers report from several goroutines
	noteAt := map[string]int{}
	return &lang.Env{
		Base: baseTree, Head: head, Changed: changed, Ignored: ignored,
		Precision: cfg.Precision, Defaults: cfg.ParamDefaults,
		Diag: func(d model.Diagnostic) {
			mu.Lock()
			res.Diagnostics = append(res.Diagnostics, d)
			mu.Unlock()
		},
		Note: func(key, s string) {
			mu.Lock()
			if i, ok := noteAt[key]; ok {
				res.PrecisionNotes[i] = s
			} else {
				noteAt[key] = len(res.PrecisionNotes)
				res.PrecisionNotes = append(res.PrecisionNotes, s)
			}
			mu.Unlock()
		},
		MayLevel: func(l model.Label, r model.Relation) model.Level {
			return cfg.FindingLevel(&model.Finding{Change: &model.Change{Label: l}, Relation: r, Verdict: model.MayBeImpacted})
		},
	}
}

// limitNotes says on res where the walk stopped short of its reach: the
// farther frontier cut at MaxDerived, dependents left unwalked when the
// budget ran out, or a check that ran past its budget without cutting
// anything (deadline is the walk's, before the report's share).
func limitNotes(res *model.Result, out *propagate.Output, cfg *config.Config, deadline time.Time, now func() time.Time) {
	if out.Cut > 0 {
		res.PrecisionNotes = append(res.PrecisionNotes, fmt.Sprintf("the farther frontier was cut: %d more dependents that may have to follow were not walked (the limit is %d derived changes per check)", out.Cut, MaxDerived))
	}
	if n := unwalked(out.Unwalked); n != "" {
		res.PrecisionNotes = append(res.PrecisionNotes, fmt.Sprintf("the budget (%v) ran out: %s; every dependent of the diff's own changes was judged (raise budget to walk them)", cfg.Budget, n))
		res.Stats.BudgetCut = true
	}
	if end := deadline.Add(Reserve(cfg.Budget)); !deadline.IsZero() && now().After(end) && !res.Stats.BudgetCut {
		// nothing was cut, yet the budget is spent: the seed's own
		// dependents are judged whatever the deadline (a budget never
		// lets a broken site through), and that took longer
		res.PrecisionNotes = append(res.PrecisionNotes, fmt.Sprintf("the check ran %v past its budget (%v): every dependent of the diff's own changes is judged whatever the budget, so that running out of time never lets a broken site through",
			now().Sub(end).Round(10*time.Millisecond), cfg.Budget))
	}
}

// OpenWords opens the repository's word index in the cache folder (nil
// when RIPPLE_CACHE=off) and removes the indexes of repositories not
// checked for a month.
func OpenWords(repo *gitio.Repo) *gitio.WordIndex {
	root, off, err := usercache.Dir()
	if off || err != nil {
		return nil
	}
	dir := filepath.Join(root, gitio.WordsDir)
	go gitio.TrimWords(dir, 30*24*time.Hour)
	return gitio.OpenWordIndex(dir, repo.GitDir)
}

// Reserve is the part of a budget kept for settling and writing the
// report: a twentieth, at most half a second.
func Reserve(budget time.Duration) time.Duration {
	return min(budget/20, 500*time.Millisecond)
}

// unwalked says what a deadline left unwalked, by the rung of what it
// would reach, highest first: "12 derived changes were not walked (what
// they reach could be errors for 2, warnings for 3, notes for 7)".
func unwalked(by map[model.Verdict]int) string {
	total := 0
	var parts []string
	for _, r := range []struct {
		v    model.Verdict
		what string
	}{{model.Inconsistent, "errors"}, {model.MayBeImpacted, "warnings"}, {model.MayFollow, "notes"}} {
		if n := by[r.v]; n > 0 {
			total += n
			parts = append(parts, fmt.Sprintf("%s for %d", r.what, n))
		}
	}
	switch {
	case total == 0:
		return ""
	case len(parts) == 1:
		parts[0], _, _ = strings.Cut(parts[0], " ")
	}
	return fmt.Sprintf("%s not walked (what they reach could be %s)", model.Plural(total, "derived change was", "derived changes were"), strings.Join(parts, ", "))
}

// dedupeDiagnostics drops repeated diagnostics (a file that does not
// parse is met by the classifier and again by an analyzer).
func dedupeDiagnostics(ds []model.Diagnostic) []model.Diagnostic {
	seen := map[string]bool{}
	var out []model.Diagnostic
	for _, d := range ds {
		if !seen[d.String()] {
			seen[d.String()] = true
			out = append(out, d)
		}
	}
	return out
}
