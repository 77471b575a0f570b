package javac

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/oracle"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

var _ oracle.Oracle = (*Compiler)(nil)

// TestMavenMultiModule: the base of a two-module build passes; the head
// changes core's method and the stale call in app (a module that depends
// on core, not touched by the change) is reported at its file and line,
// with a message free of paths. The tree is left as it was.
func TestMavenMultiModule(t *testing.T) {
	needJavac(t)
	sc, base := scenario(t, "maven_multimodule")
	c, _ := hermeticCompiler(t)

	p, err := Discover(sc.Dir, &c.Resolver)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range p.Modules {
		names = append(names, m.Name+"="+strings.Join(m.Roots, ","))
	}
	want := []string{".=", "core=core/src/main/java,core/src/test/java", "app=app/src/main/java"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("modules %v, want %v (in dependency order)", names, want)
	}
	if app := p.byName("app"); app == nil || !reflect.DeepEqual(app.Deps, []string{"core"}) || app.Release != "11" || len(app.Missing) != 0 {
		t.Errorf("app module: %+v", app)
	}

	if res := check(t, c, base, "core/src/main/java/org/example/core/Lib.java"); !res.Pass || res.Unanalysed != "" {
		t.Errorf("base: %+v", res)
	}
	res := check(t, c, sc.Dir, "core/src/main/java/org/example/core/Lib.java", "core/src/test/java/org/example/core/LibCheck.java")
	if res.Pass || len(res.Diagnostics) != 1 {
		t.Fatalf("head: want one error, got %+v", res)
	}
	d := find(t, res.Diagnostics, "app/src/main/java/org/example/app/App.java", 7)
	if d.Col != 19 || d.Source != "return Lib.sum(1, 2);" || d.Tool != Tool || !strings.HasPrefix(d.Message, "method sum in class Lib cannot be applied to given types;") ||
		!strings.Contains(d.Message, "required: int,int,int; found: int,int") {
		t.Errorf("diagnostic %+v", d)
	}
	pathFreeMessages(t, res.Diagnostics, sc.Dir)
	if len(res.Ran) != 3 { // core main, core tests, app main
		t.Errorf("ran %d javac, want 3: %v", len(res.Ran), res.Ran)
	}
	for _, r := range res.Ran {
		if !strings.Contains(r, "--release 11") || strings.Contains(r, sc.Dir) || strings.Contains(r, os.TempDir()) {
			t.Errorf("command line %s: want --release 11 and no work-tree or scratch path", r)
		}
	}
	clean(t, sc.Dir)
	// a change to app alone does not compile core
	if res := check(t, c, sc.Dir, "app/src/main/java/org/example/app/App.java"); len(res.Ran) != 1 || res.Pass {
		t.Errorf("app-only change: %+v", res)
	}
	// a changed file javac does not compile is said to be unanalysed
	if res := check(t, c, sc.Dir, "core/src/main/java/module-info.java", "app/src/main/java/org/example/app/App.java"); !strings.Contains(res.Unanalysed, "javac compiled 1 of the change's Java files: not core/src/main/java/module-info.java") {
		t.Errorf("module descriptor: %+v", res)
	}
	// a change without Java files is not javac's business
	if res := check(t, c, sc.Dir, "README.md", "pom.xml"); !res.Pass || len(res.Ran) != 0 {
		t.Errorf("no Java in the change: %+v", res)
	}
}

// TestPreexistingExcused: an error the base already had is excused by
// oracle.Relative (matched by file and message, though its line moved);
// the one the change introduced is not.
func TestPreexistingExcused(t *testing.T) {
	needJavac(t)
	sc, base := scenario(t, "preexisting")
	c, _ := hermeticCompiler(t)
	files := []string{"src/main/java/org/example/Legacy.java", "src/main/java/org/example/Util.java", "src/main/java/org/example/Use.java"}
	before := check(t, c, base, files...)
	after := check(t, c, sc.Dir, files...)
	if before.Pass || len(before.Diagnostics) != 1 || len(after.Diagnostics) != 2 {
		t.Fatalf("before %+v\nafter %+v", before, after)
	}
	rel := oracle.Relative(before, after)
	if rel.Pass || len(rel.Diagnostics) != 1 || len(rel.Preexisting) != 1 {
		t.Fatalf("relative: %+v", rel)
	}
	if d := rel.Diagnostics[0]; d.Path != "src/main/java/org/example/Use.java" || d.Line != 9 || !strings.Contains(d.Message, "incompatible types: int cannot be converted to String") {
		t.Errorf("introduced: %+v", d)
	}
	if d := rel.Preexisting[0]; d.Path != "src/main/java/org/example/Legacy.java" || d.Line != 7 {
		t.Errorf("preexisting: %+v", d)
	}
	// the base judged against itself passes: nothing introduced
	if r := oracle.Relative(before, before); !r.Pass {
		t.Errorf("base against itself: %+v", r)
	}
}

// TestPlainFolders: without a build file each file's root is its folder
// minus its package's (a block comment before the package declaration,
// a file in the default package); a call broken across roots is found.
func TestPlainFolders(t *testing.T) {
	needJavac(t)
	sc, base := scenario(t, "plain")
	c, _ := hermeticCompiler(t)
	p, err := Discover(sc.Dir, &c.Resolver)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Modules) != 1 || p.Modules[0].Build != "plain" || !reflect.DeepEqual(p.Modules[0].Roots, []string{"scripts", "src"}) {
		t.Fatalf("modules: %+v", p.Modules)
	}
	if res := check(t, c, base); !res.Pass || res.Unanalysed != "" {
		t.Errorf("base: %+v", res)
	}
	res := check(t, c, sc.Dir, "src/com/example/tools/Fmt.java")
	if res.Pass || len(res.Diagnostics) != 1 {
		t.Fatalf("head: %+v", res)
	}
	if d := find(t, res.Diagnostics, "scripts/Gen.java", 5); !strings.Contains(d.Message, "method pad in class Fmt cannot be applied to given types") {
		t.Errorf("diagnostic %+v", d)
	}
	pathFreeMessages(t, res.Diagnostics, sc.Dir)
	clean(t, sc.Dir)
}

// TestEncoding: a Latin-1 source compiles with the pom's
// project.build.sourceEncoding, and javac rejects the same bytes when
// the pom says nothing (UTF-8).
func TestEncoding(t *testing.T) {
	needJavac(t)
	c, _ := hermeticCompiler(t)
	dir := t.TempDir()
	pom := func(enc string) string {
		return "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1</version>" +
			"<properties>" + enc + "</properties></project>\n"
	}
	writeFile(t, filepath.Join(dir, "pom.xml"), pom("<project.build.sourceEncoding>ISO-8859-1</project.build.sourceEncoding>"))
	// "café" in Latin-1: 0xE9 is not UTF-8
	writeFile(t, filepath.Join(dir, "src/main/java/g/Menu.java"), "package g;\n\nclass Menu {\n    String item = \"caf\xe9\";\n}\n")
	if res := check(t, c, dir); !res.Pass {
		t.Errorf("Latin-1 with its encoding declared: %+v", res)
	}
	writeFile(t, filepath.Join(dir, "pom.xml"), pom(""))
	res := check(t, c, dir)
	if res.Pass || len(res.Diagnostics) == 0 {
		t.Fatalf("Latin-1 read as UTF-8 passed: %+v", res)
	}
	if d := find(t, res.Diagnostics, "src/main/java/g/Menu.java", 4); !strings.Contains(d.Message, "unmappable character") {
		t.Errorf("diagnostic %+v", d)
	}
}

// TestBadInput: what cannot be judged is an error that names the
// cause, never a verdict or a panic.
func TestBadInput(t *testing.T) {
	needJavac(t)
	c, _ := hermeticCompiler(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "pom.xml"), "<project><artifactId>a</artifactId>")
	writeFile(t, filepath.Join(dir, "src/main/java/A.java"), "class A {}\n")
	if _, err := c.Check(context.Background(), dir, oracle.Options{}); err == nil || !strings.Contains(err.Error(), "pom.xml: not a Maven pom") {
		t.Errorf("broken pom: %v", err)
	}
	if _, err := c.Check(context.Background(), filepath.Join(dir, "nothing"), oracle.Options{}); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("no directory: %v", err)
	}
	if _, err := c.CheckSites(context.Background(), dir, nil, []string{"src/main/java/A.java"}); err == nil {
		t.Errorf("broken pom in CheckSites: no error")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 1)
	defer cancel()
	writeFile(t, filepath.Join(dir, "pom.xml"), "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1</version></project>")
	if _, err := (&Compiler{}).Check(ctx, dir, oracle.Options{}); err == nil || !strings.Contains(err.Error(), "out of time") && !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("deadline: %v", err)
	}
}

// TestNoJavac: a machine without javac gets an error that says how to
// install it.
func TestNoJavac(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("JAVA_HOME", "")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "A.java"), "class A {}\n")
	_, err := (&Compiler{}).Check(context.Background(), dir, oracle.Options{})
	if !errors.Is(err, ErrNoJavac) {
		t.Errorf("got %v, want ErrNoJavac", err)
	}
	if v, err := (&Compiler{}).Version(context.Background()); v != "" || !errors.Is(err, ErrNoJavac) {
		t.Errorf("Version: %q %v", v, err)
	}
}

// TestVersion reads the installed javac's version.
func TestVersion(t *testing.T) {
	needJavac(t)
	v, err := (&Compiler{}).Version(context.Background())
	if err != nil || !strings.HasPrefix(v, "javac ") {
		t.Errorf("Version: %q %v", v, err)
	}
}

// TestGradle: settings.gradle's included projects, their source sets and
// project dependencies, a jar from Gradle's cache and one from libs/;
// a break in lib is found in app.
func TestGradle(t *testing.T) {
	needJavac(t)
	testrepo.Hermetic(t)
	c, _ := hermeticCompiler(t)
	dir := t.TempDir()
	testrepo.Init(t, dir)
	buildJar(t, filepath.Join(c.Resolver.GradleCache, "org.acme", "cached", "2.0", "0123abcd", "cached-2.0.jar"), map[string]string{
		"org/acme/cached/Cache.java": "package org.acme.cached;\n\npublic class Cache {\n    public static int hits() { return 0; }\n}\n",
	})
	buildJar(t, filepath.Join(dir, "lib", "libs", "local.jar"), map[string]string{
		"org/local/Local.java": "package org.local;\n\npublic class Local {\n    public static int here() { return 0; }\n}\n",
	})
	testrepo.WriteFiles(t, dir, map[string]string{
		"lib/src/main/java/g/lib/Uses.java":    "package g.lib;\n\nclass Uses {\n    int n() { return org.acme.cached.Cache.hits() + org.local.Local.here(); }\n}\n",
		"settings.gradle":                      "rootProject.name = 'g'\ninclude 'lib', ':app'\n",
		"lib/build.gradle":                     "plugins { id 'java-library' }\ndependencies {\n    implementation 'org.acme:gone:1.0'\n    api \"org.acme:cached:2.0\"\n}\n",
		"app/build.gradle.kts":                 "plugins { java }\ndependencies {\n    implementation(project(\":lib\"))\n}\n",
		"lib/src/main/java/g/lib/Lib.java":     "package g.lib;\n\npublic class Lib {\n    public static int one() { return 1; }\n}\n",
		"app/src/main/java/g/app/App.java":     "package g.app;\n\nclass App {\n    int two() { return g.lib.Lib.one() + 1; }\n}\n",
		"app/src/test/java/g/app/AppTest.java": "package g.app;\n\nclass AppTest {\n    boolean ok() { return new App().two() == 2; }\n}\n",
	})
	testrepo.CommitAll(t, dir, "gradle")
	p, err := Discover(dir, &c.Resolver)
	if err != nil {
		t.Fatal(err)
	}
	app, lib := p.byName("app"), p.byName("lib")
	if app == nil || lib == nil || !reflect.DeepEqual(app.Deps, []string{"lib"}) || !reflect.DeepEqual(app.Tests, []string{"app/src/test/java"}) {
		t.Fatalf("modules: %+v %+v", app, lib)
	}
	if len(lib.Missing) != 1 || lib.Missing[0].Coord != "org.acme:gone:1.0" || len(lib.Classpath) != 2 {
		t.Errorf("lib's missing: %+v, classpath %v", lib.Missing, lib.Classpath)
	}
	if res := check(t, c, dir, "lib/src/main/java/g/lib/Lib.java"); !res.Pass || res.Unanalysed != "" || len(res.Ran) != 3 {
		t.Errorf("base: %+v", res)
	}
	writeFile(t, filepath.Join(dir, "lib/src/main/java/g/lib/Lib.java"), "package g.lib;\n\npublic class Lib {\n    public static int uno() { return 1; }\n}\n")
	res := check(t, c, dir, "lib/src/main/java/g/lib/Lib.java")
	if d := find(t, res.Diagnostics, "app/src/main/java/g/app/App.java", 4); res.Pass || !strings.Contains(d.Message, "cannot find symbol; symbol: method one(); location: class Lib") {
		t.Errorf("head: %+v", res)
	}
}

// TestFlowErrors: javac stops after flow analysis, and the errors of
// that phase still count: a method that now throws a checked exception
// breaks its callers, a method that lost its return breaks itself. By
// default javac skips flow analysis of every class once any has a type
// error (Bad.java, or a missing jar's): it is made to run regardless.
func TestFlowErrors(t *testing.T) {
	needJavac(t)
	c, _ := hermeticCompiler(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "src/main/java/f/Io.java"), "package f;\n\nclass Io {\n    static String read() throws java.io.IOException {\n        return \"\";\n    }\n\n    int sign(int x) {\n        if (x > 0) return 1;\n    }\n}\n")
	writeFile(t, filepath.Join(dir, "src/main/java/f/Use.java"), "package f;\n\nclass Use {\n    String get() {\n        return Io.read();\n    }\n}\n")
	writeFile(t, filepath.Join(dir, "src/main/java/f/Bad.java"), "package f;\n\nclass Bad {\n    int n = \"one\";\n}\n")
	res := check(t, c, dir, "src/main/java/f/Io.java")
	if res.Pass || len(res.Diagnostics) != 3 {
		t.Fatalf("%+v", res)
	}
	if d := find(t, res.Diagnostics, "src/main/java/f/Use.java", 5); !strings.Contains(d.Message, "unreported exception IOException") {
		t.Errorf("%+v", d)
	}
	if d := find(t, res.Diagnostics, "src/main/java/f/Io.java", 10); d.Message != "missing return statement" {
		t.Errorf("%+v", d)
	}
}

// TestArchive: the first javac writes the class-data archive of javac's
// classes (and nothing else is left in its folder), later ones map it,
// and the verdicts are the same.
func TestArchive(t *testing.T) {
	needJavac(t)
	c, _ := hermeticCompiler(t)
	c.ArchiveDir = t.TempDir()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "src/main/java/a/A.java"), "package a;\n\nclass A {\n    int n = \"one\";\n}\n")
	first := check(t, c, dir)
	jsa, _ := filepath.Glob(filepath.Join(c.ArchiveDir, "*"))
	if len(jsa) != 1 || !strings.HasSuffix(jsa[0], ".jsa") || !strings.HasPrefix(filepath.Base(jsa[0]), "javac_") {
		t.Fatalf("archive folder holds %v, want one .jsa", jsa)
	}
	second := check(t, c, dir)
	if !reflect.DeepEqual(first.Diagnostics, second.Diagnostics) || len(first.Diagnostics) != 1 {
		t.Errorf("with the archive: %v, without: %v", second.Diagnostics, first.Diagnostics)
	}
	if after, _ := filepath.Glob(filepath.Join(c.ArchiveDir, "*")); !reflect.DeepEqual(after, jsa) {
		t.Errorf("the second run changed the archive folder: %v", after)
	}
}
