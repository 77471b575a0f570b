package tsc

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestParseTSCGolden parses captured output of the real tsc.
func TestParseTSCGolden(t *testing.T) {
	outs, _ := filepath.Glob("testdata/tsc_*.out")
	if len(outs) == 0 {
		t.Fatal("no captured outputs")
	}
	for _, out := range outs {
		name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(out), ".out"), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			ds := tscDiagnostics(Parse(data), "/tmp/tsproj")
			got, _ := json.MarshalIndent(ds, "", "  ")
			got = append(got, '\n')
			golden := strings.TrimSuffix(strings.TrimSuffix(out, ".out"), ".json") + ".golden"
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
