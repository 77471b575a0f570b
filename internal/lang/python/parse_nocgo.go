//go:build !cgo

package python

// parserAvailable is false: tree-sitter is a C library and this binary
// was built with CGO_ENABLED=0. Every Python file then yields one
// diagnostic and no declarations; Go analysis is unaffected.
const parserAvailable = false

func parse(src []byte) *tree {
	t := &tree{src: src, errLine: 0, errors: 1}
	t.root = &node{kind: "module", line: 1, eline: 1, t: t}
	return t
}
