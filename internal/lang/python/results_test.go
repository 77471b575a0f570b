package python_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/python"
	"github.com/ripple-dev/ripple/internal/lang/python/pyright"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// TestResultMisfit holds ResultMisfit to pyright's own words: each line
// marked "# want NAME" (or "# want -") is where pyright reports an
// error, and ResultMisfit names the callee NAME from it (or none).
func TestResultMisfit(t *testing.T) {
	p := &pyright.Oracle{}
	if _, err := p.Locate(context.Background()); err != nil {
		t.Skipf("pyright not available: %v", err)
	}
	const src = `def pair():
    return 1, 2


def one() -> int:
    return 1


def take(s: str) -> None:
    pass


class C:
    def two(self):
        return 1, "a"

    def use(self):
        a, b, c = self.two()  # want self.two
        return a


def f():
    a, b, c = pair()  # want pair
    x, y = one()  # want one
    s: str = one()  # want one
    take(one())  # want -
    t, u, v = pair() + (3,)
    return a, x, y, s, t, u, v


def g() -> tuple[int, int, int]:
    return pair()  # want pair


if __name__ == "__main__":
    a, b, c = pair()  # want pair
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := p.Check(context.Background(), dir, oracle.Options{Files: []string{"m.py"}})
	if err != nil {
		t.Fatal(err)
	}
	msgs := map[int]string{}
	for _, d := range res.Diagnostics {
		if _, ok := msgs[d.Line]; !ok {
			msgs[d.Line] = d.Message
		}
	}
	fe := python.New()
	var _ lang.ResultReader = fe
	for i, l := range strings.Split(src, "\n") {
		line := i + 1
		_, want, marked := strings.Cut(l, "# want ")
		msg, reported := msgs[line]
		if !marked {
			if reported {
				if m, ok := fe.ResultMisfit("m.py", []byte(src), line, msg); ok {
					t.Errorf("line %d (%q): callee %+v, want none", line, msg, m)
				}
			}
			continue
		}
		if !reported {
			t.Errorf("line %d: pyright reports nothing", line)
			continue
		}
		m, ok := fe.ResultMisfit("m.py", []byte(src), line, msg)
		got := "-"
		if ok {
			got = m.Name
			if m.Qualifier != "" {
				got = m.Qualifier + "." + m.Name
			}
		}
		if got != want {
			t.Errorf("line %d (%q): callee %q, want %q", line, msg, got, want)
		}
	}
}
