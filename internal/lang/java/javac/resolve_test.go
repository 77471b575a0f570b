package javac

import (
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestResolveMaven reads a pom's dependencies as Maven would, from the
// local repository only (no javac needed): a version from an imported
// BOM, an exclusion that stops a dependency's dependency, an optional one
// not followed, a test-jar, a system path, a version range, a custom
// source directory, the compiler plugin's default executions'
// exclusions and test level.
func TestResolveMaven(t *testing.T) {
	m2, dir := t.TempDir(), t.TempDir()
	at := func(p string) string { return filepath.Join(m2, filepath.FromSlash(p)) }
	writeFile(t, at("org/bom/bom/1/bom-1.pom"), `<project><groupId>org.bom</groupId><artifactId>bom</artifactId><version>1</version>
  <dependencyManagement><dependencies>
    <dependency><groupId>org.x</groupId><artifactId>a</artifactId><version>1.5</version></dependency>
  </dependencies></dependencyManagement></project>`)
	writeFile(t, at("org/x/b/2/b-2.pom"), `<project><groupId>org.x</groupId><artifactId>b</artifactId><version>2</version>
  <dependencies>
    <dependency><groupId>org.x</groupId><artifactId>c</artifactId><version>1</version></dependency>
    <dependency><groupId>org.x</groupId><artifactId>d</artifactId><version>1</version></dependency>
    <dependency><groupId>org.x</groupId><artifactId>e</artifactId><version>1</version><optional>true</optional></dependency>
  </dependencies></project>`)
	for _, jar := range []string{"org/x/a/1.5/a-1.5.jar", "org/x/b/2/b-2.jar", "org/x/c/1/c-1.jar", "org/x/t/3/t-3-tests.jar"} {
		writeFile(t, at(jar), "")
	}
	writeFile(t, filepath.Join(dir, "lib/sys.jar"), "")
	writeFile(t, filepath.Join(dir, "pom.xml"), `<project><modelVersion>4.0.0</modelVersion>
  <groupId>g</groupId><artifactId>m</artifactId><version>1</version>
  <properties><maven.compiler.source>1.8</maven.compiler.source><excl>**/Java17*</excl></properties>
  <dependencyManagement><dependencies>
    <dependency><groupId>org.bom</groupId><artifactId>bom</artifactId><version>1</version><type>pom</type><scope>import</scope></dependency>
  </dependencies></dependencyManagement>
  <dependencies>
    <dependency><groupId>org.x</groupId><artifactId>a</artifactId></dependency>
    <dependency><groupId>org.x</groupId><artifactId>b</artifactId><version>2</version>
      <exclusions><exclusion><groupId>org.x</groupId><artifactId>c</artifactId></exclusion></exclusions></dependency>
    <dependency><groupId>org.x</groupId><artifactId>t</artifactId><version>3</version><type>test-jar</type><scope>test</scope></dependency>
    <dependency><groupId>org.s</groupId><artifactId>s</artifactId><version>1</version><scope>system</scope><systemPath>${basedir}/lib/sys.jar</systemPath></dependency>
    <dependency><groupId>org.r</groupId><artifactId>r</artifactId><version>[1.0,2.0)</version></dependency>
  </dependencies>
  <build>
    <sourceDirectory>${project.basedir}/java</sourceDirectory>
    <plugins><plugin><artifactId>maven-compiler-plugin</artifactId>
      <configuration><testSource>11</testSource></configuration>
      <executions><execution><id>default-testCompile</id><configuration>
        <testExcludes><exclude>${excl}</exclude></testExcludes>
      </configuration></execution>
      <execution><id>other</id><configuration><excludes><exclude>**/*.java</exclude></excludes></configuration></execution></executions>
    </plugin></plugins>
  </build></project>`)
	writeFile(t, filepath.Join(dir, "java/g/Main.java"), "package g;\nclass Main {}\n")
	writeFile(t, filepath.Join(dir, "src/test/java/g/MainTest.java"), "package g;\nclass MainTest {}\n")
	writeFile(t, filepath.Join(dir, "src/test/java/g/Java17Test.java"), "package g;\nclass Java17Test {}\n")

	p, err := Discover(dir, &Resolver{M2: m2, GradleCache: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Modules) != 1 {
		t.Fatalf("modules %+v", p.Modules)
	}
	m := p.Modules[0]
	var jars []string
	for _, j := range m.Classpath {
		jars = append(jars, filepath.Base(j))
	}
	sort.Strings(jars)
	if want := []string{"a-1.5.jar", "b-2.jar", "sys.jar", "t-3-tests.jar"}; !reflect.DeepEqual(jars, want) {
		t.Errorf("classpath %v, want %v", jars, want)
	}
	var missing []string
	for _, mi := range m.Missing {
		missing = append(missing, mi.Coord+" "+strings.SplitN(mi.Why, " ", 3)[0])
	}
	sort.Strings(missing)
	if want := []string{"org.r:r:[1.0,2.0) a", "org.x:d:1 no"}; !reflect.DeepEqual(missing, want) {
		t.Errorf("missing %v, want %v", missing, want)
	}
	if !reflect.DeepEqual(m.Roots, []string{"java", "src/test/java"}) || !reflect.DeepEqual(m.Tests, []string{"src/test/java"}) {
		t.Errorf("roots %v tests %v", m.Roots, m.Tests)
	}
	if m.Source != "1.8" || m.TestSource != "11" || m.Release != "" {
		t.Errorf("levels: source %q test %q release %q", m.Source, m.TestSource, m.Release)
	}
	units := p.moduleUnits(m)
	if len(units) != 2 || !reflect.DeepEqual(units[0].files, []string{"java/g/Main.java"}) || !reflect.DeepEqual(units[1].files, []string{"src/test/java/g/MainTest.java"}) {
		t.Errorf("units %+v", units)
	}
	if args := strings.Join(javacArgs(units[1], &run{}, "/c", 17), " "); !strings.Contains(args, "-source 11") || !strings.Contains(args, "-sourcepath src/test/java:java") {
		t.Errorf("test unit's arguments: %s", args)
	}
}

// TestAntGlob holds the exclusion patterns to Ant's meaning.
func TestAntGlob(t *testing.T) {
	for _, c := range []struct {
		pat, path string
		want      bool
	}{
		{"**/Java17*", "com/x/Java17Test.java", true},
		{"**/Java17*", "Java17Test.java", true},
		{"**/Java17*", "com/Java17/X.java", false},
		{"module-info.java", "module-info.java", true},
		{"module-info.java", "a/module-info.java", false},
		{"com/x/", "com/x/y/Z.java", true},
		{"com/*.java", "com/y/Z.java", false},
		{"com/?.java", "com/Z.java", true},
	} {
		if got := antGlob(c.pat).MatchString(c.path); got != c.want {
			t.Errorf("%s on %s: %v, want %v", c.pat, c.path, got, c.want)
		}
	}
}
