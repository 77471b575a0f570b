package bump_test

import (
	"archive/zip"
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
	index, err := os.MkdirTemp("", "ripple-bump-pypi-")
	if err == nil {
		err = fillIndex(index)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bump tests:", err)
		os.Exit(2)
	}
	// the Python scenarios' index: a local one, as pip reads file:// URLs
	os.Setenv("PIP_INDEX_URL", "file://"+filepath.ToSlash(index))
	os.Setenv("GOMODCACHE", cache)
	os.Setenv("GOPROXY", "off")
	os.Setenv("GOFLAGS", "-mod=mod")
	code := m.Run()
	os.RemoveAll(cache)
	os.RemoveAll(index)
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

// fillIndex makes a package index of the scenarios' pypi/NAME@VERSION/
// sections: each a pure-Python wheel of the files under it (with a
// dist-info of its own unless the section has one), listed on the
// project's page as PEP 503 says.
func fillIndex(index string) error {
	files, err := filepath.Glob("testdata/scenarios/*.txtar")
	if err != nil {
		return err
	}
	byDist := map[string][]txtar.File{}
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			return err
		}
		for _, af := range ar.Files {
			rest, ok := strings.CutPrefix(af.Name, "pypi/")
			if !ok {
				continue
			}
			nv, rel, _ := strings.Cut(rest, "/")
			byDist[nv] = append(byDist[nv], txtar.File{Name: rel, Data: af.Data})
		}
	}
	pages := map[string][]string{}
	for nv, fs := range byDist {
		name, version, _ := strings.Cut(nv, "@")
		file := strings.ReplaceAll(name, "-", "_") + "-" + version + "-py3-none-any.whl"
		dir := filepath.Join(index, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		w, err := os.Create(filepath.Join(dir, file))
		if err != nil {
			return err
		}
		zw := zip.NewWriter(w)
		info := strings.ReplaceAll(name, "-", "_") + "-" + version + ".dist-info/"
		hasInfo := false
		for _, f := range fs {
			hasInfo = hasInfo || strings.Contains(f.Name, ".dist-info/")
			fw, err := zw.Create(f.Name)
			if err != nil {
				return err
			}
			fw.Write(f.Data)
		}
		if !hasInfo {
			fw, _ := zw.Create(info + "METADATA")
			fmt.Fprintf(fw, "Metadata-Version: 2.1\nName: %s\nVersion: %s\n", name, version)
		}
		if err := zw.Close(); err != nil {
			return err
		}
		w.Close()
		pages[name] = append(pages[name], fmt.Sprintf(`<a href="%s">%s</a><br/>`, file, file))
	}
	for name, links := range pages {
		page := "<!DOCTYPE html><html><body>\n" + strings.Join(links, "\n") + "\n</body></html>\n"
		if err := os.WriteFile(filepath.Join(index, name, "index.html"), []byte(page), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func TestScenarios(t *testing.T) { langtest.Scenarios(t, "testdata/scenarios/*.txtar") }
