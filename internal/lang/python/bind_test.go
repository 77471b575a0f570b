package python

import (
	"strings"
	"testing"
)

// sig builds a parameter list from a compact form: "a, b=1, *args, c, **kw",
// with "/" and "*" separators as in Python.
func sig(s string) []param {
	var out []param
	kind := posKw
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		switch {
		case f == "":
			continue
		case f == "/":
			for i := range out {
				out[i].kind = posOnly
			}
			continue
		case f == "*":
			kind = kwOnly
			continue
		}
		p := param{kind: kind}
		if name, def, ok := strings.Cut(f, "="); ok {
			p.name, p.hasDef, p.def = name, true, def
		} else {
			p.name = f
		}
		switch {
		case strings.HasPrefix(p.name, "**"):
			p.name, p.kind = p.name[2:], varKw
		case strings.HasPrefix(p.name, "*"):
			p.name, p.kind = p.name[1:], varArgs
			kind = kwOnly
		}
		out = append(out, p)
	}
	return out
}

func args(pos int, kws ...string) callArgs {
	a := callArgs{pos: pos}
	for _, k := range kws {
		switch k {
		case "*":
			a.posStar = true
		case "**":
			a.kwStar = true
		default:
			a.kws = append(a.kws, k)
		}
	}
	return a
}

func TestBind(t *testing.T) {
	for _, c := range []struct {
		params string
		args   callArgs
		want   string // "" binds; else a fragment of the error
	}{
		{"a, b", args(2), ""},
		{"a, b", args(1), "misses required argument b"},
		{"a, b", args(3), "passes 3 positional arguments; f now takes 2"},
		{"a, b=1", args(3), "now takes 1 to 2"},
		{"a, *args", args(5), ""},
		{"a, b", args(1, "b"), ""},
		{"a, b", args(1, "c"), "keyword argument c="},
		{"a, **kw", args(1, "c"), ""},
		{"a, b", args(2, "b"), "passes b both positionally and as b="},
		{"a, b, /", args(1, "b"), "it is now positional-only"},
		{"a, /, **kw", args(1, "a"), ""}, // a= goes to **kw
		{"a, *, b", args(1), "misses required argument b (keyword-only)"},
		{"a, *, b", args(2, "b"), "passes 2 positional arguments"},
		{"a, *, b", args(1, "**"), ""},
		{"a, b, c", args(1, "*"), ""},
		{"a, b, /", args(0, "**"), "misses required arguments a, b"},
		{"a, b", args(0, "**"), ""},
		{"", args(0), ""},
		{"", args(1), "passes 1 positional arguments; f now takes 0"},
	} {
		got := bind(sig(c.params), c.args, "f").err
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("bind(%q, %+v) = %q, want %q", c.params, c.args, got, c.want)
		}
	}
}

func TestShifted(t *testing.T) {
	for _, c := range []struct {
		old, new     string
		args         callArgs
		broken, warn string
	}{
		{"src, dst", "dst, src", args(2), "", "argument 1 now binds to dst (was src)"},
		{"src, dst", "dst, src", args(0, "src", "dst"), "", ""},
		{"path, color=None", "path, params, color=None", args(2), "argument 2, written for color, now fills params", ""},
		{"cmd_parts, color", "cmd_path, color", args(2), "", ""}, // renamed in place
		{"a, b=1, c=2", "a, c=2", args(2), "argument 2, written for b, now fills c", ""},
		{"a, retries=3", "a, retries=5", args(1), "", "relies on the default of retries, now 5 (was 3)"},
		{"a, retries=3", "a, retries=5", args(2), "", ""},
		{"*args", "cls, *args", args(3), "", "argument 1, once taken by *args, now fills the new parameter cls"},
		{"a, dumper=None, **kw", "a, dumps=None, **kw", args(1, "dumper"), "keyword dumper=, written for parameter dumper (now dumps), goes to **kwargs", ""},
		{"a, mode=None, **kw", "a, **kw", args(1, "mode"), "", "keyword mode= now goes to **kwargs (parameter mode removed)"},
	} {
		b, w := shifted(sig(c.old), sig(c.new), c.args, "f")
		if !strings.Contains(b, c.broken) || c.broken == "" && b != "" || !strings.Contains(w, c.warn) || c.warn == "" && w != "" {
			t.Errorf("shifted(%q → %q, %+v) = %q, %q; want %q, %q", c.old, c.new, c.args, b, w, c.broken, c.warn)
		}
	}
}

func TestAccepts(t *testing.T) {
	for _, c := range []struct {
		impl, base string
		want       bool
	}{
		{"method, url", "method, url", true},
		{"method, url", "request", false},
		{"request", "request", true},
		{"request, timeout=None", "request", true},
		{"request, timeout", "request", false},
		{"*args, **kwargs", "a, b, *, c", true},
		{"a, b", "a, b=1", false},
		{"a, b=1", "a, b=1", true},
		{"x, y", "a, b", false},
		{"a, *, c", "a, *, c", true},
		{"a", "a, *, c", false},
		{"a, **kw", "a, *, c", true},
	} {
		if got := accepts(sig(c.impl), sig(c.base)); got != c.want {
			t.Errorf("accepts(%q, %q) = %v, want %v", c.impl, c.base, got, c.want)
		}
	}
}

func TestParamDetails(t *testing.T) {
	for _, c := range []struct {
		old, new string
		want     []string
	}{
		{"a, b", "a, b, c", []string{"required parameter c added"}},
		{"a, mode=None", "a", []string{"parameter mode removed"}},
		{"cmd_parts, color", "cmd_path, color", []string{"parameter cmd_parts renamed to cmd_path"}},
		{"src, dst", "dst, src", []string{"positional parameters reordered: (src, dst) → (dst, src)"}},
		{"a, b=1", "a, b", []string{"parameter b made required (default 1 removed)"}},
		{"a, b", "a, /, b", []string{"parameter a now positional-only (was positional-or-keyword)"}},
		{"a, b", "a, b, /", []string{"parameter a now positional-only (was positional-or-keyword)", "parameter b now positional-only (was positional-or-keyword)"}},
	} {
		got := paramDetails(sig(c.old), sig(c.new))
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("paramDetails(%q → %q) = %q, want %q", c.old, c.new, got, c.want)
		}
	}
}
