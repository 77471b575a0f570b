package lang

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/model"
)

// EditBytes is the edit that replaces src[start:end] of the file at path
// with text, in model.TextEdit's terms (1-based lines, 1-based byte
// columns): what a front-end whose parser gives byte offsets (the
// tree-sitter ones) suggests as a fix.
func EditBytes(path string, src []byte, start, end int, text string) model.TextEdit {
	sl, sc := LineCol(src, start)
	el, ec := LineCol(src, end)
	return model.TextEdit{Path: path, StartLine: sl, StartCol: sc, EndLine: el, EndCol: ec, NewText: text}
}

// LineCol is the 1-based line and byte column of offset off in src.
func LineCol(src []byte, off int) (int, int) {
	line, start := 1, 0
	for i := 0; i < off && i < len(src); i++ {
		if src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, off - start + 1
}

// OnlyDecl is the block-shape rule of a BlockEditor: of decls (the
// declarations of a file after the fix engine replaced lines from..to),
// none crosses the block's edges and exactly one outermost declaration
// lies inside, the one named block. name turns a Display into the name
// compared ("def C.m" -> "C.m"); noun says what a declaration is called
// in the language's messages ("definitions"). It returns that
// declaration.
func OnlyDecl(decls []*Decl, block string, from, to int, noun string, name func(display string) string) (*Decl, error) {
	var inside []*Decl
	for _, d := range decls {
		s, e := d.Span.StartLine, d.Span.EndLine
		if e < from || s > to {
			continue
		}
		if s < from && e >= from && e < to || s > from && s <= to && e > to {
			return nil, fmt.Errorf("%s (lines %d-%d) crosses the edges of the block (lines %d-%d)", d.Display, s, e, from, to)
		}
		if s >= from && e <= to {
			inside = append(inside, d)
		}
	}
	var outer []*Decl
	for _, d := range inside {
		nested := false
		for _, o := range inside {
			if o != d && o.Span.StartLine <= d.Span.StartLine && d.Span.EndLine <= o.Span.EndLine && o.Span != d.Span {
				nested = true
			}
		}
		if !nested {
			outer = append(outer, d)
		}
	}
	if len(outer) != 1 {
		var found []string
		for _, d := range outer {
			found = append(found, fmt.Sprintf("%s at line %d", d.Display, d.Span.StartLine))
		}
		return nil, fmt.Errorf("the new block (lines %d-%d) holds %d %s (%s), want exactly %s", from, to, len(outer), noun, strings.Join(found, ", "), block)
	}
	if name(outer[0].Display) != name(block) {
		return nil, fmt.Errorf("the new block %s %s, not %s", verbOf(noun), outer[0].Display, block)
	}
	return outer[0], nil
}

// verbOf is the verb the messages of OnlyDecl use with noun: a block
// "defines" definitions and "declares" declarations.
func verbOf(noun string) string {
	if strings.HasPrefix(noun, "definition") {
		return "defines"
	}
	return "declares"
}

// NewDecls is the shape rule of a Declarer's CheckNew: of decls (the
// declarations of a file after the fix engine added lines from..to),
// those of the kinds given that lie at the top level inside the lines
// are the reply's; none may cross the lines' edges, none may take a
// name in taken, one must be want, and every line of src in the range
// that is not blank or a comment (comment tells) must lie inside one.
func NewDecls(decls []*Decl, src []byte, from, to int, want string, taken map[string]bool, kinds map[model.Kind]bool, comment func(line string) bool) error {
	var top []*Decl
	found := false
	for _, d := range decls {
		s, e := d.Span.StartLine, d.Span.EndLine
		if e < from || s > to || d.Kind == model.KindImport || d.Container != "" {
			continue
		}
		if s < from || e > to {
			return fmt.Errorf("%s (lines %d-%d) crosses the edges of the new code (lines %d-%d)", d.Display, s, e, from, to)
		}
		if !kinds[d.Kind] {
			continue
		}
		if taken[d.Name] {
			return fmt.Errorf("%s (line %d) is already declared in the module", d.Name, s)
		}
		found = found || d.Name == want
		top = append(top, d)
	}
	if len(top) == 0 {
		return fmt.Errorf("the reply declares nothing")
	}
	lines := strings.Split(string(src), "\n")
	for n := from; n <= to && n <= len(lines); n++ {
		l := strings.TrimSpace(lines[n-1])
		if l == "" || comment(l) {
			continue
		}
		inside := false
		for _, d := range top {
			inside = inside || d.Span.Contains(n)
		}
		if !inside {
			return fmt.Errorf("line %d is a statement, not a declaration: %s", n, l)
		}
	}
	if !found {
		return fmt.Errorf("the reply does not declare %s", want)
	}
	return nil
}
