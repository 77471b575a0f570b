package javac

import (
	"context"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/oracle"
)

// acmeRepo fills a local Maven repository: acme-parent 7 (managing
// gears' version), gears 3.0 (its jar, and a pom that pulls cogs 1.0 in
// and an optional dependency that is not followed), cogs 1.0 (Gear's
// superclass). widgets has nothing.
func acmeRepo(t *testing.T, m2 string) {
	t.Helper()
	at := func(p string) string { return filepath.Join(m2, "org", "acme", filepath.FromSlash(p)) }
	writeFile(t, at("acme-parent/7/acme-parent-7.pom"), `<project><modelVersion>4.0.0</modelVersion>
  <groupId>org.acme</groupId><artifactId>acme-parent</artifactId><version>7</version><packaging>pom</packaging>
  <properties><gears.version>3.0</gears.version></properties>
  <dependencyManagement><dependencies>
    <dependency><groupId>org.acme</groupId><artifactId>gears</artifactId><version>${gears.version}</version></dependency>
  </dependencies></dependencyManagement>
</project>`)
	writeFile(t, at("gears/3.0/gears-3.0.pom"), `<project><modelVersion>4.0.0</modelVersion>
  <groupId>org.acme</groupId><artifactId>gears</artifactId><version>3.0</version>
  <dependencies>
    <dependency><groupId>org.acme</groupId><artifactId>cogs</artifactId><version>1.0</version></dependency>
    <dependency><groupId>org.acme</groupId><artifactId>never</artifactId><version>1</version><optional>true</optional></dependency>
    <dependency><groupId>org.acme</groupId><artifactId>testonly</artifactId><version>1</version><scope>test</scope></dependency>
  </dependencies>
</project>`)
	cogs := at("cogs/1.0/cogs-1.0.jar")
	buildJar(t, cogs, map[string]string{"org/acme/cogs/Cog.java": "package org.acme.cogs;\n\npublic class Cog {\n    public int size() { return 1; }\n}\n"})
	buildJar(t, at("gears/3.0/gears-3.0.jar"), map[string]string{
		"org/acme/gears/Gear.java": "package org.acme.gears;\n\npublic class Gear extends org.acme.cogs.Cog {\n    public int teeth(int n) { return n; }\n}\n",
	}, cogs)
}

// TestMissingJar: the errors a jar that is not here causes (an import,
// a use, members inherited from its class, in the subclass's subclass
// too) are set apart and named in Unanalysed; the base passes unproven;
// the head's own error (a wrong call into a jar that is here) counts.
// The versions come from a nested property and from a parent that is
// only in the local repository; a dependency's dependency is on the
// classpath (javac needs Gear's superclass).
func TestMissingJar(t *testing.T) {
	needJavac(t)
	sc, base := scenario(t, "missing_jar")
	c, m2 := hermeticCompiler(t)
	acmeRepo(t, m2)

	p, err := Discover(sc.Dir, &c.Resolver)
	if err != nil {
		t.Fatal(err)
	}
	m := p.byName(".")
	if m == nil || len(m.Missing) != 1 || m.Missing[0].Coord != "org.acme:widgets:2.1" || !strings.Contains(m.Missing[0].Why, "no jar in "+m2) {
		t.Fatalf("missing: %+v", m)
	}
	var jars []string
	for _, j := range m.Classpath {
		jars = append(jars, filepath.Base(j))
	}
	if !reflect.DeepEqual(jars, []string{"gears-3.0.jar", "cogs-1.0.jar"}) {
		t.Errorf("classpath %v", jars)
	}

	before := check(t, c, base)
	if !before.Pass || len(before.Diagnostics) != 0 {
		t.Fatalf("base: the missing jar's errors counted: %+v", before)
	}
	for _, want := range []string{"javac had no jar for org.acme:widgets:2.1", "Shop.java", "Sprocket.java", "Chain.java", "Usage.java", "package org.acme.widgets"} {
		if !strings.Contains(before.Unanalysed, want) {
			t.Errorf("Unanalysed lacks %q: %s", want, before.Unanalysed)
		}
	}
	if strings.Contains(before.Unanalysed, "Plain.java") {
		t.Errorf("Plain.java needs no jar: %s", before.Unanalysed)
	}

	after := check(t, c, sc.Dir, "src/main/java/org/example/shop/Shop.java", "src/main/java/org/example/shop/Plain.java")
	if after.Pass || len(after.Diagnostics) != 3 {
		t.Fatalf("head: %+v", after)
	}
	if d := find(t, after.Diagnostics, "src/main/java/org/example/shop/Shop.java", 8); !strings.Contains(d.Message, "method teeth in class Gear cannot be applied to given types") {
		t.Errorf("diagnostic %+v", d)
	}
	// a member looked up in a repository class javac read whole counts,
	// in a file that lacks a jar too
	for _, at := range []string{"Shop.java:16", "Usage.java:20"} {
		file, line, _ := strings.Cut(at, ":")
		n, _ := strconv.Atoi(line)
		if d := find(t, after.Diagnostics, "src/main/java/org/example/shop/"+file, n); d.Message != "cannot find symbol; symbol: method twice(int); location: class Plain" {
			t.Errorf("diagnostic %+v", d)
		}
	}
	if rel := oracle.Relative(before, after); rel.Pass || len(rel.Diagnostics) != 3 {
		t.Errorf("relative: %+v", rel)
	}
	pathFreeMessages(t, after.Diagnostics, sc.Dir, m2)
	clean(t, sc.Dir)

	// with every jar here nothing is set apart: a class the jar lacks is
	// the code's error
	buildJar(t, filepath.Join(m2, "org/acme/widgets/2.1/widgets-2.1.jar"), map[string]string{
		"org/acme/widgets/Widget.java": "package org.acme.widgets;\n\npublic class Widget {}\n",
	})
	full := check(t, c, base)
	if full.Pass || full.Unanalysed != "" {
		t.Fatalf("all jars here: %+v", full)
	}
	if d := find(t, full.Diagnostics, "src/main/java/org/example/shop/Sprocket.java", 3); !strings.Contains(d.Message, "symbol: class Base; location: package org.acme.widgets") {
		t.Errorf("diagnostic %+v", d)
	}
}

// TestCheckSites: the type tier compiles the site and changed files
// only, javac reading the rest through -sourcepath, and gives each a
// verdict: consistent, the code's errors, or what was unresolved.
func TestCheckSites(t *testing.T) {
	needJavac(t)
	sc, _ := scenario(t, "missing_jar")
	c, m2 := hermeticCompiler(t)
	acmeRepo(t, m2)
	const dir = "src/main/java/org/example/shop/"
	res, err := c.CheckSites(context.Background(), sc.Dir, []string{dir + "Shop.java", "README.md"}, []string{dir + "Plain.java", dir + "Chain.java", dir + "Gone.java"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Ran) != 1 || !strings.HasSuffix(res.Ran[0], "<3 files>") {
		t.Errorf("ran %v, want one javac of 3 files", res.Ran)
	}
	if v := res.Files[dir+"Plain.java"]; !v.Consistent() {
		t.Errorf("Plain.java: %+v", v)
	}
	shop := res.Files[dir+"Shop.java"]
	if shop.Consistent() || len(shop.Errors) != 2 || shop.Errors[0].Line != 8 || shop.Errors[1].Source != "return new Plain().twice(teeth());" || !reflect.DeepEqual(shop.Unresolved, []string{"package org.acme.widgets", "class org.acme.widgets.Widget"}) {
		t.Errorf("Shop.java: %+v", shop)
	}
	chain := res.Files[dir+"Chain.java"]
	if chain.Consistent() || len(chain.Errors) != 0 || len(chain.Unresolved) != 1 || !strings.Contains(chain.Unresolved[0], "inherited through Sprocket") {
		t.Errorf("Chain.java: %+v", chain)
	}
	// Sprocket was not asked for: javac read it through -sourcepath and
	// reported on it
	if v := res.Files[dir+"Sprocket.java"]; v == nil || v.Compiled || v.Consistent() {
		t.Errorf("Sprocket.java: %+v", v)
	}
	if _, ok := res.Files[dir+"Gone.java"]; ok {
		t.Errorf("a site that does not exist got a verdict")
	}
	if len(res.Missing) != 1 || res.Missing[0].Coord != "org.acme:widgets:2.1" {
		t.Errorf("missing %+v", res.Missing)
	}
}

// TestCheckSitesModules: a site in a module that depends on the changed
// one sees the change through -sourcepath; only the site's module runs.
func TestCheckSitesModules(t *testing.T) {
	needJavac(t)
	sc, _ := scenario(t, "maven_multimodule")
	c, _ := hermeticCompiler(t)
	p, err := Discover(sc.Dir, &c.Resolver)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.CheckSitesIn(context.Background(), p, nil, []string{"app/src/main/java/org/example/app/App.java"})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Files["app/src/main/java/org/example/app/App.java"]
	if len(res.Ran) != 1 || v.Consistent() || len(v.Errors) != 1 || v.Errors[0].Line != 7 || len(v.Unresolved) != 0 {
		t.Errorf("App.java: %+v (ran %v)", v, res.Ran)
	}
	if !strings.Contains(res.Ran[0], "-sourcepath app/src/main/java:core/src/main/java ") {
		t.Errorf("source path: %s", res.Ran[0])
	}
	// the core test file is compiled at the test level with main on the path
	res, err = c.CheckSitesIn(context.Background(), p, []string{"core/src/main/java/org/example/core/Lib.java"}, []string{"core/src/test/java/org/example/core/LibCheck.java"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Ran) != 2 || !res.Files["core/src/test/java/org/example/core/LibCheck.java"].Consistent() || !res.Files["core/src/main/java/org/example/core/Lib.java"].Consistent() {
		t.Errorf("core: %+v %v", res.Files, res.Ran)
	}
	if _, err := c.CheckSitesIn(context.Background(), p, nil, []string{"pom.xml", "core/pom.xml"}); err != nil {
		t.Errorf("no Java sites: %v", err)
	}
}
