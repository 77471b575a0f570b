package javac

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ripple-dev/ripple/internal/oracle"
)

// Tool is the Diagnostic.Tool of javac's diagnostics.
const Tool = "javac"

var (
	// headRE is javac's "path:line: error: message" (its default format).
	headRE = regexp.MustCompile(`^(.+?\.java):(\d+): (error|warning): (.*)$`)
	// caretRE is the line under the quoted source that points at the
	// column.
	caretRE = regexp.MustCompile(`^[ \t]*\^[ \t]*$`)
	spaces  = regexp.MustCompile(`\s+`)
)

// Parse turns javac's text output (its default diagnostic format) into
// diagnostics: errors only (warnings and notes are not failures), the
// column read from the caret under the quoted source line, the detail
// lines that follow ("symbol: class Foo", "required: int,int") joined to
// the message with "; ", paths relative to dir and no absolute path left
// in a message. Errors without a position ("error: invalid flag")
// become diagnostics without a path.
func Parse(out []byte, dir string) []oracle.Diagnostic {
	text := strings.ToValidUTF8(strings.ReplaceAll(string(out), "\r\n", "\n"), "\uFFFD")
	lines := strings.Split(text, "\n")
	var ds []oracle.Diagnostic
	cur := -1         // index in ds of the diagnostic whose details follow
	skipping := false // inside a warning
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if m := headRE.FindStringSubmatch(line); m != nil {
			col := 0
			if i+2 < len(lines) && caretRE.MatchString(lines[i+2]) {
				col = utf8.RuneCountInString(strings.TrimRight(lines[i+2], " \t"))
				i += 2
			}
			if m[3] == "warning" {
				cur, skipping = -1, true
				continue
			}
			n, _ := strconv.Atoi(m[2])
			ds = append(ds, oracle.Diagnostic{Path: oracle.RelPath(m[1], dir), Line: n, Col: col, Message: m[4], Tool: Tool})
			cur, skipping = len(ds)-1, false
			continue
		}
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			continue
		case strings.HasPrefix(line, " ") && (cur >= 0 || skipping):
			if cur >= 0 {
				sep := "; "
				if strings.HasSuffix(ds[cur].Message, ";") {
					sep = " "
				}
				ds[cur].Message += sep + spaces.ReplaceAllString(trimmed, " ")
			}
			continue
		case strings.HasPrefix(line, "error: "):
			ds = append(ds, oracle.Diagnostic{Message: strings.TrimPrefix(line, "error: "), Tool: Tool})
			cur, skipping = len(ds)-1, false
			continue
		}
		cur, skipping = -1, false // a summary ("3 errors"), a note, a warning without position
	}
	for i := range ds {
		ds[i].Message = pathFree(ds[i].Message, dir)
	}
	return ds
}

// pathFree removes the work tree's absolute path from a message (the
// baseline compares messages, and the base state is judged elsewhere).
func pathFree(msg, dir string) string {
	if dir == "" || !filepath.IsAbs(dir) {
		return msg
	}
	d := filepath.ToSlash(filepath.Clean(dir))
	msg = strings.ReplaceAll(filepath.ToSlash(msg), d+"/", "")
	return strings.ReplaceAll(msg, d, ".")
}
