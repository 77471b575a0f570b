package java

import "testing"

func TestSourceRoots(t *testing.T) {
	for _, c := range []struct{ path, pkg, root, module string }{
		{"core/src/main/java/org/x/A.java", "org.x", "core/src/main/java", "core"},
		{"core/src/test/java/org/x/ATest.java", "org.x", "core/src/test/java", "core"},
		{"lib/src/integrationTest/java/org/x/A.java", "org.x", "lib/src/integrationTest/java", "lib"},
		{"src/main/java/org/x/A.java", "org.x", "src/main/java", "."},
		{"org/x/A.java", "org.x", ".", "."},
		{"scripts/Tool.java", "com.acme.tools", "scripts", "scripts"},
		{"Main.java", "", ".", "."},
	} {
		f := &jfile{path: c.path, pkg: c.pkg}
		if got := sourceRoot(f); got != c.root {
			t.Errorf("sourceRoot(%s in %s) = %q, want %q", c.path, c.pkg, got, c.root)
		}
		if got := module(sourceRoot(f)); got != c.module {
			t.Errorf("module(%s) = %q, want %q", c.path, got, c.module)
		}
	}
}
