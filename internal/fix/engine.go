package fix

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/check"
	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/languages"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// Options configures one run of the engine.
type Options struct {
	Base, Head string // revisions; "" = the check's defaults
	Config     *config.Config
	// Model edits what no mechanical fix covers; nil fixes mechanically
	// only.
	Model Model
	// Oracle proves the result; nil leaves it unproven.
	Oracle oracle.Oracle
	// Tests makes the oracle run the affected packages' tests.
	Tests bool
	// Rounds bounds the oracle rounds (default DefaultRounds); a run also
	// ends when the oracle's errors leave nothing to plan (each block is
	// attempted at most three times).
	Rounds int
	// Review plans the may-impact blocks too (warnings and notes: a
	// sibling override, a caller of a wrapper that must follow), for the
	// model to edit or keep; without it only inconsistent blocks are
	// planned. It needs a model.
	Review bool
	// Log receives one line per step; nil discards them.
	Log io.Writer
	// Frontends makes the front-ends of one check (fresh each round); nil
	// = languages.Frontends.
	Frontends func() lang.Set
}

// Result is a run's outcome.
// Its JSON keys (hook fix -json) are lower snake_case, as are those of
// the types it holds.
type Result struct {
	Base        string         `json:"base"`
	Head        string         `json:"head"`
	Seed        *model.Result  `json:"seed"` // the check of the developer's change
	Obligations []*Obligation  `json:"obligations"`
	Patch       string         `json:"patch"` // head -> fixed state, unified diff
	Oracle      *oracle.Result `json:"oracle,omitempty"`
	Proven      bool           `json:"proven"` // the oracle passed on the fixed state
	Rounds      int            `json:"rounds"`
	Mechanical  int            `json:"mechanical"` // blocks edited without a model
	ByModel     int            `json:"by_model"`   // blocks edited by the model
	Rejected    int            `json:"rejected"`   // model replies refused (unparsable, outside the block, ...)
	In          int            `json:"tokens_in"`  // model tokens
	Out         int            `json:"tokens_out"`
	Notes       []string       `json:"notes,omitempty"`
	// Migrated are the files a dependency's own migration directives
	// changed (lang.Migrator), before the rounds.
	Migrated []string `json:"migrated,omitempty"`
	// ModelUnreachable says why the model could not be reached
	// ("model endpoint URL unreachable: connection refused"), when a
	// request failed at the connection level: the run asked it nothing
	// more and fixed mechanically only.
	ModelUnreachable string `json:"model_unreachable,omitempty"`
	// MissingDefaults are the parameters the change added that calls the
	// run did not fix mechanically lack a value for: given as
	// -param-defaults NAME=EXPR (param_defaults), those calls are fixed
	// mechanically.
	MissingDefaults []string `json:"missing_param_defaults,omitempty"`
}

// DefaultRounds is the default bound on oracle rounds. Each round can
// only fix what the oracle reported, and the compiler reports a package's
// first errors only: a change whose new helpers use further new helpers
// is declared one layer per round (cli 7aef6ec391 needs five).
const DefaultRounds = 6

// maxPlanIterations bounds re-planning within one round (each iteration
// classifies the edits of the previous one).
const maxPlanIterations = 8

// maxAttempts bounds the edits of one block.
const maxAttempts = 2

type engine struct {
	opts     Options
	repo     *gitio.Repo
	sc       *scratch
	baseTree gitio.Tree
	headTree gitio.Tree
	seeds    map[string]bool
	fes      lang.Set
	res      *Result
	all      map[string]*Obligation // by block, the latest obligation
	attempts map[string]int
	nextID   int
	noModel  bool // the budget is spent or the endpoint failed for good
	// baseNames caches the names each package directory declared in the
	// base state
	baseNames map[string]map[string]bool
	// baseline is the oracle's verdict on the base state, by the file
	// set it judged (oracleRelative)
	baseline map[string]*oracle.Result
}

// Run plans and makes the edits the change between Base and Head leaves
// to be made, in a scratch worktree. The developer's tree is untouched;
// Apply writes the resulting patch on request.
func Run(ctx context.Context, repo *gitio.Repo, o Options) (*Result, error) {
	if o.Config == nil {
		o.Config = config.Default()
	}
	if o.Rounds <= 0 {
		o.Rounds = DefaultRounds
	}
	if o.Frontends == nil {
		o.Frontends = languages.Frontends
	}
	seed, err := check.Run(ctx, repo, check.Options{Base: o.Base, Head: o.Head, Config: o.Config, Frontends: o.Frontends})
	if err != nil {
		return nil, err
	}
	e := &engine{opts: o, repo: repo, seeds: seedBlocks(seed), fes: o.Frontends(),
		all: map[string]*Obligation{}, attempts: map[string]int{},
		res: &Result{Base: seed.Base, Head: seed.Head, Seed: seed}}
	e.baseTree = &gitio.RevTree{R: repo, SHA: seed.Base}
	e.headTree = &gitio.RevTree{R: repo, SHA: seed.Head}
	e.noModel = o.Model == nil
	if e.sc, err = newScratch(ctx, repo, seed.Head); err != nil {
		return nil, err
	}
	defer e.sc.close()
	e.migrate(ctx)

	for round := 1; round <= o.Rounds; round++ {
		e.res.Rounds = round
		if err := e.plan(ctx, round); err != nil {
			return nil, err
		}
		if o.Oracle == nil {
			e.note("no oracle ran: the edits are not proven")
			break
		}
		e.logf("round %d: running the oracle", round)
		or, err := e.oracleRelative(ctx, e.affectedFiles(ctx))
		if err != nil {
			return nil, fmt.Errorf("oracle: %w", err)
		}
		e.res.Oracle = or
		if or.Pass {
			if or.Unanalysed != "" {
				// a pass of a checker that did not read the files proves nothing
				e.note("the oracle did not analyse every file it was given (" + or.Unanalysed + "): the edits are not proven")
				break
			}
			if files := e.unjudged(); len(files) > 0 {
				// passing says nothing of files no oracle reads
				e.note(fmt.Sprintf("no oracle judges %s (its language has none here): the edits are not proven", strings.Join(files, ", ")))
				break
			}
			e.res.Proven = true
			e.logf("round %d: the oracle passes", round)
			break
		}
		e.logf("round %d: the oracle reports %d problems", round, len(or.Diagnostics))
		if round == o.Rounds {
			break
		}
		ds, pruned := e.pruneImports(or.Diagnostics)
		if e.noModel {
			if pruned {
				continue
			}
			break
		}
		obs := e.oracleObligations(ctx, ds, round+1)
		if len(obs) == 0 && !pruned {
			break
		}
		e.applyModel(ctx, obs)
	}
	if e.res.Patch, err = e.sc.patch(ctx); err != nil {
		return nil, err
	}
	e.res.MissingDefaults = missingDefaults(e.res.Obligations, o.Config.ParamDefaults)
	for _, ob := range e.res.Obligations {
		switch {
		case ob.Status == Done && ob.Method == "mechanical":
			e.res.Mechanical++
		case ob.Status == Done:
			e.res.ByModel++
		}
		e.res.In += ob.In
		e.res.Out += ob.Out
	}
	return e.res, nil
}

// migrate applies the migration directives of the seed's dependency
// bumps (lang.Migrator: Go's //go:fix inline) before the first round:
// the rounds then plan what they left, and the oracle proves both.
func (e *engine) migrate(ctx context.Context) {
	bumps := e.res.Seed.Bumps
	if len(bumps) == 0 {
		return
	}
	for _, fe := range e.fes {
		m, ok := fe.(lang.Migrator)
		if !ok {
			continue
		}
		mg, err := m.Migrate(ctx, e.sc.dir, bumps)
		for _, f := range mg.Files {
			e.sc.mark(f)
		}
		if len(mg.Files) > 0 {
			e.res.Migrated = append(e.res.Migrated, mg.Files...)
			e.note(fmt.Sprintf("applied %s: %s", mg.How, strings.Join(mg.Files, ", ")))
		}
		if err != nil {
			e.note("migration directives not applied everywhere: " + err.Error())
		}
	}
}

// seedBlocks are the blocks the developer's change edited: never planned.
func seedBlocks(r *model.Result) map[string]bool {
	m := map[string]bool{}
	for _, c := range r.Changes {
		if c.Derived || c.New == nil {
			continue
		}
		m[blockKey(c.New.Path, c.New.Display)] = true
		if c.New.Container != "" && (c.New.Kind == model.KindField || c.New.Kind == model.KindIfaceMethod) {
			m[blockKey(c.New.Path, "type "+c.New.Container)] = true
		}
	}
	return m
}

// plan classifies the scratch state against the base and makes the edits
// its findings call for, until nothing is left to plan.
func (e *engine) plan(ctx context.Context, round int) error {
	for iter := 0; iter < maxPlanIterations; iter++ {
		res, err := check.Run(ctx, e.sc.repo, check.Options{Base: e.res.Base, WorkTree: true, Config: e.opts.Config, Frontends: e.opts.Frontends})
		if err != nil {
			return fmt.Errorf("classifying the edits: %w", err)
		}
		obs, _ := obligationsFrom(res, e.seeds, e.opts.Review && !e.noModel, e.statementAt)
		var todo []*Obligation
		for _, ob := range obs {
			if e.attempts[ob.key()] >= maxAttempts {
				continue
			}
			if prev := e.all[ob.key()]; prev != nil && (prev.Status == Unchanged || prev.Status == Failed) && !ob.Must() {
				continue
			}
			e.adopt(ob, round)
			todo = append(todo, ob)
		}
		if len(todo) == 0 {
			return nil
		}
		e.logf("round %d: %d blocks to update", round, len(todo))
		if e.applyMechanical(ctx, todo) {
			continue // coordinates moved: classify again before the model
		}
		if !e.applyModel(ctx, todo) {
			return nil
		}
	}
	e.note(fmt.Sprintf("planning stopped after %d iterations", maxPlanIterations))
	return nil
}

// adopt numbers an obligation and links it to the edit that caused it:
// the obligation of the block its cause change is about, if one was
// edited.
func (e *engine) adopt(ob *Obligation, round int) {
	e.nextID++
	ob.ID, ob.Round = e.nextID, round
	if c := ob.Cause(); c != nil && c.Block() != nil {
		if p := e.all[blockKey(c.Block().Path, c.Block().Display)]; p != nil && p.Status == Done {
			ob.Parent, ob.ParentID = p, p.ID
		}
	}
	e.all[ob.key()] = ob
	e.res.Obligations = append(e.res.Obligations, ob)
}

func (e *engine) frontendFor(p string) lang.Frontend { return e.fes.For(p) }

// unjudged are the files the engine edited whose front-end has no
// oracle (lang.Provable): an oracle's pass does not prove them.
func (e *engine) unjudged() []string {
	var out []string
	for p := range e.sc.written {
		if fe := e.frontendFor(p); fe != nil {
			if _, ok := fe.(lang.Provable); !ok {
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

func (e *engine) note(s string) {
	e.res.Notes = append(e.res.Notes, s)
	e.logf("note: %s", s)
}

func (e *engine) logf(format string, args ...any) {
	if e.opts.Log != nil {
		fmt.Fprintf(e.opts.Log, format+"\n", args...)
	}
}

// Apply writes a patch produced by Run to the repository's work tree.
// The caller checks that the tree is clean (or that the user said
// otherwise); git refuses a patch that does not apply.
func Apply(ctx context.Context, repo *gitio.Repo, patch string) error {
	if strings.TrimSpace(patch) == "" {
		return nil
	}
	cmd := []string{"apply", "--whitespace=nowarn", "-"}
	_, err := repo.GitIn(ctx, []byte(patch), cmd...)
	return err
}
