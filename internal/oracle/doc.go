// Package oracle holds what every validity oracle shares: the Oracle
// interface (a state of a repository in, diagnostics out: file, line,
// column, message, and which tool said it), All (several oracles run
// together), the baseline that excuses what the base state already had,
// and the line an npm install says first. The fix engine (internal/fix)
// seeds its next planning round from the diagnostics and commits nothing
// that does not pass.
//
// Each language's oracle lives next to its front-end and is returned by
// it (lang.Provable):
//
//   - Go: internal/lang/golang/gobuild, `go build ./...` then `go vet` on
//     the affected packages, optionally `go test`.
//   - Python: internal/lang/python/pyright, `pyright --outputjson`.
//   - TypeScript and JavaScript: internal/lang/typescript/tsc, tsc of
//     TypeScript 7 on the projects that compile the change's files; the
//     front-end's type-precise tier runs the same machinery.
//   - Java: internal/lang/java/javac, javac on the modules holding the
//     change's files and those depending on them.
//
// The tools installed with npm are pinned there and listed by the
// registry (internal/languages, `hook tools`).
//
// An npm install says so first, in one line, on the writer the caller
// puts in the context (WithLog, install.go): the command line's stderr,
// the Action's log.
//
// Only what the change introduced counts (baseline.go): the fix engine
// runs the oracle on the base state too when the changed state fails,
// and Relative excuses the diagnostics the base already had (matched by
// tool, file, message and the text of their line first, then by tool,
// file and message, as a multiset; and a diagnostic that shows the
// checker lacked something, Diagnostic.Lacks, where the base lacked the
// same). They are reported as Preexisting, neither block proof nor
// become obligations. Each oracle fills Source (AddSources) and Lacks.
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
