package jsonc

import (
	"reflect"
	"testing"
)

func TestObject(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want map[string]any
	}{
		{`{"a": 1}`, map[string]any{"a": 1.0}},
		{"{\n  // a comment\n  \"a\": \"x // not a comment\", /* block */ \"b\": [1, 2,],\n}", map[string]any{"a": "x // not a comment", "b": []any{1.0, 2.0}}},
		{`{"s": "a \" quote, }"}`, map[string]any{"s": `a " quote, }`}},
		{`[1, 2]`, nil},
		{`{"a": `, nil},
		{``, nil},
	} {
		if got := Object([]byte(tc.in)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Object(%q) = %#v, want %#v", tc.in, got, tc.want)
		}
	}
}
