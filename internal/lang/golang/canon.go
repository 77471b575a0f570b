package golang

import (
	"go/ast"
	"go/types"
	"strings"
)

// canonType is a type expression's text in the form dependents rely on:
// the parameter and result names of a function type are dropped (a
// caller passing a func(a, b T) bool cannot tell it from a func(x T, y
// T) bool) and grouped parameters are written one by one. Everything
// else is types.ExprString's spelling.
func canonType(e ast.Expr) string {
	if e == nil {
		return ""
	}
	var b strings.Builder
	writeType(&b, e)
	return b.String()
}

func writeType(b *strings.Builder, e ast.Expr) {
	switch t := e.(type) {
	case *ast.FuncType:
		b.WriteString("func")
		writeFields(b, t.Params, true)
		if t.Results != nil && len(t.Results.List) > 0 {
			b.WriteString(" ")
			n := 0
			for _, f := range t.Results.List {
				n += max(1, len(f.Names))
			}
			if n == 1 {
				writeType(b, t.Results.List[0].Type)
			} else {
				writeFields(b, t.Results, true)
			}
		}
	case *ast.StarExpr:
		b.WriteString("*")
		writeType(b, t.X)
	case *ast.ArrayType:
		b.WriteString("[")
		if t.Len != nil {
			b.WriteString(types.ExprString(t.Len))
		}
		b.WriteString("]")
		writeType(b, t.Elt)
	case *ast.MapType:
		b.WriteString("map[")
		writeType(b, t.Key)
		b.WriteString("]")
		writeType(b, t.Value)
	case *ast.ChanType:
		switch t.Dir {
		case ast.SEND:
			b.WriteString("chan<- ")
		case ast.RECV:
			b.WriteString("<-chan ")
		default:
			b.WriteString("chan ")
		}
		writeType(b, t.Value)
	case *ast.Ellipsis:
		b.WriteString("...")
		writeType(b, t.Elt)
	case *ast.ParenExpr:
		writeType(b, t.X)
	case *ast.IndexExpr:
		writeType(b, t.X)
		b.WriteString("[")
		writeType(b, t.Index)
		b.WriteString("]")
	case *ast.IndexListExpr:
		writeType(b, t.X)
		b.WriteString("[")
		for i, x := range t.Indices {
			if i > 0 {
				b.WriteString(", ")
			}
			writeType(b, x)
		}
		b.WriteString("]")
	default:
		b.WriteString(types.ExprString(e))
	}
}

// writeFields writes a parameter list one type per parameter, without
// names: "(T, T, ...int)".
func writeFields(b *strings.Builder, fl *ast.FieldList, parens bool) {
	if parens {
		b.WriteString("(")
	}
	if fl != nil {
		i := 0
		for _, f := range fl.List {
			for range max(1, len(f.Names)) {
				if i > 0 {
					b.WriteString(", ")
				}
				writeType(b, f.Type)
				i++
			}
		}
	}
	if parens {
		b.WriteString(")")
	}
}

// canonTypeParams is a type parameter list one parameter at a time:
// [K, V comparable] and [K comparable, V comparable] are the same list.
func canonTypeParams(fl *ast.FieldList) string {
	if fl == nil || len(fl.List) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("[")
	i := 0
	for _, f := range fl.List {
		for _, n := range f.Names {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(n.Name + " ")
			writeType(&b, f.Type)
			i++
		}
	}
	b.WriteString("]")
	return b.String()
}
