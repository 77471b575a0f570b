package oracle

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// The regular expressions moduleStmt and ambientDecl replaced: the
// scans must say what they said.
var (
	ambientRE = regexp.MustCompile(`(?m)^\s*(?:export\s+)?declare\s+(?:global\b|module\s|namespace\s)`)
	moduleRE  = regexp.MustCompile(`(?m)^\s*(?:import|export)\b`)
)

func TestAmbientScan(t *testing.T) {
	cases := []string{
		"import x from 'y'\n", "  export const a = 1", "exports.a = 1", "const a = 1; import('x')",
		"declare global {}", "export declare module 'x' {}", "export  \n declare\nnamespace N {}",
		"declare module'x'", "declare globalThis", "declare namespace\tN", "export declare const x: 1",
		"// declare global\n", "\n\n   declare global{", "exportdeclare global", "export{}\ndeclare global {",
	}
	toks := []string{"export", "import", "declare", "global", "module", "namespace", " ", "\n", "\t", "{", "'x'", "x", "_", "//", "globalX", "\r\n"}
	r := rand.New(rand.NewSource(1))
	for n := 0; n < 30000; n++ {
		var b strings.Builder
		for k := r.Intn(10); k >= 0; k-- {
			b.WriteString(toks[r.Intn(len(toks))])
		}
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		src := []byte(c)
		if got, want := moduleStmt(src), moduleRE.Match(src); got != want {
			t.Errorf("moduleStmt(%q) = %v, want %v", c, got, want)
		}
		if got, want := ambientDecl(src), ambientRE.Match(src); got != want {
			t.Errorf("ambientDecl(%q) = %v, want %v", c, got, want)
		}
	}
}
