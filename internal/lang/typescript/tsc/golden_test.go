package tsc

import (
	"testing"

	"github.com/ripple-dev/ripple/internal/oracle"
	"github.com/ripple-dev/ripple/internal/oracle/oracletest"
)

// TestParseTSCGolden parses captured output of the real tsc.
func TestParseTSCGolden(t *testing.T) {
	oracletest.Golden(t, "testdata/tsc_*.out", func(_ string, data []byte) ([]oracle.Diagnostic, error) {
		return tscDiagnostics(Parse(data), "/tmp/tsproj"), nil
	})
}
