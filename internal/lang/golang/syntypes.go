package golang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"

	"github.com/ripple-dev/ripple/internal/model"
)

// Types without the type checker (issue 11 item 2). When the code around
// a use of a retyped field could not be typed (a package not in the
// module cache, a type the push does not declare), some values still
// prove by their form alone that they cannot be assigned to the field's
// new type: a pointer (&T{...}, new(T)) is never a slice, a map or a
// func; a composite literal is never a pointer, a func or a channel; a
// func literal has exactly the parameters and results it writes; a
// make(...) has the type it names. Only type expressions written out
// (not names, whose underlying type the syntax does not know) are
// compared, so a mismatch is a proof.

// tkind is the kind of a type as its expression or a value's form shows.
type tkind int

const (
	tkUnknown tkind = iota // a name: any underlying type
	tkPointer
	tkSlice
	tkArray
	tkMap
	tkChan
	tkFunc
	tkStruct
	tkInterface
	tkComposite // a composite literal of a named type: struct, array, slice or map
	tkConst     // an untyped constant (a basic literal)
	tkNil
)

func (k tkind) String() string {
	return [...]string{"a value", "a pointer", "a slice", "an array", "a map", "a channel", "a func", "a struct", "an interface", "a composite literal", "a constant", "nil"}[k]
}

// typeExprKind is the kind a written type expression denotes.
func typeExprKind(e ast.Expr) tkind {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return typeExprKind(e.X)
	case *ast.StarExpr:
		return tkPointer
	case *ast.ArrayType:
		if e.Len == nil {
			return tkSlice
		}
		return tkArray
	case *ast.MapType:
		return tkMap
	case *ast.ChanType:
		return tkChan
	case *ast.FuncType:
		return tkFunc
	case *ast.StructType:
		return tkStruct
	case *ast.InterfaceType:
		return tkInterface
	}
	return tkUnknown
}

// valueKind is the kind of a value by its form, with the type
// expression that form names (nil when it names none).
func valueKind(e ast.Expr) (tkind, ast.Expr) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return valueKind(e.X)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			if _, ok := ast.Unparen(e.X).(*ast.CompositeLit); ok {
				return tkPointer, nil
			}
		}
	case *ast.CompositeLit:
		if e.Type == nil {
			return tkUnknown, nil // elided: the context gives its type
		}
		if k := typeExprKind(e.Type); k != tkUnknown {
			return k, e.Type
		}
		return tkComposite, nil
	case *ast.FuncLit:
		return tkFunc, e.Type
	case *ast.BasicLit:
		return tkConst, nil
	case *ast.Ident:
		if e.Name == "nil" {
			return tkNil, nil
		}
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok && len(e.Args) > 0 {
			switch id.Name {
			case "make":
				if k := typeExprKind(e.Args[0]); k != tkUnknown {
					return k, e.Args[0]
				}
			case "new":
				return tkPointer, nil
			}
		}
	}
	return tkUnknown, nil
}

// assignable reports whether a value of kind vk (with type expression
// vt, when its form names one) may be assigned to a variable of the type
// expression to: "" when it may (or the syntax cannot tell), else why not.
func assignable(vk tkind, vt ast.Expr, to ast.Expr) string {
	tk := typeExprKind(to)
	if tk == tkUnknown || tk == tkInterface || vk == tkUnknown {
		return ""
	}
	switch vk {
	case tkNil:
		if tk == tkStruct || tk == tkArray {
			return fmt.Sprintf("nil is not %s", tk)
		}
		return ""
	case tkConst:
		return fmt.Sprintf("a constant is not %s", tk)
	case tkComposite:
		switch tk {
		case tkPointer, tkFunc, tkChan:
			return fmt.Sprintf("a composite literal is not %s", tk)
		}
		return ""
	}
	if vk != tk {
		return fmt.Sprintf("%s is not %s", vk, tk)
	}
	if vt == nil {
		return ""
	}
	return sameShape(vt, to)
}

// sameShape compares two written type expressions of the same kind by
// their parts: "" when they may be identical.
func sameShape(a, b ast.Expr) string {
	a, b = ast.Unparen(a), ast.Unparen(b)
	ka, kb := typeExprKind(a), typeExprKind(b)
	if ka == tkUnknown || kb == tkUnknown || ka == tkInterface || kb == tkInterface {
		return ""
	}
	if ka != kb {
		return fmt.Sprintf("%s is not %s", ka, kb)
	}
	switch a := a.(type) {
	case *ast.StarExpr:
		return elemShape("pointer to", a.X, b.(*ast.StarExpr).X)
	case *ast.ArrayType:
		return elemShape("element:", a.Elt, b.(*ast.ArrayType).Elt)
	case *ast.ChanType:
		return elemShape("element:", a.Value, b.(*ast.ChanType).Value)
	case *ast.MapType:
		bm := b.(*ast.MapType)
		if why := elemShape("key:", a.Key, bm.Key); why != "" {
			return why
		}
		return elemShape("value:", a.Value, bm.Value)
	case *ast.FuncType:
		bf := b.(*ast.FuncType)
		ap, av := fieldList(a.Params)
		bp, bv := fieldList(bf.Params)
		ar, _ := fieldList(a.Results)
		br, _ := fieldList(bf.Results)
		switch {
		case len(ap) != len(bp):
			return fmt.Sprintf("a func of %s is not a func of %d", model.Plural(len(ap), "parameter", "parameters"), len(bp))
		case av != bv:
			return "variadic and non-variadic funcs differ"
		case len(ar) != len(br):
			return fmt.Sprintf("a func returning %s is not a func returning %d", model.Plural(len(ar), "value", "values"), len(br))
		}
	}
	return ""
}

func elemShape(what string, a, b ast.Expr) string {
	if why := sameShape(a, b); why != "" {
		return what + " " + why
	}
	return ""
}

// notAssignable says why value cannot be assigned to a field whose type
// is written newType: "" when it may be, or the syntax cannot tell.
func notAssignable(value ast.Expr, newType string) string {
	to, err := parser.ParseExpr(newType)
	if err != nil {
		return ""
	}
	vk, vt := valueKind(value)
	return assignable(vk, vt, to)
}
