package java_test

import (
	"testing"

	"github.com/ripple-dev/ripple/internal/langtest"
)

// TestScenarios runs this front-end's scenarios through the whole check
// (internal/langtest describes the archives).
func TestScenarios(t *testing.T) {
	langtest.Scenarios(t, "testdata/scenarios/*.txtar")
}
