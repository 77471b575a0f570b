package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/ripple-dev/ripple/internal/model"
)

// codePointColumn converts a 1-based UTF-8 byte column in line (as in
// go/token and model.Site.Col) to a 1-based column counted in Unicode code
// points (SARIF's columnKind "unicodeCodePoints"). A column inside a
// multi-byte character is moved back to the start of that character;
// invalid bytes count as one code point each. It reports false when the
// column cannot be converted: col < 1, line empty, or col past the end of
// the line plus one (the text does not match the column).
func codePointColumn(line string, col int) (int, bool) {
	if col < 1 || line == "" || col-1 > len(line) {
		return 0, false
	}
	off := col - 1
	for off > 0 && off < len(line) && !utf8.RuneStart(line[off]) {
		off--
	}
	return utf8.RuneCountInString(line[:off]) + 1, true
}

// uriPath turns a repository-relative path into a relative URI reference:
// each segment percent-encoded (spaces become %20, non-ASCII bytes are
// encoded as UTF-8), separators kept as '/'. A colon is encoded too, so
// that a first segment such as "c:x" cannot read as a URI scheme.
func uriPath(p string) string {
	p = strings.TrimPrefix(p, "./")
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(url.PathEscape(s), ":", "%3A")
	}
	return strings.Join(segs, "/")
}

// rootURI is the file URI of a directory, ending in '/': /work/my repo
// becomes file:///work/my%20repo/. A relative path is made absolute.
func rootURI(dir string) string {
	if !filepath.IsAbs(dir) {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
	}
	p := strings.TrimRight(filepath.ToSlash(dir), "/")
	if !strings.HasPrefix(p, "/") { // Windows: C:/x
		p = "/" + p
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s) // keeps a drive letter's colon
	}
	return "file://" + strings.Join(segs, "/") + "/"
}

// fingerprint is the stable identity of a reported finding, independent
// of line numbers: the hex SHA-256 of the rule, the seed's display name,
// the site's path, its enclosing declaration and its trimmed source line.
// The n-th (n > 1) finding of a run with the same identity mixes n in, so
// that identical lines in one declaration stay distinct.
func fingerprint(f *model.Finding, n int) string {
	seedName := ""
	if b := displayBlock(f.Change); b != nil {
		seedName = b.Display
	}
	h := sha256.New()
	for _, s := range []string{f.Rule(), seedName, f.Site.Path, f.Site.Enclosing, trimmed(f.Site)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	if n > 1 {
		fmt.Fprintf(h, "%d", n)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// fingerprints computes fingerprint for every finding of fs (in report
// order): reported findings first, so that their occurrence numbers, and
// so their fingerprints, do not depend on whether unreported findings are
// shown.
func fingerprints(fs []*model.Finding) map[*model.Finding]string {
	seen := map[string]int{}
	out := make(map[*model.Finding]string, len(fs))
	for _, pass := range []bool{true, false} {
		for _, f := range fs {
			if reported(f) != pass {
				continue
			}
			base := fingerprint(f, 1)
			seen[base]++
			out[f] = fingerprint(f, seen[base])
		}
	}
	return out
}

// duration formats milliseconds for the totals line: "850ms", "3.2s".
func duration(ms int64) string {
	if ms < 1000 {
		return fmt.Sprintf("%dms", ms)
	}
	return fmt.Sprintf("%.1fs", float64(ms)/1000)
}

// truncate shortens s to at most width runes, ending in "…" when cut.
func truncate(s string, width int) string {
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	n := 0
	for i := range s {
		if n == width-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
