package java_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ripple-dev/ripple/internal/langtest"
)

// TestScenarios runs this front-end's scenarios through the whole check
// (internal/langtest describes the archives).
func TestScenarios(t *testing.T) {
	langtest.Scenarios(t, "testdata/scenarios/*.txtar")
}

// TestTypesWithoutJavac runs the scenarios of a machine without a JDK:
// PATH holds only git, and JAVA_HOME is unset.
func TestTypesWithoutJavac(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	bin := t.TempDir()
	if err := os.Symlink(git, filepath.Join(bin, "git")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	t.Setenv("JAVA_HOME", "")
	langtest.Scenarios(t, "testdata/nojavac/*.txtar")
}
