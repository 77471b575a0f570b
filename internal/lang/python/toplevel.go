package python

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// definitionKinds are the top-level nodes that are declarations of
// their own (Decls gives them): never a statement block.
var definitionKinds = treesit.KindSet("function_definition", "class_definition", "decorated_definition",
	"import_statement", "import_from_statement", "future_import_statement")

// Statement is the top-level statement of a module holding a line: an
// assignment, a call, an `if __name__ == "__main__":` block
// (lang.TopLevel). Its name is its first line, trimmed.
func (fe *Frontend) Statement(path string, src []byte, line int) (model.Span, string, bool) {
	if !treesit.Available {
		return model.Span{}, "", false
	}
	t := grammar.Parse(src)
	if t.Errors > 0 {
		return model.Span{}, "", false
	}
	for _, n := range t.Root.Kids {
		if !n.Named || n.Kind == "comment" || int(n.Line) > line || int(n.EndLine) < line {
			continue
		}
		if definitionKinds[n.Kind] {
			return model.Span{}, "", false
		}
		name := strings.TrimSpace(t.LineText(int(n.Line)))
		if len(name) > 72 {
			name = name[:72]
		}
		return model.Span{StartLine: int(n.Line), EndLine: int(n.EndLine)}, name, true
	}
	return model.Span{}, "", false
}

// CheckStatement judges a replacement of top-level statements
// (lang.TopLevel): the module still parses, no statement crosses the
// edges of lines [from, to], and none of those inside defines a
// function or a class or imports (a block of statements stays one).
func (fe *Frontend) CheckStatement(path string, src []byte, from, to int) error {
	if !treesit.Available {
		return fmt.Errorf("%s: %s", path, grammar.NoCgo)
	}
	t := grammar.Parse(src)
	if t.Errors > 0 {
		return fmt.Errorf("the file no longer parses (line %d)", t.ErrLine)
	}
	n := 0
	for _, k := range t.Root.Kids {
		if !k.Named || k.Kind == "comment" || int(k.EndLine) < from || int(k.Line) > to {
			continue
		}
		if int(k.Line) < from || int(k.EndLine) > to {
			return fmt.Errorf("a statement (lines %d-%d) crosses the edges of the edited lines %d-%d", k.Line, k.EndLine, from, to)
		}
		if definitionKinds[k.Kind] {
			return fmt.Errorf("the new statements hold a %s (line %d): top-level code stays statements", strings.ReplaceAll(k.Kind, "_", " "), k.Line)
		}
		n++
	}
	if n == 0 {
		return fmt.Errorf("the new text (lines %d-%d) holds no statement", from, to)
	}
	return nil
}
