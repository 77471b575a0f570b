//go:build cgo

package typescript

/*
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

// The few declarations of tree-sitter's C API (include/tree_sitter/api.h of
// github.com/tree-sitter/go-tree-sitter v0.25.0) that flatten needs. The
// definitions are linked from that module's cgo package; the struct
// layouts are part of tree-sitter's stable ABI.
typedef struct { uint32_t row; uint32_t column; } rp_point;
typedef struct { uint32_t context[4]; const void *id; const void *tree; } rp_node;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } rp_cursor;

extern rp_cursor ts_tree_cursor_new(rp_node);
extern void ts_tree_cursor_delete(rp_cursor *);
extern rp_node ts_tree_cursor_current_node(const rp_cursor *);
extern uint16_t ts_tree_cursor_current_field_id(const rp_cursor *);
extern bool ts_tree_cursor_goto_first_child(rp_cursor *);
extern bool ts_tree_cursor_goto_next_sibling(rp_cursor *);
extern bool ts_tree_cursor_goto_parent(rp_cursor *);
extern uint16_t ts_node_symbol(rp_node);
extern uint32_t ts_node_start_byte(rp_node);
extern uint32_t ts_node_end_byte(rp_node);
extern rp_point ts_node_start_point(rp_node);
extern rp_point ts_node_end_point(rp_node);
extern bool ts_node_is_named(rp_node);
extern bool ts_node_is_missing(rp_node);
extern bool ts_node_is_error(rp_node);

typedef struct {
	uint32_t start, end, line, col, eline;
	int32_t parent;   // index of the parent, -1 for the root
	uint16_t kind, field;
	uint8_t flags;    // 1 named, 2 error or missing
} rp_flat;

// flatten writes the tree under root in pre-order into out (at most cap
// entries) and returns the number written: one cgo call per file instead
// of several per node.
static int flatten(const void *rootp, rp_flat *out, int cap) {
	rp_cursor c = ts_tree_cursor_new(*(const rp_node *)rootp);
	int n = 0, cur = -1;
	for (;;) {
		if (n >= cap) break;
		rp_node x = ts_tree_cursor_current_node(&c);
		rp_flat *f = &out[n];
		f->start = ts_node_start_byte(x);
		f->end = ts_node_end_byte(x);
		rp_point sp = ts_node_start_point(x), ep = ts_node_end_point(x);
		f->line = sp.row + 1;
		f->col = sp.column;
		f->eline = ep.row + 1;
		f->parent = cur;
		f->kind = ts_node_symbol(x);
		f->field = ts_tree_cursor_current_field_id(&c);
		f->flags = (ts_node_is_named(x) ? 1 : 0) | ((ts_node_is_error(x) || ts_node_is_missing(x)) ? 2 : 0);
		int me = n++;
		if (ts_tree_cursor_goto_first_child(&c)) {
			cur = me;
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) {
				ts_tree_cursor_delete(&c);
				return n;
			}
			cur = out[cur].parent;
		}
	}
	ts_tree_cursor_delete(&c);
	return n;
}
*/
import "C"

import (
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// parserAvailable is true when the binary was built with cgo, which the
// tree-sitter runtime needs.
const parserAvailable = true

// grammar is one of the two grammars of tree-sitter-typescript: the
// TypeScript one (which reads plain JavaScript too) and TSX (TypeScript
// with JSX, for .tsx and .jsx).
type grammar struct {
	once     sync.Once
	load     func() unsafe.Pointer
	language *sitter.Language
	kinds    []string // symbol id -> kind name
	fields   []string // field id -> field name
	pool     sync.Pool
}

var (
	grammarTS  = &grammar{load: tsts.LanguageTypescript}
	grammarTSX = &grammar{load: tsts.LanguageTSX}
)

func (g *grammar) init() {
	g.once.Do(func() {
		g.language = sitter.NewLanguage(g.load())
		n := g.language.NodeKindCount()
		g.kinds = make([]string, n)
		for i := uint32(0); i < n; i++ {
			g.kinds[i] = g.language.NodeKindForId(uint16(i))
		}
		fc := g.language.FieldCount()
		g.fields = make([]string, fc+1)
		for i := uint32(1); i <= fc; i++ {
			g.fields[i] = g.language.FieldNameForId(uint16(i))
		}
	})
}

// parse parses one file with the grammar its extension calls for. It
// never fails: tree-sitter recovers from syntax errors with ERROR and
// MISSING nodes, which are counted.
func parse(path string, src []byte) *tree {
	g := grammarTS
	if jsx(path) {
		g = grammarTSX
	}
	g.init()
	t := &tree{src: src}
	p, _ := g.pool.Get().(*sitter.Parser)
	if p == nil {
		p = sitter.NewParser()
		if err := p.SetLanguage(g.language); err != nil {
			panic("tree-sitter-typescript: " + err.Error()) // an ABI mismatch: a build error, not input
		}
	}
	ts := p.Parse(blankVariance(src), nil)
	g.pool.Put(p)
	if ts == nil {
		t.root = &node{kind: "program", bad: true, line: 1, eline: 1, t: t}
		t.errLine, t.errors = 1, 1
		return t
	}
	defer ts.Close()
	root := ts.RootNode()
	count := int(root.DescendantCount())
	flat := make([]C.rp_flat, count)
	if count > 0 {
		// sitter.Node is a C-compatible TSNode (documented as such)
		count = int(C.flatten(unsafe.Pointer(root), &flat[0], C.int(count)))
	}
	t.root = unflatten(t, g, flat[:count])
	return t
}

// unflatten builds the Go nodes of a pre-order flat tree.
func unflatten(t *tree, g *grammar, flat []C.rp_flat) *node {
	kinds, fields := g.kinds, g.fields
	if len(flat) == 0 {
		return &node{kind: "program", line: 1, eline: 1, t: t}
	}
	nodes := make([]node, len(flat))
	nkids := make([]int32, len(flat))
	for i := range flat {
		if p := flat[i].parent; p >= 0 {
			nkids[p]++
		}
	}
	// one backing array for every child list
	ptrs := make([]*node, len(flat))
	off := 0
	for i := range nodes {
		nodes[i].kids = ptrs[off : off : off+int(nkids[i])]
		off += int(nkids[i])
	}
	for i := range flat {
		f := &flat[i]
		n := &nodes[i]
		if int(f.kind) < len(kinds) {
			n.kind = kinds[f.kind]
		}
		if f.field != 0 && int(f.field) < len(fields) {
			n.field = fields[f.field]
		}
		n.start, n.end = uint32(f.start), uint32(f.end)
		n.line, n.col, n.eline = int32(f.line), int32(f.col), int32(f.eline)
		n.named = f.flags&1 != 0
		n.t = t
		if f.flags&2 != 0 {
			n.bad = true
			n.kind = "ERROR"
			t.errors++
			if t.errLine == 0 || int(n.line) < t.errLine {
				t.errLine = int(n.line)
			}
		}
		if p := f.parent; p >= 0 {
			n.parent = &nodes[p]
			nodes[p].kids = append(nodes[p].kids, n)
		}
	}
	return &nodes[0]
}

// rawParse parses without copying the tree (for measurements).
func rawParse(path string, src []byte) {
	g := grammarTS
	if jsx(path) {
		g = grammarTSX
	}
	g.init()
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(g.language); err != nil {
		return
	}
	if ts := p.Parse(src, nil); ts != nil {
		ts.Close()
	}
}
