// Package treesit is the tree-sitter plumbing the syntax-only front-ends
// share (internal/lang/python, internal/lang/typescript): a grammar's
// parser pool, the flat copy of a tree into Go nodes, and the build
// without cgo. A front-end declares one Grammar per tree-sitter grammar
// and reads Trees of Nodes; kinds and field names are its grammar's.
//
// # The flat copy (parse_cgo.go, node.go)
//
// A tree is copied once into Go nodes so that the analysis is plain Go
// and the C tree is freed at once. The copy is one cgo call per file: a
// small C walker (flatten) writes every node, in pre-order, into a flat
// array (byte offsets, 1-based start and end lines, start column, parent
// index, symbol and field ids, named and error flags), declared against
// tree-sitter's stable C API and linked from the bindings' own cgo
// package (github.com/tree-sitter/go-tree-sitter v0.25.0). Go then builds
// every Node of the file in one slice, every child list in one backing
// array, with kinds and field names interned from the grammar's tables.
// The same copy through the Go binding's TreeCursor (eight cgo calls per
// node) cost about 1.7 times the parse itself; the flat copy costs a
// fifth of it (figures in the Python front-end's doc.go). Memory: about
// 100 bytes of Go nodes per syntax node, some 24 bytes per byte of
// source, only for the files a check reads.
//
// ERROR and MISSING nodes are copied as Bad nodes of kind "ERROR" and
// counted (Tree.Errors, Tree.ErrLine): tree-sitter recovers locally, so a
// front-end keeps what lies outside an error and skips what lies inside.
// Tree.Diagnostic is the one diagnostic of a file with errors ("does not
// parse (Label grammar): syntax error (and N more)"), marked Partial.
//
// # The parse pool (parse_cgo.go)
//
// A Grammar loads its language and tables once, on first use, and keeps
// its tree-sitter parsers in a sync.Pool: Parse is safe for concurrent
// use, and the corpus's parse workers (internal/corpus) each take a
// parser instead of creating one per file. RawParse parses without the
// copy, for measurements (each front-end's BenchmarkParseCorpus).
//
// # Without cgo (parse_nocgo.go)
//
// tree-sitter is C, so parsing needs cgo and a C compiler. With
// CGO_ENABLED=0 the package still builds and Available is false: Parse
// returns an empty tree (its root of kind Grammar.Root) with one error,
// and Diagnostic gives the grammar's NoCgo message, which says how to
// rebuild. A front-end's grammar binding is itself a cgo package, so the
// front-end sets Grammar.Load in a file built with cgo only and leaves it
// nil otherwise; its Decls report the NoCgo diagnostic and its analyzer
// is lang.Unavailable. Other languages are unaffected, and no finding is
// ever made up.
//
// Front-end tests check their grammars with package treesittest.
package treesit
