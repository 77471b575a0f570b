package pyright

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/oracle/oracletest"

	"github.com/ripple-dev/ripple/internal/oracle"
)

// TestParsePyrightGolden parses captured output of the real pyright.
func TestParsePyrightGolden(t *testing.T) {
	oracletest.Golden(t, "testdata/pyright_*.json", func(_ string, data []byte) ([]oracle.Diagnostic, error) {
		return Parse(data, "/tmp/pyproj")
	})
}

// TestPyrightOracle runs the real pyright (installed through npm into the
// user cache when missing) on a broken and a fixed Python package.
func TestPyrightOracle(t *testing.T) {
	p := &Oracle{}
	if _, err := p.locate(context.Background()); err != nil {
		if err == ErrNotFound {
			t.Skip("no pyright and no npm on this machine")
		}
		// npm is here but could not install it (no registry): say so,
		// as a skip; .ci/run installs it beforehand where it can
		t.Skipf("pyright %s is not installed and npm could not install it: %v", Version, err)
	}
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pkg/__init__.py", "")
	write("pkg/lib.py", "def scale(x: int, y: int) -> int:\n    return x * y\n")
	write("pkg/use.py", "from pkg.lib import scale\n\n\ndef use() -> int:\n    return scale(2)\n")
	res, err := p.Check(context.Background(), dir, oracle.Options{Files: []string{"pkg/lib.py", "pkg/use.py", "README.md"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Pass || len(res.Diagnostics) != 1 || res.Diagnostics[0].Path != "pkg/use.py" || res.Diagnostics[0].Line != 5 {
		t.Fatalf("got %+v", res)
	}
	write("pkg/use.py", "from pkg.lib import scale\n\n\ndef use() -> int:\n    return scale(2, 3)\n")
	if res, err = p.Check(context.Background(), dir, oracle.Options{Files: []string{"pkg/use.py"}}); err != nil || !res.Pass {
		t.Fatalf("fixed package: %+v %v", res, err)
	}
	// a file under a dot-folder, which pyright's default exclude drops
	// even when it is named: judged, not passed unread
	write(".github/scripts/run.py", "from pkg.lib import scale\n\nscale(1)\n")
	res, err = p.Check(context.Background(), dir, oracle.Options{Files: []string{".github/scripts/run.py", "pkg/use.py"}})
	if err != nil || res.Pass || len(res.Diagnostics) != 1 || res.Diagnostics[0].Path != ".github/scripts/run.py" || res.Unanalysed != "" {
		t.Fatalf("dot-folder script: %+v %v", res, err)
	}
	// a repository whose own configuration excludes it: its choice
	// stands, and the pass says the file was not analysed
	write("pyrightconfig.json", `{"exclude": ["**/.github"]}`)
	res, err = p.Check(context.Background(), dir, oracle.Options{Files: []string{".github/scripts/run.py", "pkg/use.py"}})
	if err != nil || !res.Pass || !strings.Contains(res.Unanalysed, "analysed 1 of the 2") {
		t.Fatalf("excluded by the repository: %+v %v", res, err)
	}
	if err := os.Remove(filepath.Join(dir, "pyrightconfig.json")); err != nil {
		t.Fatal(err)
	}
	// a change without Python files is not pyright's business
	if res, err = p.Check(context.Background(), dir, oracle.Options{Files: []string{"main.go"}}); err != nil || !res.Pass || len(res.Ran) != 0 {
		t.Fatalf("Go-only change: %+v %v", res, err)
	}
}
