// Package oracle runs a validity oracle on a state of a repository (the
// build, the type checker, optionally the tests) and turns its
// diagnostics into data: file, line, column, message, and which tool said
// it. The fix engine (internal/fix) seeds its next planning round from
// these diagnostics and commits nothing that does not pass.
//
// Go: `go build ./...` (objects discarded, executables written to a
// temporary directory, never into the tree) then `go vet` on the affected
// packages (vet type-checks test files too), optionally `go test` of the
// affected packages. The tools' real text output is parsed
// (parse.go; golden tests on captured output in testdata/).
//
// Python: pyright (`pyright --outputjson` on the affected files; its
// errors count, its warnings do not), found on PATH or in the user cache,
// else installed there with npm (PyrightVersion), else a clear error.
//
// TypeScript and JavaScript: tsc of TypeScript 7 (TSCVersion; `tsc
// --noEmit --pretty false`) on the projects that compile the change's
// files (tscproject.go: the configuration that includes each file, as tsc
// itself evaluates it with --showConfig), each flattened into a
// configuration Ripple writes to a temporary directory (tscrun.go: emit
// options dropped, options TypeScript 7 removed replaced, type libraries
// not installed dropped), found on PATH or in the user cache, else
// installed there with npm. Every error of those programs counts; a
// checkout without node_modules has many (modules not found), which the
// baseline excuses. The TypeScript front-end's type-precise tier runs
// the same machinery on the head state (TSCProjects, TSC.Run).
//
// An npm install says so first, in one line, on the writer the caller
// puts in the context (WithLog, install.go): the command line's stderr,
// the Action's log.
//
// Only what the change introduced counts (baseline.go): the fix engine
// runs the oracle on the base state too when the changed state fails,
// and Relative excuses the diagnostics the base already had (matched by
// tool, file and message, as a multiset). They are reported as
// Preexisting, neither block proof nor become obligations.
//
// All runs several oracles; each judges only its own language's files of
// the change, so a mixed repository is judged by both.
//
// Invariants: an oracle never modifies the directory it checks (module
// files are read-only: -mod=readonly unless the module vendors its
// dependencies); it is bounded by its context's deadline, and a timeout
// is an error that says which tool ran out of time; a missing tool is an
// error that says how to install it.
package oracle
