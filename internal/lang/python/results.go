package python

import (
	"regexp"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
)

// pyright's words for a value that does not fit its target: a tuple of
// the wrong size (or a non-iterable) unpacked, a value of the wrong type
// for a declared variable or a return.
var (
	resultMisfitRE = regexp.MustCompile(`cannot be assigned to target tuple|is incompatible with target tuple|^"[^"]*" is not iterable|is not assignable to declared type|is not assignable to return type`)
	// a statement whose one value is a call: targets = f(...), x: T =
	// f(...), return f(...)
	resultCallRE = regexp.MustCompile(`^\s*(?:return\s+|[\w\s,.*()\[\]:]+?=\s*)([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\(`)
)

// ResultMisfit finds the call whose value a pyright message says does
// not fit the line's unpacking, annotated assignment or return
// (lang.ResultReader): the statement's one value is the call (of a
// module-level name, or of a method through self or cls, or through an
// imported module's name).
func (fe *Frontend) ResultMisfit(path string, src []byte, line int, msg string) (lang.Missing, bool) {
	if !resultMisfitRE.MatchString(msg) {
		return lang.Missing{}, false
	}
	lines := strings.Split(string(src), "\n")
	if line < 1 || line > len(lines) {
		return lang.Missing{}, false
	}
	l := lines[line-1]
	m := resultCallRE.FindStringSubmatchIndex(l)
	if m == nil {
		return lang.Missing{}, false
	}
	// the call is the whole value: its parentheses close at the end of
	// the line (a comment aside), or on a later line
	depth := 0
	for i := m[1] - 1; i < len(l); i++ {
		switch l[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				rest := strings.TrimSpace(l[i+1:])
				if rest != "" && !strings.HasPrefix(rest, "#") {
					return lang.Missing{}, false
				}
				i = len(l)
			}
		case '"', '\'':
			// a string's brackets are not the call's
			q := l[i]
			for i++; i < len(l) && l[i] != q; i++ {
				if l[i] == '\\' {
					i++
				}
			}
		}
	}
	q, name, ok := strings.Cut(l[m[2]:m[3]], ".")
	if !ok {
		return lang.Missing{Name: q}, true
	}
	return lang.Missing{Qualifier: q, Name: name}, true
}
