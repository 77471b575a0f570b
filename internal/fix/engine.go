package fix

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/check"
	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/languages"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
	"github.com/ripple-dev/ripple/internal/textedit"
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
	// Review lets the model look at may-be-impacted blocks too.
	Review bool
	// Log receives one line per step; nil discards them.
	Log io.Writer
	// Frontends makes the front-ends of one check (fresh each round); nil
	// = languages.Frontends.
	Frontends func() []lang.Frontend
}

// Result is a run's outcome.
type Result struct {
	Base, Head  string
	Seed        *model.Result // the check of the developer's change
	Obligations []*Obligation
	Patch       string // head -> fixed state, unified diff
	Oracle      *oracle.Result
	Proven      bool // the oracle passed on the fixed state
	Rounds      int
	Mechanical  int // blocks edited without a model
	ByModel     int // blocks edited by the model
	Rejected    int // model replies refused (unparsable, outside the block, ...)
	In, Out     int // model tokens
	Notes       []string
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
	fes      []lang.Frontend
	res      *Result
	all      map[string]*Obligation // by block, the latest obligation
	attempts map[string]int
	nextID   int
	noModel  bool // the budget is spent or the endpoint failed for good
	// baseNames caches the names each package directory declared in the
	// base state
	baseNames map[string]map[string]bool
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
		or, err := o.Oracle.Check(ctx, e.sc.dir, oracle.Options{Files: e.affectedFiles(ctx), Tests: o.Tests})
		if err != nil {
			return nil, fmt.Errorf("oracle: %w", err)
		}
		e.res.Oracle = or
		if or.Pass {
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
		obs, _ := obligationsFrom(res, e.seeds, e.opts.Review && !e.noModel)
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

// applyMechanical makes the obligations whose every must-reason has a
// mechanical fix, all edits of a file at once. It reports whether it
// edited anything.
func (e *engine) applyMechanical(ctx context.Context, obs []*Obligation) bool {
	byFile := map[string][]model.TextEdit{}
	var done []*Obligation
	for _, ob := range obs {
		var edits []model.TextEdit
		ok := ob.Must()
		for _, r := range ob.Reasons {
			if !r.Must {
				continue
			}
			if r.Fix == nil {
				ok = false
				break
			}
			edits = append(edits, r.Fix.Edits...)
		}
		if !ok || len(edits) == 0 {
			continue
		}
		for _, ed := range edits {
			byFile[ed.Path] = append(byFile[ed.Path], ed)
		}
		done = append(done, ob)
	}
	if len(done) == 0 {
		return false
	}
	failed := map[string]string{}
	for p, edits := range byFile {
		src, err := e.sc.read(p)
		if err == nil {
			var out []byte
			if out, err = textedit.Apply(src, edits); err == nil {
				err = e.sc.write(p, out)
			}
		}
		if err != nil {
			failed[p] = err.Error()
		}
	}
	for _, ob := range done {
		e.attempts[ob.key()]++
		ob.Method = "mechanical"
		var what []string
		for _, r := range ob.Reasons {
			if r.Fix != nil {
				what = append(what, r.Fix.Description)
			}
		}
		ob.Diff = fmt.Sprintf("# %s in %s: %s\n", ob.Block, ob.Path, strings.Join(what, "; "))
		ob.Status = Done
		for _, r := range ob.Reasons {
			if r.Fix == nil {
				continue
			}
			for _, ed := range r.Fix.Edits {
				if msg, bad := failed[ed.Path]; bad {
					ob.Status, ob.Note = Failed, "mechanical edit did not apply: "+msg
				}
			}
		}
		e.logf("  %s", ob.Describe())
	}
	return true
}

// applyModel asks the model for each obligation's block, bottom-up within
// a file so that earlier blocks keep their lines. It reports whether any
// block was edited.
func (e *engine) applyModel(ctx context.Context, obs []*Obligation) bool {
	if e.noModel {
		for _, ob := range obs {
			if ob.Status == Pending {
				ob.Status, ob.Note = Failed, "needs a model (set RIPPLE_LLM_BASE_URL and RIPPLE_LLM_MODEL), no mechanical fix"
			}
		}
		return false
	}
	sorted := append([]*Obligation(nil), obs...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if (sorted[i].Declare == "") != (sorted[j].Declare == "") {
			return sorted[i].Declare == "" // new declarations go last, at the ends of files
		}
		if sorted[i].Path != sorted[j].Path {
			return sorted[i].Path < sorted[j].Path
		}
		return sorted[i].Span.StartLine > sorted[j].Span.StartLine
	})
	edited := false
	// Blocks of a file are edited bottom-up so that an edit leaves the
	// spans of the blocks above it in place; imports an edit adds at the
	// top shift every block below them, those above the edit included.
	shift := map[string]int{}
	for _, ob := range sorted {
		if ob.Status != Pending {
			continue
		}
		if e.noModel {
			ob.Status, ob.Note = Failed, "the model is out of budget or unreachable"
			continue
		}
		if ob.Declare != "" {
			if e.declare(ctx, ob) {
				edited = true
			}
			e.logf("  %s", ob.Describe())
			continue
		}
		ob.Span.StartLine += shift[ob.Path]
		ob.Span.EndLine += shift[ob.Path]
		ok, s := e.editBlock(ctx, ob)
		if ok {
			edited = true
			shift[ob.Path] += s
		}
		e.logf("  %s", ob.Describe())
	}
	return edited
}

// editBlock asks the model for one block and merges its answer. It
// reports whether it edited the file, and by how many lines the imports it
// added moved what follows them.
func (e *engine) editBlock(ctx context.Context, ob *Obligation) (bool, int) {
	e.attempts[ob.key()]++
	ob.Method = "model"
	src, err := e.sc.read(ob.Path)
	if err != nil {
		ob.Status, ob.Note = Failed, err.Error()
		return false, 0
	}
	block, err := blockLines(src, ob.Span.StartLine, ob.Span.EndLine)
	if err != nil {
		ob.Status, ob.Note = Failed, err.Error()
		return false, 0
	}
	code, imports, ok := e.ask(ctx, ob, e.promptFor(ctx, ob, block))
	if !ok {
		return false, 0
	}
	ed, _ := e.frontendFor(ob.Path).(lang.BlockEditor)
	// a reply that opens with a comment brings the block's doc comment:
	// it replaces the one above the block instead of doubling it
	from, code := mergeDoc(src, ob.Span.StartLine, code)
	if from < ob.Span.StartLine {
		block, _ = blockLines(src, from, ob.Span.EndLine)
	}
	if strings.TrimSpace(code) == strings.TrimSpace(block) {
		if ob.Must() {
			ob.Status, ob.Note = Failed, "the model returned the block unchanged"
		} else {
			ob.Status = Unchanged
		}
		return false, 0
	}
	out, err := splice(src, from, ob.Span.EndLine, code)
	shift := 0
	if err == nil && ed != nil {
		out, shift, err = ed.AddImports(out, imports)
	}
	if err == nil {
		from += shift
		err = e.checkBlock(ob, out, from, from+strings.Count(strings.TrimSuffix(code, "\n"), "\n"))
	}
	if err == nil {
		err = e.sc.write(ob.Path, out)
	}
	if err != nil {
		ob.Status, ob.Note = Failed, "rejected: "+err.Error()
		e.res.Rejected++
		return false, 0
	}
	ob.Status = Done
	ob.Diff = lineDiff(ob.Path, block, code)
	return true, shift
}

// isComment reports whether a line is a comment in Go or Python.
func isComment(line string) bool {
	l := strings.TrimSpace(line)
	return strings.HasPrefix(l, "//") || strings.HasPrefix(l, "#")
}

// directiveRE are comment lines that are instructions to tools, not
// documentation (//go:noinline, //nolint, // +build, # type: ignore).
var directiveRE = regexp.MustCompile(`^(//(go:|nolint|export |line |\s*\+build)|#\s*(type:|noqa|pragma))`)

// mergeDoc reconciles the comment lines a reply opens with and those
// directly above the block (a block's span starts below its doc
// comment, so a reply that repeats the comment would double it). A reply
// that only repeats lines already there loses them; one that rewrites
// the comment replaces the lines above from the returned line on,
// keeping their directives. A reply without leading comments changes
// nothing.
func mergeDoc(src []byte, start int, code string) (int, string) {
	replyLines := strings.SplitAfter(strings.TrimLeft(code, "\n"), "\n")
	n := 0
	for n < len(replyLines) && isComment(replyLines[n]) {
		n++
	}
	if n == 0 {
		return start, code
	}
	lines := strings.Split(string(src), "\n")
	from := start
	for from > 1 && from-2 < len(lines) && isComment(lines[from-2]) {
		from--
	}
	above := map[string]bool{}
	var directives []string
	for _, l := range lines[from-1 : start-1] {
		above[strings.TrimSpace(l)] = true
		if directiveRE.MatchString(strings.TrimSpace(l)) {
			directives = append(directives, l+"\n")
		}
	}
	repeated := true
	inReply := map[string]bool{}
	for _, l := range replyLines[:n] {
		t := strings.TrimSpace(l)
		inReply[t] = true
		repeated = repeated && above[t]
	}
	if repeated {
		return start, strings.Join(replyLines[n:], "")
	}
	var kept []string
	for _, d := range directives {
		if !inReply[strings.TrimSpace(d)] {
			kept = append(kept, d)
		}
	}
	return from, strings.Join(replyLines[:n], "") + strings.Join(kept, "") + strings.Join(replyLines[n:], "")
}

// ask sends an obligation's prompt to the model and returns the reply's
// code and the imports it starts with. On failure it marks the
// obligation (a reply without code is counted as rejected) and stops
// further model calls when the budget is spent or the endpoint is gone.
func (e *engine) ask(ctx context.Context, ob *Obligation, prompt string) (code string, imports []string, ok bool) {
	reply, err := e.opts.Model.Complete(ctx, []Message{
		{Role: "system", Content: systemPrompt},
		{Role: "user", Content: prompt},
	})
	ob.In, ob.Out = ob.In+reply.In, ob.Out+reply.Out
	if err != nil {
		ob.Status, ob.Note = Failed, err.Error()
		if errors.Is(err, ErrBudget) || ctx.Err() != nil || strings.Contains(err.Error(), "no answer within") {
			e.noModel = true
			e.note("model: " + err.Error())
		}
		return "", nil, false
	}
	code, ok = codeBlock(reply.Text)
	if ed, isEd := e.frontendFor(ob.Path).(lang.BlockEditor); ok && isEd {
		if imports, code, err = ed.SplitImports(code); err != nil {
			ok = false
		}
	}
	if !ok || strings.TrimSpace(code) == "" {
		ob.Status, ob.Note = Failed, "rejected: the reply has no code block"
		e.res.Rejected++
		return "", nil, false
	}
	return code, imports, true
}

// checkBlock asks the file's front-end to judge a block replacement.
func (e *engine) checkBlock(ob *Obligation, src []byte, from, to int) error {
	fe := e.frontendFor(ob.Path)
	ed, ok := fe.(lang.BlockEditor)
	if !ok {
		return fmt.Errorf("no front-end can check edits of %s", ob.Path)
	}
	return ed.CheckBlock(ob.Path, src, ob.Block, from, to)
}

func (e *engine) frontendFor(p string) lang.Frontend {
	for _, fe := range e.fes {
		if fe.Match(p) {
			return fe
		}
	}
	return nil
}

// unusedImportRE is the Go compiler's error for an import nothing uses.
var unusedImportRE = regexp.MustCompile(`^"([^"]+)" imported (?:as \w+ )?and not used$`)

// pruneImports removes, mechanically, the imports the oracle reports
// unused in files the engine edited (an edit took away their last use;
// replies may add imports but never remove them). It returns the
// diagnostics it did not settle and whether it changed a file.
func (e *engine) pruneImports(ds []oracle.Diagnostic) ([]oracle.Diagnostic, bool) {
	unused := map[string][]string{}
	var rest []oracle.Diagnostic
	for _, d := range ds {
		m := unusedImportRE.FindStringSubmatch(d.Message)
		if m == nil || !e.sc.written[d.Path] {
			rest = append(rest, d)
			continue
		}
		unused[d.Path] = append(unused[d.Path], m[1])
	}
	changed := false
	for path, imps := range unused {
		pr, ok := e.frontendFor(path).(lang.ImportPruner)
		src, err := e.sc.read(path)
		if !ok || err != nil {
			continue
		}
		out, err := pr.PruneImports(src, imps)
		if err != nil || string(out) == string(src) {
			continue
		}
		if err := e.sc.write(path, out); err != nil {
			continue
		}
		changed = true
		e.note(fmt.Sprintf("removed the imports an edit left unused in %s: %s", path, strings.Join(imps, ", ")))
	}
	if !changed {
		return ds, false
	}
	return rest, true
}

// oracleObligations turns oracle diagnostics into obligations on their
// enclosing blocks, or, for a name nobody declares, into an obligation to
// declare it (declare.go). Any other diagnostic inside a seed block is not
// planned: the seed is never reverted (the analyzer attributes such
// errors to the dependents that must follow).
func (e *engine) oracleObligations(ctx context.Context, ds []oracle.Diagnostic, round int) []*Obligation {
	byKey := map[string]*Obligation{}
	var obs []*Obligation
	for i := range ds {
		d := ds[i]
		if d.Path == "" || d.Line == 0 {
			e.note("oracle: " + d.String())
			continue
		}
		if e.missingObligation(ctx, d, byKey, &obs, round) {
			continue
		}
		blk := e.enclosing(d.Path, d.Line)
		if blk == nil {
			e.note("oracle, outside any block: " + d.String())
			continue
		}
		e.receiverFieldObligation(d, blk, byKey, &obs, round)
		k := blockKey(d.Path, blk.Display)
		if e.seeds[k] {
			e.note("oracle, inside the developer's change (not reverted): " + d.String())
			continue
		}
		if e.attempts[k] >= maxAttempts+1 {
			continue
		}
		ob := byKey[k]
		if ob == nil {
			ob = &Obligation{Path: d.Path, Block: blk.Display, Span: blk.Span, Status: Pending}
			byKey[k] = ob
			obs = append(obs, ob)
			e.adopt(ob, round)
		}
		ob.Reasons = append(ob.Reasons, Reason{Message: d.Tool + ": " + d.Message, Line: d.Line, Oracle: &d, Must: true})
	}
	return obs
}

// enclosing finds the top-level declaration of the scratch state holding
// a line.
func (e *engine) enclosing(p string, line int) *model.Block {
	fe := e.frontendFor(p)
	if fe == nil {
		return nil
	}
	src, err := e.sc.read(p)
	if err != nil {
		return nil
	}
	ds, _ := fe.Decls(p, src)
	var best *model.Block
	for _, d := range ds {
		switch d.Kind {
		case model.KindField, model.KindIfaceMethod, model.KindImport:
			continue // parts of a larger block
		}
		if !d.Span.Contains(line) {
			continue
		}
		if best == nil || d.Span.EndLine-d.Span.StartLine < best.Span.EndLine-best.Span.StartLine {
			b := d.Block
			best = &b
		}
	}
	return best
}

// affectedFiles are the files the seed and the plan changed, that a
// front-end handles: what the oracles judge.
func (e *engine) affectedFiles(ctx context.Context) []string {
	out, err := e.sc.repo.Git(ctx, "diff", "--name-only", e.res.Base)
	if err != nil {
		return nil
	}
	files := []string{}
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f != "" && e.frontendFor(f) != nil {
			files = append(files, f)
		}
	}
	return files
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
