// Package oracletest holds the oracles' golden test: each language's
// oracle package parses its tool's captured output (testdata/) and the
// diagnostics are compared with the golden file beside it.
package oracletest

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/oracle"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Golden parses each file the glob pattern matches with parse (given the
// file's name without its extension, "vet_type_errors", and its bytes)
// and compares the diagnostics, as indented JSON, with NAME.golden
// beside it; go test -update rewrites the golden files.
func Golden(t *testing.T, pattern string, parse func(name string, data []byte) ([]oracle.Diagnostic, error)) {
	t.Helper()
	outs, _ := filepath.Glob(pattern)
	if len(outs) == 0 {
		t.Fatalf("no captured outputs match %s", pattern)
	}
	for _, out := range outs {
		base := strings.TrimSuffix(out, filepath.Ext(out))
		name := filepath.Base(base)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			ds, err := parse(name, data)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.MarshalIndent(ds, "", "  ")
			got = append(got, '\n')
			golden := base + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if string(got) != string(want) {
				t.Errorf("%s: parse differs from %s (run go test -update to accept):\ngot:\n%s\nwant:\n%s", out, golden, got, want)
			}
		})
	}
}
