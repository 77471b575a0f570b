package check_test

import (
	"testing"

	"github.com/ripple-dev/ripple/internal/langtest"
)

// TestScenarios runs the scenarios that cross languages (each
// front-end runs its own: internal/lang/LANG/scenario_test.go); the
// archive format is internal/langtest's.
func TestScenarios(t *testing.T) {
	langtest.Scenarios(t, "testdata/scenarios/*.txtar")
}
