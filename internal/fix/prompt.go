package fix

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// systemPrompt fixes the model's job and the reply's form.
const systemPrompt = `You update one block of code (a function, a method, a type, or top-level statements of a file) so that it is consistent with changes already made elsewhere in the same repository.
Rules:
- Reply with the complete new text of the block, in one fenced code block, and nothing else.
- Keep the block's name (unless told below how to rename it) and kind. Do not add or remove other declarations or files; the one exception: a type that must gain methods (an interface it must implement has new ones) may be followed by those new methods, in the same code block.
- If the new block needs packages the file does not import, start the code block with an import declaration listing them; imports are never removed.
- Change only what the change requires; keep everything else, comments included, as it is.
- Never undo the change that was made: adapt this block to it.
- When asked instead to declare a name the code uses and nothing declares, reply with the new declarations only: that name, and any new helper it needs; never one that exists already.
- When the change leaves the block with no purpose (what it tests, wraps or overrides is gone and nothing replaces it), reply with the single line ` + "`ripple: delete`" + ` instead of code: the block is removed.
- When the block must take a new name to follow the change (the test or the override of a renamed function), reply with the line ` + "`ripple: rename`" + ` and then the block's complete new text, under its new name, in one fenced code block.
- When asked to review several blocks at once, answer every block, in the form the request states.`

// promptFor builds the user message of an obligation: what must become
// true, the change and the edits that led here (temporal context), the
// signatures the block depends on (spatial context), a sketch of its
// enclosing type, and the block itself. The first line is
// machine-readable so that a replay server can answer per block.
func (e *engine) promptFor(ctx context.Context, o *Obligation, block string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "ripple-block: path=%s block=%q\n\n", o.Path, o.Block)
	fmt.Fprintf(&b, "Update %s in %s.\n\nWhy it must change:\n", o.Block, o.Path)
	for _, r := range o.Reasons {
		fmt.Fprintf(&b, "- line %d: %s", r.Line, r.Message)
		if r.Change != nil {
			fmt.Fprintf(&b, " (%s of %s)", r.Relation, r.Change.Summary())
		}
		if !r.Must {
			b.WriteString(" [may not need a change: keep the block as it is if it is already right]")
		}
		b.WriteString("\n")
	}
	if t := e.temporal(ctx, o); t != "" {
		b.WriteString("\nThe changes already made, which this block must follow (do not undo them):\n```diff\n" + t + "```\n")
	}
	if s := e.spatial(o, block); s != "" {
		b.WriteString("\nDeclarations the block depends on, as they are now:\n```\n" + s + "```\n")
	}
	fmt.Fprintf(&b, "\nThe block (%s, lines %d-%d):\n```\n%s```\n", o.Path, o.Span.StartLine, o.Span.EndLine, block)
	b.WriteString("\nReply with the complete new text of this block in one fenced code block.\n")
	return b.String()
}

// temporal is the diffs on the obligation's plan path: the seed changes
// behind its reasons (base -> head), then the edits of its ancestors.
func (e *engine) temporal(ctx context.Context, o *Obligation) string {
	return strings.Join(e.temporalParts(ctx, o), "")
}

// temporalParts are temporal's diffs, one per change or edit.
func (e *engine) temporalParts(ctx context.Context, o *Obligation) []string {
	var parts []string
	seen := map[*model.Change]bool{}
	for _, r := range o.Reasons {
		for c := r.Change; c != nil; c = c.Cause {
			if seen[c] || c.Derived {
				continue
			}
			seen[c] = true
			if d := e.changeDiff(ctx, c); d != "" {
				parts = append(parts, d)
			}
		}
	}
	var chain []*Obligation
	for p := o.Parent; p != nil && len(chain) < 4; p = p.Parent {
		chain = append([]*Obligation{p}, chain...)
	}
	for _, p := range chain {
		if p.Diff != "" {
			parts = append(parts, p.Diff)
		}
	}
	return parts
}

// changeDiff is the diff of one seed declaration from base to head.
func (e *engine) changeDiff(ctx context.Context, c *model.Change) string {
	oldText, newText := "", ""
	if c.Old != nil {
		oldText = e.textAt(ctx, e.baseTree, c.Old)
	}
	if c.New != nil {
		newText = e.textAt(ctx, e.headTree, c.New)
	}
	name := c.Block().Path
	return lineDiff(name, oldText, newText)
}

func (e *engine) textAt(ctx context.Context, t gitio.Tree, b *model.Block) string {
	src, err := t.ReadFile(ctx, b.Path)
	if err != nil {
		return ""
	}
	s, err := blockLines(src, b.Span.StartLine, b.Span.EndLine)
	if err != nil {
		return ""
	}
	return s
}

var wordRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// spatial lists, exactly, the declarations of the block's own directory
// that the block names, plus the new signatures of the changed
// declarations behind its reasons, and a sketch of its enclosing type
// (its fields and method signatures, no bodies).
func (e *engine) spatial(o *Obligation, block string) string {
	decls := e.dirDecls(o.Path)
	used := map[string]bool{}
	for _, w := range wordRE.FindAllString(block, -1) {
		used[w] = true
	}
	var container string
	for _, d := range decls {
		if d.Display == o.Block {
			container = d.Container
		}
	}
	var lines []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			lines = append(lines, s)
		}
	}
	for _, r := range o.Reasons {
		if r.Change != nil && r.Change.New != nil {
			add(r.Change.New.Signature + "    // " + r.Change.New.Path)
		}
	}
	for _, d := range decls {
		if d.Display == o.Block || d.Kind == model.KindImport {
			continue
		}
		switch {
		case container != "" && d.Container == container:
			add(d.Signature) // the enclosing type's sketch
		case d.Container == "" && used[d.Name]:
			add(d.Signature)
		}
	}
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// dirDecls parses the files of a path's directory in the scratch state
// with the front-end that handles it.
func (e *engine) dirDecls(p string) []*lang.Decl {
	fe := e.frontendFor(p)
	if fe == nil {
		return nil
	}
	var out []*lang.Decl
	for _, d := range e.scopeDecls(path.Dir(p)) {
		if fe.Match(d.Path) {
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Display < out[j].Display })
	return out
}
