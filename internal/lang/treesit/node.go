package treesit

import (
	"bytes"
	"strings"
)

// Node is one node of a syntax tree, copied out of tree-sitter so that
// the analysis runs in Go without a cgo call per access and the C tree
// can be freed at once. Kinds and field names are the grammar's (its
// node-types.json), interned: comparing them is comparing strings the
// grammar's tables hold once.
type Node struct {
	Kind    string
	Field   string // the field this node fills in its parent, or ""
	Start   uint32 // byte offsets into the file
	End     uint32
	Line    int32 // 1-based line of the start
	EndLine int32 // 1-based line of the end
	Col     int32 // 0-based byte column of the start
	Named   bool
	Bad     bool // an ERROR or MISSING node (its Kind is then "ERROR")
	Parent  *Node
	Kids    []*Node
	Tree    *Tree // the tree the node belongs to
}

// Tree is one parsed file.
type Tree struct {
	Src  []byte
	Root *Node
	// ErrLine is the line of the first syntax error, 0 if none.
	ErrLine int
	// Errors counts the ERROR and MISSING nodes (1 for every file in a
	// binary built without cgo).
	Errors int
	// g is the grammar that parsed the tree, for its diagnostic.
	g *Grammar
}

// Text is the node's source.
func (n *Node) Text() string {
	if n == nil {
		return ""
	}
	return n.Tree.Text(n)
}

// KindOr is the node's kind, "" for nil (a child that is absent).
func (n *Node) KindOr() string {
	if n == nil {
		return ""
	}
	return n.Kind
}

// Child returns the first child filling field name, or nil.
func (n *Node) Child(field string) *Node {
	if n == nil {
		return nil
	}
	for _, k := range n.Kids {
		if k.Field == field {
			return k
		}
	}
	return nil
}

// Children returns the children filling field name.
func (n *Node) Children(field string) []*Node {
	if n == nil {
		return nil
	}
	var out []*Node
	for _, k := range n.Kids {
		if k.Field == field {
			out = append(out, k)
		}
	}
	return out
}

// NamedKids returns the named children, comments excluded.
func (n *Node) NamedKids() []*Node {
	if n == nil {
		return nil
	}
	out := make([]*Node, 0, len(n.Kids))
	for _, k := range n.Kids {
		if k.Named && k.Kind != "comment" {
			out = append(out, k)
		}
	}
	return out
}

// FirstOf returns the first child of a kind, or nil.
func (n *Node) FirstOf(kind string) *Node {
	if n == nil {
		return nil
	}
	for _, k := range n.Kids {
		if k.Kind == kind {
			return k
		}
	}
	return nil
}

// HasToken reports whether an anonymous child has the given kind (a
// keyword such as "async" or an operator).
func (n *Node) HasToken(kind string) bool {
	if n == nil {
		return false
	}
	for _, k := range n.Kids {
		if !k.Named && k.Kind == kind {
			return true
		}
	}
	return false
}

// Text is a node's source.
func (t *Tree) Text(n *Node) string {
	if n == nil || int(n.End) > len(t.Src) || n.Start > n.End {
		return ""
	}
	return string(t.Src[n.Start:n.End])
}

// LineText returns the whole line (without terminator) of a 1-based line.
func (t *Tree) LineText(line int) string {
	if line < 1 {
		return ""
	}
	src := t.Src
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

// Tokens is the canonical form of a subtree: its leaves separated by
// spaces, comments excluded (layout never counts), and the subtree skip
// (a docstring, say) left out. A "string" node and its "string_content"
// count as one leaf each, whatever they hold.
func (t *Tree) Tokens(n *Node, skip *Node) string {
	var sb strings.Builder
	var walk func(n *Node)
	walk = func(n *Node) {
		if n == skip || n.Kind == "comment" {
			return
		}
		if len(n.Kids) == 0 || n.Kind == "string_content" || n.Kind == "string" {
			if n.Start == n.End {
				return
			}
			if sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			sb.Write(t.Src[n.Start:n.End])
			return
		}
		for _, k := range n.Kids {
			walk(k)
		}
	}
	if n != nil {
		walk(n)
	}
	return sb.String()
}

// Walk calls f for n and its descendants in source order; f returning
// false skips the node's children.
func Walk(n *Node, f func(*Node) bool) {
	if n == nil || !f(n) {
		return
	}
	for _, k := range n.Kids {
		Walk(k, f)
	}
}

// Unparen strips parentheses around an expression.
func Unparen(n *Node) *Node {
	for n != nil && n.Kind == "parenthesized_expression" {
		inner := n.NamedKids()
		if len(inner) != 1 {
			return n
		}
		n = inner[0]
	}
	return n
}

// Compact is a node's source with runs of whitespace collapsed: how a
// short expression (an annotation, a default) is shown and compared.
func Compact(n *Node) string {
	if n == nil {
		return ""
	}
	return strings.Join(strings.Fields(n.Text()), " ")
}

// Reach is the byte range of the code around n that a checker's errors
// about it may stand in: the nearest statement holding it (a kind in
// statements; skip, when set, passes over one that only wraps n's
// declaration, such as an export statement); for n in the header of a
// declaration or compound statement (a kind in headers: its parameters,
// its heritage, an if's condition), that header only, up to its body or
// consequence.
func Reach(n *Node, headers, statements map[string]bool, skip func(p, n *Node) bool) (lo, hi int) {
	for p := n; p != nil; p = p.Parent {
		switch {
		case headers[p.Kind]:
			body := p.Child("body")
			if body == nil {
				body = p.Child("consequence")
			}
			if body != nil && n.Start >= body.Start && n.End <= body.End {
				continue // inside the body: a statement there is nearer
			}
			if body != nil {
				return int(p.Start), int(body.Start)
			}
			return int(p.Start), int(p.End)
		case statements[p.Kind]:
			if skip != nil && skip(p, n) {
				continue
			}
			return int(p.Start), int(p.End)
		}
	}
	return int(n.Start), int(n.End)
}

// KindSet makes a set of node kinds.
func KindSet(kinds ...string) map[string]bool {
	m := make(map[string]bool, len(kinds))
	for _, k := range kinds {
		m[k] = true
	}
	return m
}
