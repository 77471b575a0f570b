package fixmode

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/action/findings"
	"github.com/ripple-dev/ripple/internal/fix"
	"github.com/ripple-dev/ripple/internal/model"
)

// Group is the edits one commit makes: those of the blocks whose
// obligations trace back to one seed change.
type Group struct {
	// Seed is the developer's change the edits follow; nil for edits no
	// seed change explains (an oracle diagnostic's block, an import the
	// model's edit needed in a file no other group touched).
	Seed *model.Change
	// Title is the seed change's summary ("func Sum: parameter c int
	// added"), or what the edits are.
	Title  string
	Blocks []*BlockEdit
	hunks  []*hunk
	// whole: the group is the whole fix, not cut into hunks (Plan.Unsplit)
	whole bool
}

// BlockEdit is one edited block of a group.
type BlockEdit struct {
	Path  string
	Block string // as the analyzer names it: "func Use"
	// Method is "mechanical" or "model".
	Method string
	// Paths are the relation paths that made the block change, from the
	// seed change to the block: "func Sum → called by func Use"; an
	// oracle diagnostic for blocks the oracle asked for.
	Paths []string
	// Also names the other seed changes the same block follows (its edit
	// is one and cannot be split: it goes with the first seed's commit).
	Also []string
	// Span is the block's lines in the head state (0 when the head state
	// has no such block).
	Span  model.Span
	group *Group
	hunks []*hunk
}

// Message is the commit message of the group: the seed change on the
// first line, one line per block with its relation path and how it was
// edited.
func (g *Group) Message(trailers []string) string {
	var b strings.Builder
	if g.Seed != nil {
		fmt.Fprintf(&b, "ripple: follow %s\n\n", g.Title)
	} else {
		fmt.Fprintf(&b, "ripple: %s\n\n", g.Title)
	}
	for _, be := range g.Blocks {
		if len(be.hunks) == 0 && !g.whole {
			continue
		}
		paths := strings.Join(be.Paths, "; ")
		if paths == "" {
			paths = be.Block
		}
		fmt.Fprintf(&b, "- %s %s: %s (%s)\n", be.Path, be.Block, paths, be.Method)
		for _, a := range be.Also {
			fmt.Fprintf(&b, "  also follows %s\n", a)
		}
	}
	if other := g.fileScope(); len(other) > 0 {
		fmt.Fprintf(&b, "- file scope (imports the edits need): %s\n", strings.Join(other, ", "))
	}
	if len(trailers) > 0 {
		b.WriteString("\n" + strings.Join(trailers, "\n") + "\n")
	}
	return b.String()
}

// fileScope lists the files where the group edits outside any block.
func (g *Group) fileScope() []string {
	seen := map[string]bool{}
	var out []string
	for _, h := range g.hunks {
		if h.block == nil && !seen[h.path] {
			seen[h.path] = true
			out = append(out, h.path)
		}
	}
	return out
}

// seedKey identifies a change across the checks of one fix run: the
// engine classifies the scratch state afresh each time, so the same seed
// change is a new value each time.
func seedKey(c *model.Change) string {
	b := c.Block()
	if b == nil {
		return string(c.Label) + "\x00" + c.Summary()
	}
	return string(c.Label) + "\x00" + b.Path + "\x00" + b.Display
}

// root follows a derived change to the change it follows.
func root(c *model.Change) *model.Change {
	for i := 0; c != nil && c.Derived && c.Cause != nil && i < 16; i++ {
		c = c.Cause
	}
	return c
}

// grouping is the seed changes of a run and its blocks' groups.
type grouping struct {
	res    *fix.Result
	seeds  []*model.Change
	index  map[string]int // seedKey -> index in seeds
	groups []*Group       // one per seed, then the "other" group
	blocks map[string]*BlockEdit
}

// groupBlocks assigns each edited block (an obligation done) to the
// group of the seed change it follows, in the order of the seed changes.
//
// A block follows the seed changes its reasons' changes trace to (a
// derived change through Cause); when none does (the block must follow a
// wrapper the engine itself edited, whose change is no seed), through
// the obligations that caused it (Parent). A block whose reasons trace
// to several seeds goes with the first; a block nothing traces (an
// oracle diagnostic's) goes to the last group, "other".
func groupBlocks(res *fix.Result) *grouping {
	gr := &grouping{res: res, index: map[string]int{}, blocks: map[string]*BlockEdit{}}
	if res.Seed != nil {
		for _, c := range res.Seed.Changes {
			if c.Derived {
				continue
			}
			k := seedKey(c)
			if _, dup := gr.index[k]; dup {
				continue
			}
			gr.index[k] = len(gr.seeds)
			gr.seeds = append(gr.seeds, c)
			gr.groups = append(gr.groups, &Group{Seed: c, Title: c.Summary()})
		}
	}
	obs := append([]*fix.Obligation(nil), res.Obligations...)
	sort.SliceStable(obs, func(i, j int) bool { return obs[i].ID < obs[j].ID })
	for _, ob := range obs {
		if ob.Status != fix.Done {
			continue
		}
		k := ob.Path + "\x00" + ob.Block
		be := gr.blocks[k]
		idx := gr.trace(ob)
		if be == nil {
			be = &BlockEdit{Path: ob.Path, Block: ob.Block, Method: ob.Method}
			gr.blocks[k] = be
			var g *Group
			if len(idx) > 0 {
				g = gr.groups[idx[0]]
			} else {
				g = gr.other()
			}
			be.group = g
			g.Blocks = append(g.Blocks, be)
		} else if be.Method != ob.Method && ob.Method != "" {
			be.Method = "mechanical and model"
		}
		for _, i := range idx {
			if be.group.Seed != nil && seedKey(be.group.Seed) == seedKey(gr.seeds[i]) {
				continue
			}
			if s := gr.seeds[i].Summary(); !contains(be.Also, s) {
				be.Also = append(be.Also, s)
			}
		}
		for _, p := range gr.relationPaths(ob) {
			if !contains(be.Paths, p) {
				be.Paths = append(be.Paths, p)
			}
		}
	}
	return gr
}

// other is the group of edits no seed change explains.
func (gr *grouping) other() *Group {
	if n := len(gr.groups); n > 0 && gr.groups[n-1].Seed == nil {
		return gr.groups[n-1]
	}
	g := &Group{Title: "edits the oracle asked for"}
	gr.groups = append(gr.groups, g)
	return g
}

// trace returns the indices of the seed changes an obligation follows,
// in seed order.
func (gr *grouping) trace(ob *fix.Obligation) []int {
	for o, depth := ob, 0; o != nil && depth < 64; o, depth = o.Parent, depth+1 {
		seen := map[int]bool{}
		var idx []int
		for _, r := range o.Reasons {
			if r.Change == nil {
				continue
			}
			if i, ok := gr.index[seedKey(root(r.Change))]; ok && !seen[i] {
				seen[i] = true
				idx = append(idx, i)
			}
		}
		if len(idx) > 0 {
			sort.Ints(idx)
			return idx
		}
	}
	return nil
}

// relationPaths are the paths from the seed change to the obligation's
// block, one per reason: the trail of the seed check's finding in that
// block when there is one, else the path of the obligation that caused
// this one extended by the reason's relation.
func (gr *grouping) relationPaths(ob *fix.Obligation) []string {
	var out []string
	for _, r := range ob.Reasons {
		if p := gr.pathOf(ob, r, 0); p != "" && !contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func (gr *grouping) pathOf(ob *fix.Obligation, r fix.Reason, depth int) string {
	if r.Oracle != nil {
		return "the oracle: " + r.Oracle.String()
	}
	if r.Change == nil {
		return ""
	}
	if gr.res.Seed != nil {
		for _, f := range gr.res.Seed.Findings {
			if f.Site.Path == ob.Path && f.Site.Enclosing == ob.Block && f.Change != nil && seedKey(f.Change) == seedKey(r.Change) && len(f.Trail) > 0 {
				return trailString(f.Trail)
			}
		}
	}
	hop := findings.Phrase(string(r.Relation)) + " " + ob.Block
	if r.Relation == "" {
		hop = ob.Block
	}
	if p := ob.Parent; p != nil && depth < 16 {
		for _, pr := range p.Reasons {
			if s := gr.pathOf(p, pr, depth+1); s != "" {
				return s + " → " + hop
			}
		}
	}
	// the cause chain of a derived change: seed → ... → this change
	var chain []string
	for c, i := r.Change, 0; c != nil && i < 16; c, i = c.Cause, i+1 {
		if b := c.Block(); b != nil {
			chain = append([]string{b.Display}, chain...)
		}
		if !c.Derived {
			break
		}
	}
	return strings.Join(append(chain, hop), " → ")
}

func trailString(t []model.Step) string { return model.TrailText(t) }

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
