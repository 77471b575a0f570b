// Package gobuild is the Go oracle: `go build ./...` (objects discarded,
// executables written to a temporary directory, never into the tree)
// then `go vet` on the affected packages (vet type-checks test files
// too), optionally `go test` of the affected packages. The tools' real
// text output is parsed (parse.go; golden tests on captured output in
// testdata/). It implements oracle.Oracle; the Go front-end returns it
// (lang.Provable).
package gobuild
