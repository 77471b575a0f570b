package golang

import (
	"go/ast"
	"go/parser"
	"strings"
	"testing"
)

// TestNotAssignable: values whose form proves they cannot have a field's
// new type, and values the syntax cannot judge (names, elided literals,
// interfaces, equal shapes).
func TestNotAssignable(t *testing.T) {
	for _, tc := range []struct{ value, to, want string }{
		{`&origin{}`, `[]*origin`, "a pointer is not a slice"},
		{`&origin{}`, `*origin`, ""},
		{`origin{}`, `*origin`, "a composite literal is not a pointer"},
		{`origin{}`, `[]origin`, ""}, // origin may be a slice type
		{`[]int{1}`, `[]string`, ""}, // element names: not compared
		{`[]int{1}`, `map[string]int`, "a slice is not a map"},
		{`make(map[string]*origin)`, `map[string][]*origin`, "value: a pointer is not a slice"},
		{`make(map[string]*origin)`, `map[string]*origin`, ""},
		{`make(chan int)`, `chan int`, ""},
		{`func(a string) string { return a }`, `func(string) (string, error)`, "a func returning 1 value is not a func returning 2"},
		{`func(a, b string) string { return a }`, `func(string) string`, "a func of 2 parameters is not a func of 1"},
		{`func(a ...string) {}`, `func([]string)`, "variadic and non-variadic funcs differ"},
		{`func(a string) (string, error) { return a, nil }`, `func(api.Args) (string, error)`, ""},
		{`new(int)`, `[]int`, "a pointer is not a slice"},
		{`"x"`, `[]byte`, "a constant is not a slice"},
		{`"x"`, `Name`, ""},
		{`nil`, `map[string]int`, ""},
		{`nil`, `struct{ X int }`, "nil is not a struct"},
		{`f()`, `[]int`, ""},
		{`v`, `func()`, ""},
		{`&origin{}`, `interface{ M() }`, ""},
		{`{1, 2}`, `*point`, ""}, // elided: typed by its context
	} {
		v, err := parser.ParseExpr(tc.value)
		if err != nil {
			v, err = parser.ParseExpr("T" + tc.value) // an elided literal: give it a type to parse
			if err != nil {
				t.Fatal(err)
			}
			v.(*ast.CompositeLit).Type = nil
		}
		got := notAssignable(v, tc.to)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s to %s: %q, want %q", tc.value, tc.to, got, tc.want)
		}
	}
}
