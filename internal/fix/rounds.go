package fix

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// pruneImports removes, mechanically, the imports the oracle reports
// unused in files the engine edited (an edit took away their last use;
// replies may add imports but never remove them). It returns the
// diagnostics it did not settle and whether it changed a file.
func (e *engine) pruneImports(ds []oracle.Diagnostic) ([]oracle.Diagnostic, bool) {
	unused := map[string][]string{}
	var rest []oracle.Diagnostic
	for _, d := range ds {
		pr, ok := e.frontendFor(d.Path).(lang.ImportPruner)
		var imp string
		if ok {
			imp, ok = pr.UnusedImport(d.Message)
		}
		if !ok || !e.sc.written[d.Path] {
			rest = append(rest, d)
			continue
		}
		unused[d.Path] = append(unused[d.Path], imp)
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
// declare it (missingObligation). Any other diagnostic inside a seed block is not
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
			blk = e.statementBlock(d.Path, d.Line)
		}
		if blk == nil {
			e.note("oracle, outside any block: " + d.String())
			continue
		}
		if e.calleeObligation(ctx, d, blk, byKey, &obs, round) {
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

// oracleRelative runs the oracle on the scratch state and, when it fails,
// on the base state too (once per file set, in a scratch worktree of its
// own): only the diagnostics the change introduced count (oracle.Relative).
// A repository whose oracle already failed at the base (lint or type
// errors) can then still have a fix proven, and those errors are never
// planned as obligations.
func (e *engine) oracleRelative(ctx context.Context, files []string) (*oracle.Result, error) {
	o := e.opts
	or, err := o.Oracle.Check(ctx, e.sc.dir, oracle.Options{Files: files, Tests: o.Tests})
	if err != nil || or.Pass {
		return or, err
	}
	key := strings.Join(files, "\x00")
	base, ok := e.baseline[key]
	if !ok {
		base, err = e.baseOracle(ctx, files)
		if err != nil {
			// without a baseline every diagnostic counts, as before
			e.note("the oracle could not judge the base state (" + err.Error() + "): every problem it reports counts")
			base = nil
		}
		if e.baseline == nil {
			e.baseline = map[string]*oracle.Result{}
		}
		e.baseline[key] = base
	}
	if base == nil {
		return or, nil
	}
	rel := oracle.Relative(base, or)
	if n := len(rel.Preexisting); n > 0 {
		e.logf("the oracle reports %s the base state already had: not counted", model.Plural(n, "problem", "problems"))
	}
	return rel, nil
}

// baseOracle runs the oracle on the base state, judging the files of the
// change that exist there.
func (e *engine) baseOracle(ctx context.Context, files []string) (*oracle.Result, error) {
	sc, err := newScratch(ctx, e.repo, e.res.Base)
	if err != nil {
		return nil, err
	}
	defer sc.close()
	var there []string
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(sc.dir, filepath.FromSlash(f))); err == nil {
			there = append(there, f)
		}
	}
	if len(there) == 0 {
		return &oracle.Result{Pass: true}, nil
	}
	return e.opts.Oracle.Check(ctx, sc.dir, oracle.Options{Files: there, Tests: e.opts.Tests})
}
