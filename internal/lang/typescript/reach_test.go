package typescript

import (
	"strings"
	"testing"
)

func TestForwardSpecs(t *testing.T) {
	cases := []struct {
		src  string
		want string
	}{
		// only `export ... from` statements, when the file exports nothing
		// of its own list
		{"import { a } from './a';\nexport * from './b';\nexport function f() {}\nexport * as ns from \"./c\";\n", "./b ./c"},
		{"import { important } from './x';\nexport * as important2 from './y';\n", "./y"},
		{"// export * from './commented' is still read\nimport x from './z';\n", "./commented"},
		// a file that may export imported names: every specifier
		{"import { a } from './a';\nexport { a };\n", "./a"},
		{"import a from './a';\nexport default a;\n", "./a"},
		{"import type { T } from './t';\nexport type { T };\n", "./t"},
		{"const a = require('./a');\nmodule.exports = { a };\n", "./a"},
		{"exports.b = require('./b');\n", "./b"},
		{"import { a } from './a';\nexport { b } from './b';\n", "./a ./b"},
		{"export = require('./c');\n", "./c"},
		{"import './side';\nexport const x = 1;\n", ""},
	}
	for _, c := range cases {
		got := strings.Join(forwardSpecs([]byte(c.src)), " ")
		if sorted(got) != sorted(c.want) {
			t.Errorf("forwardSpecs(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

func sorted(s string) string {
	f := strings.Fields(s)
	for i := range f {
		for j := i + 1; j < len(f); j++ {
			if f[j] < f[i] {
				f[i], f[j] = f[j], f[i]
			}
		}
	}
	return strings.Join(f, " ")
}

func TestHasAnyWord(t *testing.T) {
	src := []byte("const total = sum(a_b);\nlet $x = 1; obj.value2 = subtotal\n")
	for w, want := range map[string]bool{
		"total": true, "sum": true, "a": false, "a_b": true, "x": true, "$x": true,
		"value": false, "value2": true, "sub": false, "obj": true, "let $": false,
	} {
		if got := hasAnyWord(src, []string{w}); got != want {
			t.Errorf("hasAnyWord(%q) = %v, want %v", w, got, want)
		}
	}
}

func TestIncludeMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, file string
		want          bool
	}{
		{"src", "src/a/b.ts", true},
		{"src", "srcx/a.ts", false},
		{"src/**/*", "src/a/b.ts", true},
		{"src/*.ts", "src/a.ts", true},
		{"src/*.ts", "src/a/b.ts", false},
		{"vite.config.ts", "vite.config.ts", true},
		{"vite.config.ts", "src/vite.config.ts", false},
		{"**", "a/b/c.ts", true},
		{"packages/*/src", "packages/ui/src/x.tsx", true},
	} {
		if got := includeMatch(c.pattern, c.file); got != c.want {
			t.Errorf("includeMatch(%q, %q) = %v, want %v", c.pattern, c.file, got, c.want)
		}
	}
}
