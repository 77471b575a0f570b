package fix

import (
	"context"
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
)

// Batched reviews. Most blocks the planner sends for review (warnings
// and notes: a caller of a function that may change, a sibling
// override) need no change, and a model answers "no change" as well for
// several blocks of a file at once as for one. So a file's review blocks
// of one planning step cost one request: the prompt names each block
// (a `ripple-block:` line per block, then a section per block with its
// reasons and text, after the context they share) and the reply answers
// per block, in the form batchRule states. Blocks that must change
// (errors) keep a request each: their reasons and context are their own.

// batchRule is the reply form of a batched review, as the prompt states
// it: per block a heading line, then `unchanged` or the new text.
const batchRule = "Reply with one section per block: a line `### ` followed by the block's name exactly as given, then either the word `unchanged` (the block is right as it is) or the block's complete new text in one fenced code block (or `ripple: delete`, or `ripple: rename` and the new text, as for one block)."

// batchAnswer is a batched reply's answer for one block: unchanged, new
// code (with the imports it opens with), or a note saying why it cannot
// be used.
type batchAnswer struct {
	unchanged bool
	code      string
	imports   []string
	directive string // replyDirective's
	note      string
}

// isReview reports whether an obligation is a review only: a block the
// model may keep as it is (no reason it must change), of a declaration or
// a top-level statement.
func isReview(ob *Obligation) bool {
	return ob.Status == Pending && !ob.Must() && ob.Declare == "" && ob.Block != FileScope
}

// batchReviews asks the model, in one request per file, about the review
// obligations of files that have more than one, and leaves each its
// answer (Obligation.batched) for editBlock to merge bottom-up with the
// file's other edits.
func (e *engine) batchReviews(ctx context.Context, obs []*Obligation) {
	byFile := map[string][]*Obligation{}
	var files []string
	for _, ob := range obs {
		if !isReview(ob) {
			continue
		}
		if byFile[ob.Path] == nil {
			files = append(files, ob.Path)
		}
		byFile[ob.Path] = append(byFile[ob.Path], ob)
	}
	for _, f := range files {
		group := byFile[f]
		if len(group) < 2 || e.noModel {
			continue
		}
		e.askBatch(ctx, f, group)
	}
}

// askBatch sends one file's review blocks in one prompt and records each
// block's answer; tokens are shared out evenly among the blocks.
func (e *engine) askBatch(ctx context.Context, path string, group []*Obligation) {
	src, err := e.sc.read(path)
	if err != nil {
		return // editBlock reports it per block
	}
	texts := make([]string, len(group))
	for i, ob := range group {
		if texts[i], err = blockLines(src, ob.Span.StartLine, ob.Span.EndLine); err != nil {
			return
		}
	}
	reply, err := e.opts.Model.Complete(ctx, []Message{
		{Role: "system", Content: systemPrompt},
		{Role: "user", Content: e.promptForBatch(ctx, path, group, texts)},
	})
	n := len(group)
	for i, ob := range group {
		ob.In += reply.In / n
		ob.Out += reply.Out / n
		if i == 0 {
			ob.In += reply.In % n
			ob.Out += reply.Out % n
		}
	}
	if err != nil {
		for _, ob := range group {
			e.attempts[ob.key()]++
			ob.Method = "model"
			e.modelFailed(ctx, ob, err)
		}
		return
	}
	sections := batchSections(reply.Text, group)
	ed, _ := e.frontendFor(path).(lang.BlockEditor)
	for _, ob := range group {
		sec, ok := sections[ob.Block]
		a := &batchAnswer{}
		switch {
		case !ok:
			a.note = "rejected: the batched reply has no section for this block"
			e.res.Rejected++
		case strings.EqualFold(strings.Trim(strings.TrimSpace(sec), "`*."), "unchanged"):
			a.unchanged = true
		default:
			var text string
			a.directive, text = replyDirective(sec)
			if a.directive == directiveDelete {
				break
			}
			code, ok := codeBlock(text)
			if ok && ed != nil {
				var err error
				if a.imports, code, err = ed.SplitImports(code); err != nil {
					ok = false
				}
			}
			if !ok || strings.TrimSpace(code) == "" {
				a.note = "rejected: the batched reply's section has no code block"
				e.res.Rejected++
				break
			}
			a.code = code
		}
		ob.batched = a
	}
}

// batchSections splits a batched reply into its sections by block name:
// a line "### NAME" (the name as the prompt gave it, possibly in
// backticks or quotes) opens the section of NAME.
func batchSections(reply string, group []*Obligation) map[string]string {
	names := map[string]bool{}
	for _, ob := range group {
		names[ob.Block] = true
	}
	out := map[string]string{}
	cur := ""
	var b strings.Builder
	flush := func() {
		if cur != "" {
			if _, dup := out[cur]; !dup {
				out[cur] = b.String()
			}
		}
		b.Reset()
	}
	inFence := ""
	for _, l := range strings.SplitAfter(reply, "\n") {
		t := strings.TrimSpace(l)
		if inFence == "" {
			if h, ok := strings.CutPrefix(t, "### "); ok {
				if n := strings.Trim(strings.TrimSpace(h), "`\"'"); names[n] {
					flush()
					cur = n
					continue
				}
			}
		}
		// a heading inside a code block is code
		if strings.HasPrefix(t, "```") {
			fence := t[:len(t)-len(strings.TrimLeft(t, "`"))]
			switch {
			case inFence == "":
				inFence = fence
			case strings.Trim(t, "`") == "" && len(fence) >= len(inFence):
				inFence = ""
			}
		}
		b.WriteString(l)
	}
	flush()
	return out
}

// promptForBatch builds the user message of a batched review: a
// machine-readable line per block, the changes and declarations the
// blocks share, then a section per block (its reasons, its text).
func (e *engine) promptForBatch(ctx context.Context, path string, group []*Obligation, texts []string) string {
	var b strings.Builder
	for _, ob := range group {
		fmt.Fprintf(&b, "ripple-block: path=%s block=%q\n", path, ob.Block)
	}
	fmt.Fprintf(&b, "\nReview %d blocks of %s. Each may have to change to stay consistent with changes already made elsewhere; keep a block as it is when it is already right.\n", len(group), path)
	var temporal, spatial []string
	seenT, seenS := map[string]bool{}, map[string]bool{}
	for i, ob := range group {
		for _, t := range e.temporalParts(ctx, ob) {
			if !seenT[t] {
				seenT[t] = true
				temporal = append(temporal, t)
			}
		}
		for _, l := range strings.SplitAfter(e.spatial(ob, texts[i]), "\n") {
			if l != "" && !seenS[l] {
				seenS[l] = true
				spatial = append(spatial, l)
			}
		}
	}
	if len(temporal) > 0 {
		b.WriteString("\nThe changes already made, which these blocks must follow (do not undo them):\n```diff\n" + strings.Join(temporal, "") + "```\n")
	}
	if len(spatial) > 0 {
		b.WriteString("\nDeclarations the blocks depend on, as they are now:\n```\n" + strings.Join(spatial, "") + "```\n")
	}
	for i, ob := range group {
		fmt.Fprintf(&b, "\n### %s\n\nWhy it may have to change:\n", ob.Block)
		for _, r := range ob.Reasons {
			fmt.Fprintf(&b, "- line %d: %s", r.Line, r.Message)
			if r.Change != nil {
				fmt.Fprintf(&b, " (%s of %s)", r.Relation, r.Change.Summary())
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "\nThe block (%s, lines %d-%d):\n```\n%s```\n", path, ob.Span.StartLine, ob.Span.EndLine, texts[i])
	}
	b.WriteString("\n" + batchRule + "\n")
	return b.String()
}
