package fix

import (
	"fmt"
	"path"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// Deleting and renaming blocks. A change can leave a block with no
// purpose (the test of a removed option, the override of a removed
// hook) or with a name that must follow (the test of a renamed
// function). The model says so in a documented form (systemPrompt): a
// reply that is the line `ripple: delete` removes the block, with the
// comment lines directly above it; a reply that opens with the line
// `ripple: rename` brings the block's new text under a new name, judged
// as one declaration of the block's kind whose name the scope does not
// have yet. Any other reply must keep the name (CheckBlock).

const (
	directiveDelete = "delete"
	directiveRename = "rename"
)

// replyDirective reads a reply's directive: its first non-blank line,
// outside any code block, "ripple: delete" or "ripple: rename" (in
// backticks or not); rest is the reply after that line. A reply without
// one is returned whole.
func replyDirective(reply string) (directive, rest string) {
	at := 0
	for at < len(reply) {
		line := reply[at:]
		next := len(reply)
		if nl := strings.IndexByte(line, '\n'); nl >= 0 {
			line, next = line[:nl], at+nl+1
		}
		t := strings.ToLower(strings.Trim(strings.TrimSpace(line), "`*"))
		if t == "" {
			at = next
			continue
		}
		switch strings.Join(strings.Fields(t), " ") {
		case "ripple: delete", "ripple: delete.":
			return directiveDelete, reply[next:]
		case "ripple: rename", "ripple: rename:":
			return directiveRename, reply[next:]
		}
		break
	}
	return "", reply
}

// deleteBlock removes an obligation's block and the comment lines
// directly above it (its documentation), and one blank line that would
// be left doubled. The file must still parse, and the block be gone. It
// reports whether the file changed.
func (e *engine) deleteBlock(ob *Obligation, src []byte) bool {
	fe := e.frontendFor(ob.Path)
	lines := strings.SplitAfter(string(src), "\n")
	from, to := ob.Span.StartLine, ob.Span.EndLine
	if from < 1 || to > len(lines) || from > to {
		ob.Status, ob.Note = Failed, fmt.Sprintf("block lines %d-%d outside the file's %d lines", from, to, len(lines))
		return false
	}
	if ed, ok := fe.(lang.BlockEditor); ok {
		for from > 1 && ed.IsComment(lines[from-2]) {
			from--
		}
	}
	blank := func(i int) bool { return i >= 1 && i <= len(lines) && strings.TrimSpace(lines[i-1]) == "" }
	if blank(to+1) && (from == 1 || blank(from-1)) {
		to++
	}
	removed := strings.Join(lines[from-1:to], "")
	out := []byte(strings.Join(lines[:from-1], "") + strings.Join(lines[to:], ""))
	ds, diag := fe.Decls(ob.Path, out)
	err := error(nil)
	if diag != nil && diag.Partial {
		err = fmt.Errorf("the file no longer parses without the block: %s", diag.Message)
	}
	for _, d := range ds {
		if err == nil && !AtFileScope(ob.Block) && d.Display == ob.Block && d.Span.StartLine >= from && d.Span.StartLine <= from+1 {
			err = fmt.Errorf("%s is still declared at line %d", ob.Block, d.Span.StartLine)
		}
	}
	if err == nil {
		err = e.sc.write(ob.Path, out)
	}
	if err != nil {
		ob.Status, ob.Note = Failed, "rejected: "+err.Error()
		e.res.Rejected++
		return false
	}
	ob.Status, ob.Note = Done, "deleted"
	ob.Diff = lineDiff(ob.Path, removed, "")
	return true
}

// checkRename judges a reply that renames the block: lines [from, to] of
// out hold one declaration (CheckBlock, under its new name) of the old
// block's kind and container, and no file of the scope declared that name
// before. It returns the new name.
func (e *engine) checkRename(ob *Obligation, src, out []byte, from, to int) (string, error) {
	if AtFileScope(ob.Block) {
		return "", fmt.Errorf("top-level statements have no name to rename")
	}
	fe := e.frontendFor(ob.Path)
	var old *lang.Decl
	before, _ := fe.Decls(ob.Path, src)
	for _, d := range before {
		if d.Display == ob.Block && d.Span.StartLine == ob.Span.StartLine {
			old = d
		}
	}
	if old == nil {
		return "", fmt.Errorf("%s is not at line %d", ob.Block, ob.Span.StartLine)
	}
	after, diag := fe.Decls(ob.Path, out)
	if diag != nil && diag.Partial {
		return "", fmt.Errorf("the file no longer parses: %s", diag.Message)
	}
	var nw *lang.Decl
	for _, d := range after {
		if d.Kind == old.Kind && d.Container == old.Container && d.Span.StartLine >= from && d.Span.EndLine <= to {
			if nw != nil {
				return "", fmt.Errorf("the renamed block holds two declarations (%s, %s)", nw.Display, d.Display)
			}
			nw = d
		}
	}
	if nw == nil {
		return "", fmt.Errorf("the renamed block holds no %s", old.Kind)
	}
	if nw.Display == ob.Block {
		return "", fmt.Errorf("the renamed block keeps the name %s", ob.Block)
	}
	if err := e.checkBlock(&Obligation{Path: ob.Path, Block: nw.Display}, out, from, to); err != nil {
		return "", err
	}
	scope := path.Dir(ob.Path)
	if dc, ok := fe.(lang.Declarer); ok {
		scope = dc.Scope(ob.Path)
	}
	for _, d := range e.scopeDecls(scope) {
		if d.Kind != model.KindImport && declName(d) == declName(nw) {
			return "", fmt.Errorf("%s is declared already (%s:%d)", nw.Display, d.Path, d.Span.StartLine)
		}
	}
	return nw.Display, nil
}
