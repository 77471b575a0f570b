package fix

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/textedit"
)

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
	}
	// no line per block: a mechanical edit takes no time to wait on, and
	// the plan the caller prints lists each block once, as it ended
	return true
}

// modelDown is the note of the blocks left to a model that cannot be
// reached.
const modelDown = "needs the model, whose endpoint is unreachable"

// withoutModel is the note of a block left to the model when no model
// can be asked.
func (e *engine) withoutModel() string {
	switch {
	case e.res.ModelUnreachable != "":
		return modelDown
	case e.opts.Model == nil:
		return "needs a model (set RIPPLE_LLM_BASE_URL and RIPPLE_LLM_MODEL), no mechanical fix"
	}
	return "the model is out of budget or unreachable"
}

// applyModel asks the model for each obligation's block, bottom-up within
// a file so that earlier blocks keep their lines. It reports whether any
// block was edited.
func (e *engine) applyModel(ctx context.Context, obs []*Obligation) bool {
	if e.noModel {
		for _, ob := range obs {
			if ob.Status == Pending {
				ob.Status, ob.Note = Failed, e.withoutModel()
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
	// a file's review blocks are asked about in one request, before its
	// edits (they show the blocks as they are now)
	e.batchReviews(ctx, sorted)
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
			ob.Status, ob.Note = Failed, e.withoutModel()
			continue
		}
		if ob.Block == FileScope {
			// not a declaration the model could be asked to rewrite
			ob.Status, ob.Note = Skipped, "code at file scope is edited mechanically only"
			continue
		}
		if ob.Declare != "" {
			if e.declare(ctx, ob) {
				edited = true
			}
			e.logf("  %s", ob.progress())
			continue
		}
		ob.Span.StartLine += shift[ob.Path]
		ob.Span.EndLine += shift[ob.Path]
		ok, s := e.editBlock(ctx, ob)
		if ok {
			edited = true
			shift[ob.Path] += s
		}
		e.logf("  %s", ob.progress())
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
	var code, directive string
	var imports []string
	if a := ob.batched; a != nil {
		// answered with the other review blocks of its file
		ob.batched = nil
		switch {
		case a.note != "":
			ob.Status, ob.Note = Failed, a.note
			return false, 0
		case a.unchanged:
			ob.Status = Unchanged
			return false, 0
		}
		code, imports, directive = a.code, a.imports, a.directive
	} else {
		var ok bool
		if code, imports, directive, ok = e.askBlock(ctx, ob, e.promptFor(ctx, ob, block)); !ok {
			return false, 0
		}
	}
	if directive == directiveDelete {
		return e.deleteBlock(ob, src), 0
	}
	ed, _ := e.frontendFor(ob.Path).(lang.BlockEditor)
	// a reply that opens with a comment brings the block's doc comment:
	// it replaces the one above the block instead of doubling it
	from := ob.Span.StartLine
	if ed != nil {
		from, code = mergeDoc(ed, src, ob.Span.StartLine, code)
	}
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
	renamed := ""
	if err == nil {
		from += shift
		to := from + strings.Count(strings.TrimSuffix(code, "\n"), "\n")
		if directive == directiveRename {
			renamed, err = e.checkRename(ob, src, out, from, to)
		} else {
			err = e.checkBlock(ob, out, from, to)
		}
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
	if renamed != "" {
		ob.Note = "renamed to " + renamed
	}
	ob.Diff = lineDiff(ob.Path, block, code)
	return true, shift
}

// mergeDoc reconciles the comment lines a reply opens with and those
// directly above the block (a block's span starts below its doc
// comment, so a reply that repeats the comment would double it). A reply
// that only repeats lines already there loses them; one that rewrites
// the comment replaces the lines above from the returned line on,
// keeping their directives. A reply without leading comments changes
// nothing.
func mergeDoc(ed lang.BlockEditor, src []byte, start int, code string) (int, string) {
	replyLines := strings.SplitAfter(strings.TrimLeft(code, "\n"), "\n")
	n := 0
	for n < len(replyLines) && ed.IsComment(replyLines[n]) {
		n++
	}
	if n == 0 {
		return start, code
	}
	lines := strings.Split(string(src), "\n")
	from := start
	for from > 1 && from-2 < len(lines) && ed.IsComment(lines[from-2]) {
		from--
	}
	above := map[string]bool{}
	var directives []string
	for _, l := range lines[from-1 : start-1] {
		above[strings.TrimSpace(l)] = true
		if ed.IsDirective(l) {
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
	code, imports, directive, ok := e.askBlock(ctx, ob, prompt)
	if ok && directive != "" {
		ob.Status, ob.Note = Failed, "rejected: a reply of `ripple: "+directive+"` where new declarations were asked for"
		e.res.Rejected++
		return "", nil, false
	}
	return code, imports, ok
}

// askBlock is ask for a block's edit: the reply may also be one of the
// protocol's directives (replyDirective), delete or rename.
func (e *engine) askBlock(ctx context.Context, ob *Obligation, prompt string) (code string, imports []string, directive string, ok bool) {
	reply, err := e.opts.Model.Complete(ctx, []Message{
		{Role: "system", Content: systemPrompt},
		{Role: "user", Content: prompt},
	})
	ob.In, ob.Out = ob.In+reply.In, ob.Out+reply.Out
	if err != nil {
		e.modelFailed(ctx, ob, err)
		return "", nil, "", false
	}
	directive, text := replyDirective(reply.Text)
	if directive == directiveDelete {
		return "", nil, directive, true
	}
	code, ok = codeBlock(text)
	if ed, isEd := e.frontendFor(ob.Path).(lang.BlockEditor); ok && isEd {
		if imports, code, err = ed.SplitImports(code); err != nil {
			ok = false
		}
	}
	// a name to declare may be one an import provides: the reply is then
	// that import alone
	if !ok || strings.TrimSpace(code) == "" && (ob.Declare == "" || len(imports) == 0) {
		ob.Status, ob.Note = Failed, "rejected: the reply has no code block"
		e.res.Rejected++
		return "", nil, "", false
	}
	return code, imports, directive, true
}

// modelFailed marks an obligation whose request failed, and stops
// further model calls when the budget is spent or the endpoint is gone.
func (e *engine) modelFailed(ctx context.Context, ob *Obligation, err error) {
	var down *UnreachableError
	if errors.As(err, &down) {
		// no other request can get through: mechanical fixes only from
		// now on, said once (Result.ModelUnreachable), not per block
		ob.Status, ob.Note, ob.Method = Failed, modelDown, ""
		e.noModel = true
		e.res.ModelUnreachable = down.Error()
		return
	}
	ob.Status, ob.Note = Failed, err.Error()
	if errors.Is(err, ErrBudget) || ctx.Err() != nil || strings.Contains(err.Error(), "no answer within") {
		if !e.noModel {
			e.note("model: " + err.Error())
		}
		e.noModel = true
	}
}

// checkBlock asks the file's front-end to judge a block replacement.
func (e *engine) checkBlock(ob *Obligation, src []byte, from, to int) error {
	fe := e.frontendFor(ob.Path)
	if ob.Block != FileScope && AtFileScope(ob.Block) {
		return e.checkStatement(ob, src, from, to)
	}
	ed, ok := fe.(lang.BlockEditor)
	if !ok {
		return fmt.Errorf("no front-end can check edits of %s", ob.Path)
	}
	return ed.CheckBlock(ob.Path, src, ob.Block, from, to)
}
