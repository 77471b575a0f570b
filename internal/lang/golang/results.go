package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
)

// The compiler's words for a call's results that do not fit their use:
// the count in an assignment or a return, or the type of the one value
// in an assignment, a declaration or a return.
var (
	resultCountRE = regexp.MustCompile(`^(assignment mismatch: \d+ variables? but .* returns? \d+ values?|too many return values|not enough return values)`)
	resultTypeRE  = regexp.MustCompile(`^cannot use .* \(value of (?:type|interface type) .*\) as .* value in (assignment|variable declaration|return statement)`)
)

// ResultMisfit finds the call whose results a go build or vet message
// says do not fit the line's assignment, declaration or return
// (lang.ResultReader): the line's statement has one right-hand side (or
// returns one value), a call of a plain name, a package's name or a
// method of a variable.
func (fe *Frontend) ResultMisfit(path string, src []byte, line int, msg string) (lang.Missing, bool) {
	msg = strings.TrimSpace(msg)
	if !resultCountRE.MatchString(msg) && !resultTypeRE.MatchString(msg) {
		return lang.Missing{}, false
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return lang.Missing{}, false
	}
	var call *ast.CallExpr
	ast.Inspect(f, func(n ast.Node) bool {
		if call != nil || n == nil {
			return false
		}
		if p := fset.PositionFor(n.Pos(), false).Line; p > line || fset.PositionFor(n.End(), false).Line < line {
			return false // nothing inside it is on the line
		}
		var rhs []ast.Expr
		switch s := n.(type) {
		case *ast.AssignStmt:
			rhs = s.Rhs
		case *ast.ValueSpec:
			rhs = s.Values
		case *ast.ReturnStmt:
			rhs = s.Results
		default:
			return true
		}
		if fset.PositionFor(n.Pos(), false).Line != line || len(rhs) != 1 {
			return true
		}
		if c, ok := ast.Unparen(rhs[0]).(*ast.CallExpr); ok {
			call = c
		}
		return false
	})
	if call == nil {
		return lang.Missing{}, false
	}
	switch fn := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return lang.Missing{Name: fn.Name}, true
	case *ast.SelectorExpr:
		if x, ok := fn.X.(*ast.Ident); ok {
			return lang.Missing{Qualifier: x.Name, Name: fn.Sel.Name}, true
		}
	}
	return lang.Missing{}, false
}
