// Package tsc runs tsc of TypeScript 7 (Version; `tsc --noEmit --pretty
// false`): the TypeScript oracle (Compiler.Check, tscoracle.go) and the
// machinery the front-end's type-precise tier shares with it. The
// projects that compile a change's files are found as tsc itself
// evaluates them with --showConfig (tscproject.go), each flattened into
// a configuration Ripple writes to a temporary directory (tscrun.go:
// emit options dropped, options TypeScript 7 removed replaced, type
// libraries not installed dropped). The compiler is found on PATH or in
// the user cache, else installed there with npm. Every error of those
// programs counts; a checkout without node_modules has many (modules
// not found), which the oracle's baseline excuses.
package tsc
