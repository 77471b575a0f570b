package javac

import (
	"testing"

	"github.com/ripple-dev/ripple/internal/oracle"
	"github.com/ripple-dev/ripple/internal/oracle/oracletest"
)

// TestParseGolden parses captured output of the real javac 17: errors
// with their details and caret columns (tabs in the quoted line
// included), warnings and notes dropped, absolute paths made relative,
// errors without a position.
func TestParseGolden(t *testing.T) {
	oracletest.Golden(t, "testdata/javac_*.out", func(_ string, data []byte) ([]oracle.Diagnostic, error) {
		return Parse(data, "/tmp/orc"), nil
	})
}
