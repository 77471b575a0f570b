package javac

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/ripple-dev/ripple/internal/oracle"
)

// genProject writes a Maven module of n classes in 10 packages, in
// blocks of 30: class Ci calls C(i-1) within its block (so a change to
// one is seen by the next) and holds a field of its block's first
// class, so that a file's references reach its block, as a real class's
// reach its neighbourhood, not the whole module.
func genProject(b *testing.B, n int) string {
	dir := b.TempDir()
	writeFile(b, filepath.Join(dir, "pom.xml"), "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>gen</artifactId><version>1</version>"+
		"<properties><maven.compiler.release>11</maven.compiler.release></properties></project>\n")
	pkg := func(i int) string { return fmt.Sprintf("gen.p%d", i%10) }
	for i := range n {
		src := fmt.Sprintf("package %s;\n\nimport java.util.List;\n\npublic class C%d {\n", pkg(i), i)
		head := i / 30 * 30
		src += fmt.Sprintf("    public %s.C%d head;\n\n", pkg(head), head)
		src += fmt.Sprintf("    public int m%d(int x, List<String> names) {\n", i)
		if i%30 != 0 {
			src += fmt.Sprintf("        return new %s.C%d().m%d(x + names.size(), names) + 1;\n", pkg(i-1), i-1, i-1)
		} else {
			src += "        return x;\n"
		}
		src += "    }\n}\n"
		writeFile(b, filepath.Join(dir, "src/main/java/gen", fmt.Sprintf("p%d", i%10), fmt.Sprintf("C%d.java", i)), src)
	}
	return dir
}

// BenchmarkCheckSites is the type tier on a generated module of 300
// files: a change to C100 and three sites (javac reads their blocks
// through -sourcepath), against the whole module's compile (the
// oracle's Check).
func BenchmarkCheckSites(b *testing.B) {
	needJavac(b)
	dir := genProject(b, 300)
	c := &Compiler{Resolver: Resolver{M2: b.TempDir(), GradleCache: b.TempDir()}}
	p, err := Discover(dir, &c.Resolver)
	if err != nil {
		b.Fatal(err)
	}
	file := func(i int) string { return fmt.Sprintf("src/main/java/gen/p%d/C%d.java", i%10, i) }
	b.Run("sites=3", func(b *testing.B) {
		for b.Loop() {
			res, err := c.CheckSitesIn(context.Background(), p, []string{file(100)}, []string{file(101), file(150), file(201)})
			if err != nil {
				b.Fatal(err)
			}
			if !res.Files[file(101)].Consistent() {
				b.Fatalf("C101: %+v", res.Files[file(101)])
			}
		}
	})
	b.Run("module", func(b *testing.B) {
		for b.Loop() {
			res, err := c.Check(context.Background(), dir, oracle.Options{})
			if err != nil || !res.Pass {
				b.Fatalf("%+v %v", res, err)
			}
		}
	})
}
