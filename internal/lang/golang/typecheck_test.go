package golang

import "testing"

func TestHasWord(t *testing.T) {
	for _, c := range []struct {
		s, w string
		want bool
	}{
		{"cannot use x as fs value", "fs", true},
		{"refs and more", "fs", false},
		{"fs", "fs", true},
		{"p.fs.Open", "fs", true},
		{"fsx fs_", "fs", false},
		{"é.fs", "fs", true},
		{"x", "", false},
	} {
		if got := hasWord(c.s, c.w); got != c.want {
			t.Errorf("hasWord(%q, %q) = %v, want %v", c.s, c.w, got, c.want)
		}
	}
}
