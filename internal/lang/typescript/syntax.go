package typescript

import (
	"bytes"
	"strings"
)

// node is one node of a TypeScript or JavaScript syntax tree, copied out of tree-sitter so
// that the analysis runs in Go without a cgo call per access and the C
// tree can be freed at once. Kinds and field names are the grammar's
// (tree-sitter-typescript.s node-types.json), interned.
type node struct {
	kind   string
	field  string // the field this node fills in its parent, or ""
	start  uint32 // byte offsets into the file
	end    uint32
	line   int32 // 1-based line of the start
	eline  int32 // 1-based line of the end
	col    int32 // 0-based byte column of the start
	named  bool
	bad    bool // an ERROR or MISSING node
	parent *node
	kids   []*node
	t      *tree // the tree the node belongs to
}

// text is the node's source.
func (n *node) text() string {
	if n == nil {
		return ""
	}
	return n.t.text(n)
}

// tree is one parsed file.
type tree struct {
	src  []byte
	root *node
	// errLine is the line of the first syntax error, 0 if none.
	errLine int
	// errors counts the ERROR and MISSING nodes.
	errors int
}

// child returns the first child filling field name, or nil.
func (n *node) child(field string) *node {
	if n == nil {
		return nil
	}
	for _, k := range n.kids {
		if k.field == field {
			return k
		}
	}
	return nil
}

// children returns the children filling field name.
func (n *node) children(field string) []*node {
	if n == nil {
		return nil
	}
	var out []*node
	for _, k := range n.kids {
		if k.field == field {
			out = append(out, k)
		}
	}
	return out
}

// namedKids returns the named children, comments excluded.
func (n *node) namedKids() []*node {
	if n == nil {
		return nil
	}
	out := make([]*node, 0, len(n.kids))
	for _, k := range n.kids {
		if k.named && k.kind != "comment" {
			out = append(out, k)
		}
	}
	return out
}

// firstNamed returns the first named child of a kind, or nil.
func (n *node) firstOf(kind string) *node {
	if n == nil {
		return nil
	}
	for _, k := range n.kids {
		if k.kind == kind {
			return k
		}
	}
	return nil
}

// hasToken reports whether an anonymous child has the given kind (a
// keyword such as "async" or an operator).
func (n *node) hasToken(kind string) bool {
	if n == nil {
		return false
	}
	for _, k := range n.kids {
		if !k.named && k.kind == kind {
			return true
		}
	}
	return false
}

// text is the node's source.
func (t *tree) text(n *node) string {
	if n == nil || int(n.end) > len(t.src) || n.start > n.end {
		return ""
	}
	return string(t.src[n.start:n.end])
}

// lineText returns the whole line (without terminator) of a 1-based line.
func (t *tree) lineText(line int) string {
	if line < 1 {
		return ""
	}
	src := t.src
	for i := 1; i < line; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return ""
		}
		src = src[j+1:]
	}
	if j := bytes.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return strings.TrimSuffix(string(src), "\r")
}

// tokens is the canonical form of a subtree: its leaves separated by
// spaces, comments excluded (layout never counts), and docstrings skipped
// when skipDoc is set.
func (t *tree) tokens(n *node, skip *node) string {
	var sb strings.Builder
	var walk func(n *node)
	walk = func(n *node) {
		if n == skip || n.kind == "comment" {
			return
		}
		if len(n.kids) == 0 || n.kind == "string_content" || n.kind == "string" {
			if n.start == n.end {
				return
			}
			if sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			sb.Write(t.src[n.start:n.end])
			return
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	if n != nil {
		walk(n)
	}
	return sb.String()
}

// walk calls f for n and its descendants in source order; f returning
// false skips the node's children.
func walk(n *node, f func(*node) bool) {
	if n == nil || !f(n) {
		return
	}
	for _, k := range n.kids {
		walk(k, f)
	}
}

// unparen strips parentheses around an expression.
func unparen(n *node) *node {
	for n != nil && n.kind == "parenthesized_expression" {
		inner := n.namedKids()
		if len(inner) != 1 {
			return n
		}
		n = inner[0]
	}
	return n
}

// compact is a node's source with runs of whitespace collapsed: how a
// short expression (an annotation, a default) is shown and compared.
func compact(n *node) string {
	if n == nil {
		return ""
	}
	return strings.Join(strings.Fields(n.text()), " ")
}
