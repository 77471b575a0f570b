//go:build cgo

package treesit

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
)

// Available is true when the binary was built with cgo, which the
// tree-sitter runtime needs.
const Available = true

// runtime is a grammar's loaded state.
type runtime struct {
	once     sync.Once
	language *sitter.Language
	kinds    []string // symbol id -> kind name
	fields   []string // field id -> field name
	pool     sync.Pool
}

func (g *Grammar) init() {
	g.rt.once.Do(func() {
		l := sitter.NewLanguage(g.Load())
		n := l.NodeKindCount()
		kinds := make([]string, n)
		for i := uint32(0); i < n; i++ {
			kinds[i] = l.NodeKindForId(uint16(i))
		}
		fc := l.FieldCount()
		fields := make([]string, fc+1)
		for i := uint32(1); i <= fc; i++ {
			fields[i] = l.FieldNameForId(uint16(i))
		}
		g.rt.language, g.rt.kinds, g.rt.fields = l, kinds, fields
	})
}

// Parse parses one file. It never fails: tree-sitter recovers from
// syntax errors with ERROR and MISSING nodes, which are counted. Parsers
// are pooled: Parse may be called concurrently.
func (g *Grammar) Parse(src []byte) *Tree {
	g.init()
	t := &Tree{Src: src, g: g}
	p, _ := g.rt.pool.Get().(*sitter.Parser)
	if p == nil {
		p = sitter.NewParser()
		if err := p.SetLanguage(g.rt.language); err != nil {
			panic(g.Name + ": " + err.Error()) // an ABI mismatch: a build error, not input
		}
	}
	ts := p.Parse(src, nil)
	g.rt.pool.Put(p)
	if ts == nil {
		t.Root = &Node{Kind: g.Root, Bad: true, Line: 1, EndLine: 1, Tree: t}
		t.ErrLine, t.Errors = 1, 1
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
	t.Root = g.unflatten(t, flat[:count])
	return t
}

// unflatten builds the Go nodes of a pre-order flat tree.
func (g *Grammar) unflatten(t *Tree, flat []C.rp_flat) *Node {
	kinds, fields := g.rt.kinds, g.rt.fields
	if len(flat) == 0 {
		return &Node{Kind: g.Root, Line: 1, EndLine: 1, Tree: t}
	}
	nodes := make([]Node, len(flat))
	nkids := make([]int32, len(flat))
	for i := range flat {
		if p := flat[i].parent; p >= 0 {
			nkids[p]++
		}
	}
	// one backing array for every child list
	ptrs := make([]*Node, len(flat))
	off := 0
	for i := range nodes {
		nodes[i].Kids = ptrs[off : off : off+int(nkids[i])]
		off += int(nkids[i])
	}
	for i := range flat {
		f := &flat[i]
		n := &nodes[i]
		if int(f.kind) < len(kinds) {
			n.Kind = kinds[f.kind]
		}
		if f.field != 0 && int(f.field) < len(fields) {
			n.Field = fields[f.field]
		}
		n.Start, n.End = uint32(f.start), uint32(f.end)
		n.Line, n.Col, n.EndLine = int32(f.line), int32(f.col), int32(f.eline)
		n.Named = f.flags&1 != 0
		n.Tree = t
		if f.flags&2 != 0 {
			n.Bad = true
			n.Kind = "ERROR"
			t.Errors++
			if t.ErrLine == 0 || int(n.Line) < t.ErrLine {
				t.ErrLine = int(n.Line)
			}
		}
		if p := f.parent; p >= 0 {
			n.Parent = &nodes[p]
			nodes[p].Kids = append(nodes[p].Kids, n)
		}
	}
	return &nodes[0]
}

// RawParse parses without copying the tree (for measurements).
func (g *Grammar) RawParse(src []byte) {
	g.init()
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(g.rt.language); err != nil {
		return
	}
	if ts := p.Parse(src, nil); ts != nil {
		ts.Close()
	}
}
