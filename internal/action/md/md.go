package md

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxInline is the longest run of untrusted text written inline.
const MaxInline = 300

// flatten replaces line breaks and control characters with spaces and
// cuts s at max runes with "…".
func flatten(s string, max int) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == max {
			b.WriteString("…")
			break
		}
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			r = ' '
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// Text escapes s for use as Markdown prose.
func Text(s string) string {
	s = flatten(s, MaxInline)
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '`', '*', '_', '{', '}', '[', ']', '(', ')', '#', '+', '-', '!', '|', '~', '>', '<', '&':
			switch r {
			case '<':
				b.WriteString("&lt;")
			case '>':
				b.WriteString("&gt;")
			case '&':
				b.WriteString("&amp;")
			default:
				b.WriteByte('\\')
				b.WriteRune(r)
			}
		case '@':
			b.WriteString("@\u200d")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Code writes s as one inline code span. Mentions do not notify inside
// code spans; '|' is escaped for tables (GitHub unescapes it there).
func Code(s string) string {
	s = flatten(s, MaxInline)
	if strings.TrimSpace(s) == "" {
		return ""
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

// Cell is Code or Text made safe inside a table cell.
func Cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// Fence returns a code fence for block: at least three backticks, and
// more than its longest run of backticks.
func Fence(block string) string {
	n := longestRun(block, '`') + 1
	if n < 3 {
		n = 3
	}
	return strings.Repeat("`", n)
}

func longestRun(s string, c rune) int {
	best, cur := 0, 0
	for _, r := range s {
		if r == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

// Link writes [text](url), text escaped; without a url it is the text
// alone.
func Link(text, url string) string {
	if url == "" {
		return text
	}
	return "[" + text + "](" + strings.NewReplacer("(", "%28", ")", "%29", " ", "%20").Replace(url) + ")"
}

// Truncate cuts s to at most n bytes on a line boundary when it can,
// appending tail; s itself when it fits.
func Truncate(s string, n int, tail string) string {
	if len(s) <= n {
		return s
	}
	cut := n - len(tail)
	if cut < 0 {
		cut = 0
	}
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if i := strings.LastIndexByte(s[:cut], '\n'); i > cut/2 {
		cut = i + 1
	}
	return s[:cut] + tail
}

// TruncateMarkdown cuts the Markdown document s to at most n bytes, as
// Truncate does, and keeps what is left well formed: a fenced code block
// the cut leaves open is closed (else it would swallow tail and whatever
// a caller appends, such as a hidden marker), and so is every <details>
// element left open. tail follows the closings. Bytes bound GitHub's
// limits, counted in characters, from above. When even the closings do
// not fit in n, the cut is made earlier.
func TruncateMarkdown(s string, n int, tail string) string {
	if len(s) <= n {
		return s
	}
	budget := n - len(tail)
	for budget > 0 {
		head := Truncate(s, budget, "")
		if head != "" && !strings.HasSuffix(head, "\n") {
			head += "\n"
		}
		out := head + closings(head) + tail
		if len(out) <= n {
			return out
		}
		budget -= len(out) - n
	}
	if len(tail) <= n {
		return tail
	}
	return ""
}

// closings is what closes the fenced code block and the <details>
// elements that the Markdown document s leaves open. Fences are those of
// CommonMark (at most three spaces of indentation, three or more
// backticks or tildes, closed by a longer or equal run of the same
// character); <details> and </details> are counted on lines outside
// code blocks.
func closings(s string) string {
	fence := ""
	details := 0
	for _, line := range strings.Split(s, "\n") {
		t := strings.TrimLeft(line, " ")
		if len(line)-len(t) > 3 {
			continue // indented code (or a continuation): neither opens nor closes
		}
		if fence != "" {
			if run := leadingRun(t); len(run) >= len(fence) && run[0] == fence[0] && strings.TrimSpace(t[len(run):]) == "" {
				fence = ""
			}
			continue
		}
		if run := leadingRun(t); len(run) >= 3 && (run[0] == '~' || !strings.Contains(t[len(run):], "`")) {
			fence = run
			continue
		}
		details += strings.Count(t, "<details") - strings.Count(t, "</details>")
	}
	var b strings.Builder
	if fence != "" {
		b.WriteString(fence + "\n")
	}
	for ; details > 0; details-- {
		b.WriteString("\n</details>\n")
	}
	return b.String()
}

// leadingRun is the run of backticks or tildes that t starts with.
func leadingRun(t string) string {
	if t == "" || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	i := 0
	for i < len(t) && t[i] == t[0] {
		i++
	}
	return t[:i]
}
