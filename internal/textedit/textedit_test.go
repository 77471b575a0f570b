package textedit

import (
	"testing"

	"github.com/ripple-dev/ripple/internal/model"
)

func TestApply(t *testing.T) {
	src := []byte("package p\n\nfunc f() { g(a, b) }\n")
	tests := []struct {
		name  string
		edits []model.TextEdit
		want  string
		err   bool
	}{
		{"rename", []model.TextEdit{{StartLine: 3, StartCol: 12, EndLine: 3, EndCol: 13, NewText: "h"}}, "package p\n\nfunc f() { h(a, b) }\n", false},
		{"args", []model.TextEdit{{StartLine: 3, StartCol: 14, EndLine: 3, EndCol: 18, NewText: "b, a"}}, "package p\n\nfunc f() { g(b, a) }\n", false},
		{"two", []model.TextEdit{
			{StartLine: 3, StartCol: 14, EndLine: 3, EndCol: 18, NewText: "x"},
			{StartLine: 1, StartCol: 9, EndLine: 1, EndCol: 10, NewText: "q"},
		}, "package q\n\nfunc f() { g(x) }\n", false},
		{"duplicate applied once", []model.TextEdit{
			{StartLine: 3, StartCol: 12, EndLine: 3, EndCol: 13, NewText: "h"},
			{StartLine: 3, StartCol: 12, EndLine: 3, EndCol: 13, NewText: "h"},
		}, "package p\n\nfunc f() { h(a, b) }\n", false},
		{"end of line", []model.TextEdit{{StartLine: 1, StartCol: 10, EndLine: 1, EndCol: 10, NewText: " // x"}}, "package p // x\n\nfunc f() { g(a, b) }\n", false},
		{"overlap", []model.TextEdit{
			{StartLine: 3, StartCol: 12, EndLine: 3, EndCol: 16, NewText: "x"},
			{StartLine: 3, StartCol: 14, EndLine: 3, EndCol: 18, NewText: "y"},
		}, "", true},
		{"line out of range", []model.TextEdit{{StartLine: 9, StartCol: 1, EndLine: 9, EndCol: 1}}, "", true},
		{"column out of range", []model.TextEdit{{StartLine: 1, StartCol: 40, EndLine: 1, EndCol: 41}}, "", true},
		{"backwards", []model.TextEdit{{StartLine: 3, StartCol: 14, EndLine: 3, EndCol: 12}}, "", true},
	}
	for _, tt := range tests {
		got, err := Apply(src, tt.edits)
		if (err != nil) != tt.err {
			t.Errorf("%s: err = %v, want error %v", tt.name, err, tt.err)
			continue
		}
		if err == nil && string(got) != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}
