package fixmode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/ripple-dev/ripple/internal/fix"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// Plan is a proven fix cut into one commit per seed change.
type Plan struct {
	Head string
	// Groups are the commits to make, in the order of the seed changes;
	// groups without an edit are left out.
	Groups []*Group
	// Unsplit says why the fix could not be cut by seed change, in which
	// case Groups holds one group with every edit.
	Unsplit string

	fixedTree string
	files     map[string]*fileEdit
	order     []string // file paths, sorted
}

// fileEdit is one file the fix modifies.
type fileEdit struct {
	path  string
	mode  string
	head  []string // the head state's lines, each with its terminator
	hunks []*hunk  // by oldStart
}

// hunk is one hunk of the head → fixed diff without context (-U0).
// oldCount 0 inserts new after line oldStart (0: at the top).
type hunk struct {
	path               string
	oldStart, oldCount int
	new                []string // lines with their terminators
	block              *BlockEdit
	group              *Group
}

// Split cuts res.Patch (head → proven state) into per-seed groups. It
// recomputes the proven state from the head commit and the patch in a
// temporary index (the work tree is never touched), diffs it against the
// head without context, and gives each hunk to the block it lies in
// (the head state's declarations, parsed by fes) and so to that block's
// group; what is appended at the end of a file goes to the file's new
// declarations ("new X" blocks). Hunks outside any edited block (an import an edit needs) go
// with the first group that edits the same file.
func Split(ctx context.Context, g *Git, res *fix.Result, fes lang.Set) (*Plan, error) {
	if strings.TrimSpace(res.Patch) == "" {
		return nil, errors.New("the fix changes nothing")
	}
	p := &Plan{Head: res.Head, files: map[string]*fileEdit{}}
	tree, err := fixedTree(ctx, g, res.Head, res.Patch)
	if err != nil {
		return nil, err
	}
	p.fixedTree = tree
	gr := groupBlocks(res)
	if why, err := p.readFiles(ctx, g); err != nil {
		return nil, err
	} else if why != "" {
		return p.unsplit(gr, why), nil
	}
	// the blocks' spans in the head state
	for _, be := range gr.blocks {
		if f := p.files[be.Path]; f != nil {
			be.Span = spanOf(fes, be.Path, strings.Join(f.head, ""), be.Block)
		}
	}
	edited := map[string][]*BlockEdit{}
	for _, g := range gr.groups {
		for _, be := range g.Blocks {
			edited[be.Path] = append(edited[be.Path], be)
		}
	}
	for _, path := range p.order {
		f := p.files[path]
		for _, h := range f.hunks {
			for _, be := range edited[path] {
				if be.Span.StartLine > 0 && h.within(be.Span) && (h.block == nil || groupIndex(gr.groups, be.group) < groupIndex(gr.groups, h.block.group)) {
					h.block = be
				}
			}
			// new declarations are appended at the end of the file
			if h.block == nil && h.oldCount == 0 && h.oldStart >= len(f.head) {
				for _, be := range edited[path] {
					if strings.HasPrefix(be.Block, "new ") && (h.block == nil || groupIndex(gr.groups, be.group) < groupIndex(gr.groups, h.block.group)) {
						h.block = be
					}
				}
			}
			if h.block != nil {
				h.group = h.block.group
				h.block.hunks = append(h.block.hunks, h)
			}
		}
		// file scope: with the first group editing this file
		var first *Group
		for _, h := range f.hunks {
			if h.group != nil && (first == nil || groupIndex(gr.groups, h.group) < groupIndex(gr.groups, first)) {
				first = h.group
			}
		}
		for _, h := range f.hunks {
			if h.group == nil {
				if first == nil {
					first = gr.other()
				}
				h.group = first
			}
		}
		for _, h := range f.hunks {
			h.group.hunks = append(h.group.hunks, h)
		}
	}
	for _, g := range gr.groups {
		if len(g.hunks) > 0 {
			p.Groups = append(p.Groups, g)
		}
	}
	if len(p.Groups) == 0 {
		return nil, errors.New("the fix's patch has no hunk to commit")
	}
	return p, nil
}

func groupIndex(gs []*Group, g *Group) int {
	for i, x := range gs {
		if x == g {
			return i
		}
	}
	return len(gs)
}

// within reports whether the hunk lies in span (an insertion just
// before or after the block's lines counts: a line the model's block
// added at its top or bottom).
func (h *hunk) within(s model.Span) bool {
	if h.oldCount == 0 {
		return h.oldStart >= s.StartLine-1 && h.oldStart <= s.EndLine
	}
	return h.oldStart <= s.EndLine && h.oldStart+h.oldCount-1 >= s.StartLine
}

// unsplit puts every edit in one group.
func (p *Plan) unsplit(gr *grouping, why string) *Plan {
	n := 0
	var blocks []*BlockEdit
	for _, g := range gr.groups {
		if len(g.Blocks) > 0 && g.Seed != nil {
			n++
		}
		blocks = append(blocks, g.Blocks...)
	}
	g := &Group{Title: fmt.Sprintf("follow %d changes", n), Blocks: blocks}
	if n == 1 {
		for _, x := range gr.groups {
			if x.Seed != nil && len(x.Blocks) > 0 {
				g.Seed, g.Title = x.Seed, x.Title
			}
		}
	}
	for _, be := range blocks {
		be.group = g
	}
	g.whole = true
	p.Groups, p.Unsplit = []*Group{g}, why
	return p
}

// fixedTree applies patch to head in a temporary index and returns the
// resulting tree.
func fixedTree(ctx context.Context, g *Git, head, patch string) (string, error) {
	gi, done, err := tempIndex(g)
	if err != nil {
		return "", err
	}
	defer done()
	if _, err := gi.Run(ctx, "read-tree", head); err != nil {
		return "", err
	}
	if _, err := gi.RunIn(ctx, []byte(patch), "apply", "--cached", "--whitespace=nowarn", "-"); err != nil {
		return "", fmt.Errorf("the fix's patch does not apply to %s: %w", short(head), err)
	}
	out, err := gi.Run(ctx, "write-tree")
	return strings.TrimSpace(out), err
}

// tempIndex is a runner with its own index file, removed by done.
func tempIndex(g *Git) (*Git, func(), error) {
	dir, err := os.MkdirTemp("", "ripple-index-")
	if err != nil {
		return nil, nil, err
	}
	return g.With("GIT_INDEX_FILE=" + filepath.Join(dir, "index")), func() { os.RemoveAll(dir) }, nil
}

// readFiles reads each modified file's head state and hunks. It returns
// a reason when the fix cannot be cut (a file added, deleted or binary).
func (p *Plan) readFiles(ctx context.Context, g *Git) (string, error) {
	out, err := g.Run(ctx, "diff", "--name-status", "-z", "--no-renames", p.Head, p.fixedTree)
	if err != nil {
		return "", err
	}
	fields := strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		status, path := fields[i], fields[i+1]
		if status != "M" {
			return fmt.Sprintf("the fix %s %s", map[string]string{"A": "adds", "D": "deletes", "T": "changes the type of"}[status], path), nil
		}
		ls, err := g.Run(ctx, "ls-tree", "-z", p.Head, "--", ":(literal)"+path)
		if err != nil {
			return "", err
		}
		mode, _, _ := strings.Cut(ls, " ")
		if mode != "100644" && mode != "100755" {
			return fmt.Sprintf("the fix edits %s, which is not a regular file", path), nil
		}
		src, err := g.Run(ctx, "cat-file", "blob", p.Head+":"+path)
		if err != nil {
			return "", err
		}
		diff, err := g.Run(ctx, "diff", "-U0", "--no-ext-diff", "--no-textconv", "--no-renames", p.Head, p.fixedTree, "--", ":(literal)"+path)
		if err != nil {
			return "", err
		}
		hs, binary, err := parseHunks(path, diff)
		if err != nil {
			return "", err
		}
		if binary || len(hs) == 0 {
			return fmt.Sprintf("the fix's diff of %s has no text hunks", path), nil
		}
		p.files[path] = &fileEdit{path: path, mode: mode, head: splitLines(src), hunks: hs}
		p.order = append(p.order, path)
	}
	sort.Strings(p.order)
	return "", nil
}

// parseHunks reads the hunks of `git diff -U0` of one file.
func parseHunks(path, diff string) (hs []*hunk, binary bool, err error) {
	lines := strings.SplitAfter(diff, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "Binary files ") {
			return nil, true, nil
		}
		if !strings.HasPrefix(l, "@@ ") {
			continue
		}
		start, oc, nc, ok := hunkHeader(l)
		if !ok {
			return nil, false, fmt.Errorf("%s: bad hunk header %q", path, strings.TrimSpace(l))
		}
		h := &hunk{path: path, oldStart: start, oldCount: oc}
		gotOld, gotNew := 0, 0
		last := byte(0)
		for i+1 < len(lines) && (gotOld < oc || gotNew < nc || strings.HasPrefix(lines[i+1], `\`)) {
			i++
			t := lines[i]
			switch {
			case strings.HasPrefix(t, "-"):
				gotOld++
				last = '-'
			case strings.HasPrefix(t, "+"):
				gotNew++
				h.new = append(h.new, t[1:])
				last = '+'
			case strings.HasPrefix(t, `\`):
				if last == '+' && len(h.new) > 0 {
					h.new[len(h.new)-1] = strings.TrimSuffix(h.new[len(h.new)-1], "\n")
				}
			default:
				return nil, false, fmt.Errorf("%s: unexpected line in a hunk: %q", path, strings.TrimSpace(t))
			}
		}
		if gotOld != oc || gotNew != nc {
			return nil, false, fmt.Errorf("%s: a hunk ends early (%d of %d lines removed, %d of %d added)", path, gotOld, oc, gotNew, nc)
		}
		hs = append(hs, h)
	}
	return hs, false, nil
}

// hunkHeader reads "@@ -a[,b] +c[,d] @@".
func hunkHeader(l string) (oldStart, oldCount, newCount int, ok bool) {
	f := strings.Fields(l)
	if len(f) < 4 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return 0, 0, 0, false
	}
	num := func(s string) (int, int, bool) {
		a, b, has := strings.Cut(s, ",")
		x, err := strconv.Atoi(a)
		if err != nil {
			return 0, 0, false
		}
		if !has {
			return x, 1, true
		}
		y, err := strconv.Atoi(b)
		return x, y, err == nil
	}
	st, oc, ok1 := num(f[1][1:])
	_, nc, ok2 := num(f[2][1:])
	return st, oc, nc, ok1 && ok2
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// apply returns lines with hunks (sorted, non-overlapping, positions
// relative to lines) applied.
func apply(lines []string, hs []*hunk, offset int) []string {
	sorted := append([]*hunk(nil), hs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].oldStart < sorted[j].oldStart })
	var out []string
	cur := 0
	for _, h := range sorted {
		cut := h.oldStart - offset
		if h.oldCount > 0 {
			cut--
		}
		cut = max(cur, min(cut, len(lines)))
		out = append(out, lines[cur:cut]...)
		out = append(out, h.new...)
		cur = min(cut+h.oldCount, len(lines))
	}
	return append(out, lines[cur:]...)
}

// spanOf finds block's lines in src (the head state of path): the
// smallest top-level declaration of that name.
func spanOf(fes lang.Set, path, src, block string) model.Span {
	fe := fes.For(path)
	if fe == nil {
		return model.Span{}
	}
	ds, _ := fe.Decls(path, []byte(src))
	var best model.Span
	for _, d := range ds {
		switch d.Kind {
		case model.KindField, model.KindIfaceMethod, model.KindImport:
			continue
		}
		if d.Display != block {
			continue
		}
		if best.StartLine == 0 || d.Span.EndLine-d.Span.StartLine < best.EndLine-best.StartLine {
			best = d.Span
		}
	}
	return best
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
