package bump_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ripple-dev/ripple/internal/langtest"
)

// TestMain gives the scenarios a module cache of their own, made of
// their modcache/ sections (module@version/file), with the proxy off:
// a bump's versions are read from it, as on a machine that built both.
func TestMain(m *testing.M) {
	cache, err := os.MkdirTemp("", "ripple-bump-modcache-")
	if err == nil {
		err = fillCache(cache)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bump tests:", err)
		os.Exit(2)
	}
	os.Setenv("GOMODCACHE", cache)
	os.Setenv("GOPROXY", "off")
	os.Setenv("GOFLAGS", "-mod=mod")
	code := m.Run()
	os.RemoveAll(cache)
	os.Exit(code)
}

func fillCache(cache string) error {
	files, err := filepath.Glob("testdata/scenarios/*.txtar")
	if err != nil {
		return err
	}
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			return err
		}
		for _, af := range ar.Files {
			rest, ok := strings.CutPrefix(af.Name, "modcache/")
			if !ok {
				continue
			}
			p := filepath.Join(cache, filepath.FromSlash(rest))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, af.Data, 0o444); err != nil {
				return err
			}
		}
	}
	return nil
}

func TestScenarios(t *testing.T) { langtest.Scenarios(t, "testdata/scenarios/*.txtar") }
