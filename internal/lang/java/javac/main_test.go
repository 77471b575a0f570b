package javac

import (
	"fmt"
	"os"
	"testing"
)

// testArchives is the class-data archive folder the package's tests
// share (hermeticCompiler), so that javac's classes are archived once.
var testArchives string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ripple-javac-test-cds-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "javac tests: no scratch folder for the class-data archive:", err)
		os.Exit(1)
	}
	testArchives = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
