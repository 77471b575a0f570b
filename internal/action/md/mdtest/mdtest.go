// Package mdtest reads Markdown as a CommonMark parser does (goldmark),
// for tests that hold what the action writes to the shape GitHub
// renders: which fenced code blocks a body has and what they hold, and
// whether a hidden marker or a closing tag is HTML or was swallowed by a
// code block left open.
package mdtest

import (
	"fmt"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Fence is one fenced code block.
type Fence struct {
	Info    string // the info string: "suggestion", "diff"
	Content string // its lines, each ending in a newline
}

// Doc is what a parser sees in a Markdown document.
type Doc struct {
	Fences []Fence
	// HTML is the raw HTML of the document, block and inline, in order:
	// where hidden markers and <details> tags must be.
	HTML []string
	// Code is the text of every code block and code span.
	Code []string
}

// Parse reads s.
func Parse(s string) *Doc {
	src := []byte(s)
	root := goldmark.New().Parser().Parse(text.NewReader(src))
	d := &Doc{}
	lines := func(segs *text.Segments) string {
		var b strings.Builder
		for i := 0; i < segs.Len(); i++ {
			seg := segs.At(i)
			b.Write(seg.Value(src))
		}
		return b.String()
	}
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock:
			info := ""
			if n.Info != nil {
				info = string(n.Info.Segment.Value(src))
			}
			c := lines(n.Lines())
			d.Fences = append(d.Fences, Fence{Info: info, Content: c})
			d.Code = append(d.Code, c)
		case *ast.CodeBlock:
			d.Code = append(d.Code, lines(n.Lines()))
		case *ast.CodeSpan:
			var b strings.Builder
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					b.Write(t.Segment.Value(src))
				}
			}
			d.Code = append(d.Code, b.String())
		case *ast.HTMLBlock:
			h := lines(n.Lines())
			if n.HasClosure() {
				h += string(n.ClosureLine.Value(src))
			}
			d.HTML = append(d.HTML, h)
		case *ast.RawHTML:
			d.HTML = append(d.HTML, lines(n.Segments))
		}
		return ast.WalkContinue, nil
	})
	return d
}

// Problems says what is wrong with s as a body GitHub renders: each of
// markers (hidden HTML comments a later run reads back) must be raw
// HTML, not text nor code; every <details> must be closed by a
// </details> that is HTML too. An empty list means well formed.
func Problems(s string, markers ...string) []string {
	d := Parse(s)
	html := strings.Join(d.HTML, "\n")
	var out []string
	for _, m := range markers {
		if !strings.Contains(html, m) {
			out = append(out, fmt.Sprintf("marker %q is not HTML (swallowed by a code block, or missing)", m))
		}
	}
	if o, c := strings.Count(html, "<details"), strings.Count(html, "</details>"); o != c {
		out = append(out, fmt.Sprintf("%d <details> opened as HTML, %d closed", o, c))
	}
	return out
}
