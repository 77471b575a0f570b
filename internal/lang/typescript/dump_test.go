package typescript

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestDump prints the syntax tree of TSDUMP (a file) for development.
func TestDump(t *testing.T) {
	p := os.Getenv("TSDUMP")
	if p == "" {
		t.Skip("set TSDUMP to a file")
	}
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	tr := parse(p, src)
	var pr func(n *node, d int)
	pr = func(n *node, d int) {
		txt := ""
		if len(n.kids) == 0 {
			txt = " " + n.text()
		}
		f := ""
		if n.field != "" {
			f = n.field + ": "
		}
		if n.named || n.field != "" {
			fmt.Printf("%s%s%s%s\n", strings.Repeat("  ", d), f, n.kind, txt)
		}
		for _, k := range n.kids {
			pr(k, d+1)
		}
	}
	pr(tr.root, 0)
}
