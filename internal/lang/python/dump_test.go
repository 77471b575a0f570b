package python

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func dump(n *node, depth int) {
	txt := ""
	if len(n.kids) == 0 {
		txt = " " + fmt.Sprintf("%q", n.text())
	}
	f := ""
	if n.field != "" {
		f = n.field + ": "
	}
	fmt.Printf("%s%s%s%s\n", strings.Repeat("  ", depth), f, n.kind, txt)
	for _, k := range n.kids {
		dump(k, depth+1)
	}
}

func TestDump(t *testing.T) {
	src := os.Getenv("PYSRC")
	if src == "" {
		t.Skip()
	}
	dump(parse([]byte(src)).root, 0)
}
