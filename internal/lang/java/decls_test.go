package java

import (
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

func needParser(t *testing.T) {
	t.Helper()
	if !treesit.Available {
		t.Skip("no cgo: the Java parser is not built in")
	}
}

// declsOf returns the declarations of src by Display, and the list of
// Displays in order.
func declsOf(t *testing.T, src string) (map[string]*lang.Decl, []string) {
	t.Helper()
	ds, diag := New().Decls("src/main/java/p/A.java", []byte(src))
	if diag != nil {
		t.Fatalf("diagnostic: %v", diag)
	}
	by := map[string]*lang.Decl{}
	var order []string
	for _, d := range ds {
		if by[d.Display] != nil {
			t.Errorf("two declarations displayed %q", d.Display)
		}
		by[d.Display] = d
		order = append(order, d.Display)
	}
	return by, order
}

const sample = `package p;

import java.util.List;

@Deprecated
public class A<T extends Comparable<T>> extends Base implements Runnable, java.io.Serializable {
    public static final int MAX = 3, MIN = 1;
    protected List<String> names;

    public A(int x) throws Exception { super(x); }

    @Override
    public void run() {}

    public int add(int a, int b) { return a + b; }

    public long add(long a, long b, long... more) { return a + b; }

    static <R> R convert(T t, Class<R> c) { return null; }

    interface Listener {
        void on(String e);

        default void off() {}
    }

    public record Point(int x, int y) {
        public Point {
            if (x < 0) throw new IllegalArgumentException();
        }

        int sum() { return x + y; }
    }

    enum Color {
        RED("r"), GREEN("g") { @Override public String toString() { return "G"; } };

        private final String code;

        Color(String code) { this.code = code; }
    }

    @interface Tag {
        String value() default "";
    }
}
`

func TestDecls(t *testing.T) {
	needParser(t)
	by, order := declsOf(t, sample)
	want := []string{
		"class A", "field A.MAX", "field A.MIN", "field A.names", "constructor A(int)", "method A.run()",
		"method A.add(int, int)", "method A.add(long, long, long...)", "method A.convert(T, Class<R>)",
		"interface A.Listener", "method A.Listener.on(String)", "method A.Listener.off()",
		"record A.Point", "record component A.Point.x", "record component A.Point.y", "constructor A.Point(int, int)", "method A.Point.sum()",
		"enum A.Color", "enum constant A.Color.RED", "enum constant A.Color.GREEN", "field A.Color.code", "constructor A.Color(String)",
		"annotation A.Tag", "method A.Tag.value()",
	}
	if strings.Join(order, "\n") != strings.Join(want, "\n") {
		t.Errorf("declarations:\n%s\nwant:\n%s", strings.Join(order, "\n"), strings.Join(want, "\n"))
	}
	checks := []struct {
		display, key string
		kind         model.Kind
		sig          string
	}{
		{"class A", "A", model.KindType, "public class <T extends Comparable<T>> extends Base implements Runnable, java.io.Serializable"},
		{"field A.MAX", "A.MAX", model.KindField, "public static final int"},
		{"constructor A(int)", "A.A", model.KindConstructor, "public (int) throws Exception"},
		// overloads share a key: the classifier pairs them by signature
		{"method A.add(int, int)", "A.add", model.KindMethod, "public int (int, int)"},
		{"method A.add(long, long, long...)", "A.add", model.KindMethod, "public long (long, long, long...)"},
		{"method A.convert(T, Class<R>)", "A.convert", model.KindMethod, "package-private static <R> R (T, Class<R>)"},
		{"method A.Listener.on(String)", "A.Listener.on", model.KindIfaceMethod, "public abstract void (String)"},
		{"method A.Listener.off()", "A.Listener.off", model.KindIfaceMethod, "public default void ()"},
		{"record A.Point", "A.Point", model.KindType, "public record static (int, int)"},
		{"constructor A.Point(int, int)", "A.Point.Point", model.KindConstructor, "public (int, int)"},
		{"enum constant A.Color.GREEN", "A.Color.GREEN", model.KindField, "enum constant"},
		{"annotation A.Tag", "A.Tag", model.KindInterface, "package-private annotation static"},
	}
	for _, c := range checks {
		d := by[c.display]
		if d == nil {
			t.Errorf("no %s", c.display)
			continue
		}
		if d.Key() != c.key || d.Kind != c.kind || d.Sig != c.sig {
			t.Errorf("%s: key %q kind %s sig %q, want %q %s %q", c.display, d.Key(), d.Kind, d.Sig, c.key, c.kind, c.sig)
		}
		if d.Package != "p" || d.Lang != "java" {
			t.Errorf("%s: package %q lang %q", c.display, d.Package, d.Lang)
		}
	}
	if d := by["method A.Listener.on(String)"]; d != nil && d.Container != "A.Listener" {
		t.Errorf("nested container %q, want A.Listener", d.Container)
	}
	if d := by["method A.add(int, int)"]; d != nil && (d.NameLine != 15 || d.Span.StartLine != 15) {
		t.Errorf("add at line %d (span %v), want 15", d.NameLine, d.Span)
	}
}

// A parameter renamed, a body or a comment changed: the signature stays.
func TestDeclsSigIgnoresNamesAndBodies(t *testing.T) {
	needParser(t)
	a, _ := declsOf(t, "package p;\nclass A { int f(int a) { return a; } }\n")
	b, _ := declsOf(t, "package p;\nclass A {\n  // doc\n  int f(final int b) { return b + 1; }\n}\n")
	x, y := a["method A.f(int)"], b["method A.f(int)"]
	if x == nil || y == nil {
		t.Fatal("no method A.f(int)")
	}
	if x.Sig != y.Sig || x.Body == y.Body {
		t.Errorf("sig %q / %q (want equal), body %q / %q (want different)", x.Sig, y.Sig, x.Body, y.Body)
	}
}

func TestDetails(t *testing.T) {
	needParser(t)
	a, _ := declsOf(t, "package p;\nclass A { public int f(int a) { return a; } String s; }\n")
	b, _ := declsOf(t, "package p;\nclass A { protected static long f(int a, String b) throws java.io.IOException { return a; } int s; }\n")
	got := New().Details(a["method A.f(int)"], b["method A.f(int, String)"])
	want := []string{"became static", "visibility changed from public to protected", "return type changed from int to long", "parameter String b added", "throws java.io.IOException added"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("details %q, want %q", got, want)
	}
	got = New().Details(a["field A.s"], b["field A.s"])
	if strings.Join(got, "; ") != "type changed from String to int" {
		t.Errorf("field details %q", got)
	}
}

// Bad input is a diagnostic, never a panic: a file that does not parse
// keeps the declarations outside the error; a file that is not UTF-8 is
// read with a diagnostic.
func TestBadInput(t *testing.T) {
	needParser(t)
	ds, diag := New().Decls("A.java", []byte("package p;\nclass A {\n  void ok() {}\n  void broken( {\n}\nclass B { void fine() {} }\n"))
	if diag == nil || !diag.Partial || !strings.Contains(diag.Message, "does not parse") {
		t.Errorf("diagnostic %v, want a partial syntax error", diag)
	}
	_ = ds
	_, diag = New().Decls("L.java", []byte("package p;\nclass L { String s = \"caf\xe9\"; }\n"))
	if diag == nil || !strings.Contains(diag.Message, "UTF-8") {
		t.Errorf("diagnostic %v, want one about UTF-8", diag)
	}
	for _, src := range []string{"", "class", "@", "enum E { A(", "record R(", "class A { A(", "interface I { default }", "class A extends {}", "\x00\xff\xfe"} {
		New().Decls("X.java", []byte(src)) // must not panic
	}
}
