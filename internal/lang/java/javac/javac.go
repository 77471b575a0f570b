package javac

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Compiler runs javac. Its zero value finds javac on PATH and the jars
// in ~/.m2 and Gradle's cache.
type Compiler struct {
	// Bin is the javac executable; "" finds javac on PATH ($JAVA_HOME/bin
	// when it is not there).
	Bin string
	// Resolver finds the dependencies' jars.
	Resolver Resolver
	// Env is added to javac's environment.
	Env []string
	// ArchiveDir holds the JVM's class-data archive of javac's own classes
	// (cds.go); "" is the user cache's javac folder, "off" none.
	ArchiveDir string

	mu      sync.Mutex
	bin     string
	version string
	major   int
}

// ErrNoJavac is returned when no javac can be found.
var ErrNoJavac = errors.New("javac is not installed or not on PATH: install a JDK 11 or newer (apt-get install openjdk-17-jdk-headless, or set JAVA_HOME)")

// Locate finds javac and reads its version (once it has succeeded); the
// error says what is missing.
func (c *Compiler) Locate(ctx context.Context) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bin != "" {
		return c.bin, nil
	}
	bin, v, major, err := locate(ctx, c.Bin)
	if err != nil {
		return "", err
	}
	c.bin, c.version, c.major = bin, v, major
	return bin, nil
}

// info is the located javac's version and major version.
func (c *Compiler) info() (string, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version, c.major
}

// Version is the javac that runs ("javac 17.0.15"), for reports.
func (c *Compiler) Version(ctx context.Context) (string, error) {
	if _, err := c.Locate(ctx); err != nil {
		return "", err
	}
	return c.version, nil
}

var versionRE = regexp.MustCompile(`javac (1\.)?(\d+)`)

func locate(ctx context.Context, bin string) (string, string, int, error) {
	if bin == "" {
		if p, err := exec.LookPath("javac"); err == nil {
			bin = p
		} else if jh := os.Getenv("JAVA_HOME"); jh != "" && exists(filepath.Join(jh, "bin", "javac")) {
			bin = filepath.Join(jh, "bin", "javac")
		} else {
			return "", "", 0, ErrNoJavac
		}
	}
	out, err := exec.CommandContext(ctx, bin, "-version").CombinedOutput()
	if ctx.Err() != nil {
		return "", "", 0, fmt.Errorf("javac: out of time before it could run %s -version: %w", bin, ctx.Err())
	}
	if err != nil {
		return "", "", 0, fmt.Errorf("javac: %s -version: %v: %s", bin, err, strings.TrimSpace(string(out)))
	}
	v := strings.TrimSpace(string(out))
	m := versionRE.FindStringSubmatch(v)
	if m == nil {
		return "", "", 0, fmt.Errorf("javac: %s -version says %q, not a javac version", bin, v)
	}
	major, _ := strconv.Atoi(m[2])
	if major < 11 {
		return "", "", 0, fmt.Errorf("javac: %s is %s; the oracle needs javac 11 or newer", bin, v)
	}
	return bin, v, major, nil
}

// unit is one javac invocation: the files it compiles, the roots its
// -sourcepath searches, its classpath and Java level.
type unit struct {
	files      []string // repository-relative
	sourcepath []string // repository-relative
	classpath  []string // absolute
	release    string
	source     string
	encoding   string
}

// run is one finished javac.
type run struct {
	out []byte // its diagnostics
	cmd string // for reports, the scratch folder elided
	// levelNote says the project asks for a Java level this javac does
	// not know, and that it compiled at its own.
	levelNote string
	// stopped says javac was stopped (the context's deadline) before it
	// finished: out holds the diagnostics it had printed, each of them
	// javac's, and its silence on the rest proves nothing.
	stopped bool
}

// maxErrs is javac's -Xmaxerrs: every error, not the first 100.
const maxErrs = 100000

// compile runs javac on the unit in dir, writing classes to a scratch
// folder that is removed after; the work tree is never written.
func (c *Compiler) compile(ctx context.Context, dir string, u unit) (*run, error) {
	bin, err := c.Locate(ctx)
	if err != nil {
		return nil, err
	}
	version, major := c.info()
	tmp, err := os.MkdirTemp("", "ripple-javac-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	classes := filepath.Join(tmp, "classes")
	if err := os.Mkdir(classes, 0o755); err != nil {
		return nil, err
	}
	u, back, err := shadowModules(dir, tmp, u)
	if err != nil {
		return nil, err
	}
	r := &run{}
	args := javacArgs(u, r, classes, major)
	argfile := filepath.Join(tmp, "args")
	if err := os.WriteFile(argfile, []byte(argLines(args)), 0o644); err != nil {
		return nil, err
	}
	// the -J options cannot be in an argument file: English messages
	// (the baseline compares them) in UTF-8; the JVM's quick compiler
	// only and the serial collector (gson's main module: 3.4 CPU s and
	// 92 MB peak against 7.2 s and 123 MB with the default JIT)
	jvm := []string{"-J-Duser.language=en", "-J-Duser.country=US", "-J-Dfile.encoding=UTF-8",
		"-J-Dsun.stderr.encoding=UTF-8", "-J-Dsun.stdout.encoding=UTF-8", "-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1"}
	cds := c.archive(bin, version, major)
	defer cds.abandon()
	if cds.flag != "" {
		jvm = append(jvm, cds.flag)
	}
	cmd := exec.CommandContext(ctx, bin, append(jvm, "@"+argfile)...)
	cmd.Dir = dir
	cmd.Env = append(withoutEnv(os.Environ(), "CLASSPATH", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS"), c.Env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	r.cmd = describe(args, len(u.files), classes)
	for sh, root := range back {
		r.cmd = strings.ReplaceAll(r.cmd, sh, root)
	}
	if ctx.Err() != nil {
		// javac prints each error as it attributes a class: what it had
		// printed is kept (the last diagnostic may be cut off, so it is
		// dropped), for a caller that takes errors as proof
		r.out, r.stopped = unshadow(completeDiagnostics(out.Bytes()), back, tmp), true
		return r, fmt.Errorf("javac: out of time after %v: %w", time.Since(start).Round(time.Millisecond), ctx.Err())
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return nil, fmt.Errorf("javac: %w", err)
	}
	if err != nil && ee.ExitCode() != 1 {
		// 1 is "errors in the sources"; anything else is javac failing
		return nil, fmt.Errorf("javac exited with status %d: %s", ee.ExitCode(), strings.ReplaceAll(lastLines(out.Bytes(), 3), tmp, "<tmp>"))
	}
	cds.keep()
	r.out = unshadow(out.Bytes(), back, tmp)
	return r, nil
}

// unshadow writes javac's output with the shadowed module roots back at
// their own paths and the scratch folder elided.
func unshadow(b []byte, back map[string]string, tmp string) []byte {
	for sh, root := range back {
		b = bytes.ReplaceAll(b, []byte(sh+string(filepath.Separator)), []byte(root+"/"))
	}
	return bytes.ReplaceAll(b, []byte(tmp), []byte("<tmp>"))
}

// javacArgs are the arguments of a unit's javac (its argument file).
func javacArgs(u unit, r *run, classes string, major int) []string {
	// javac runs flow analysis even when attribution found errors (by
	// default one type error anywhere, a missing jar's, hides every
	// missing return and unreported exception), and stops after it, the
	// last phase that reports the code's errors: nothing is desugared or
	// written (gson's main module: 0.1-0.2 CPU s less)
	args := []string{"-d", classes, "-proc:none", "-implicit:none", "-Xprefer:source", "-nowarn", "-Xlint:none",
		"-XDshould-stop.ifError=FLOW", "-XDshould-stop.ifNoError=FLOW",
		"-Xmaxerrs", strconv.Itoa(maxErrs), "-encoding", orDefault(u.encoding, "UTF-8")}
	args = append(args, levelArgs(u, r, major)...)
	cp := append([]string{classes}, u.classpath...)
	args = append(args, "-classpath", strings.Join(cp, string(os.PathListSeparator)))
	args = append(args, "-sourcepath", strings.Join(orDot(u.sourcepath), string(os.PathListSeparator)))
	return append(args, u.files...)
}

// shadowModules replaces each source root that holds a module-info.java
// with a folder in tmp of links to its entries but that one: javac
// compiles in the module a descriptor on the source path declares, and
// the module graph's jars are not here. back maps each shadow folder to
// its root, to put the root back in javac's paths.
func shadowModules(dir, tmp string, u unit) (unit, map[string]string, error) {
	back := map[string]string{}
	var sp []string
	for i, root := range u.sourcepath {
		full := filepath.Join(dir, filepath.FromSlash(root))
		if !exists(filepath.Join(full, "module-info.java")) {
			sp = append(sp, root)
			continue
		}
		sh := filepath.Join(tmp, "sp"+strconv.Itoa(i))
		if err := os.Mkdir(sh, 0o755); err != nil {
			return u, nil, err
		}
		ents, err := os.ReadDir(full)
		if err != nil {
			return u, nil, err
		}
		for _, e := range ents {
			if e.Name() == "module-info.java" {
				continue
			}
			if err := os.Symlink(filepath.Join(full, e.Name()), filepath.Join(sh, e.Name())); err != nil {
				return u, nil, fmt.Errorf("javac: linking %s past its module-info.java: %w", root, err)
			}
		}
		back[sh] = root
		sp = append(sp, sh)
		files := make([]string, len(u.files))
		for j, f := range u.files {
			if rest, ok := strings.CutPrefix(f, root+"/"); ok {
				f = filepath.Join(sh, filepath.FromSlash(rest))
			}
			files[j] = f
		}
		u.files = files
	}
	u.sourcepath = sp
	return u, back, nil
}

// levelArgs is --release for the project's maven.compiler.release,
// -source for its source level (Maven compiles against the running
// JDK's library then), neither when this javac does not know the level.
func levelArgs(u unit, r *run, major int) []string {
	flag, level := "--release", u.release
	if level == "" {
		flag, level = "-source", u.source
	}
	if level == "" {
		return nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(level, "1."))
	switch {
	case err != nil:
		r.levelNote = fmt.Sprintf("the project's Java level %q is not a number: javac compiled at its own", level)
		return nil
	case n > major:
		r.levelNote = fmt.Sprintf("the project asks for Java %d and javac is %d: errors may be of a newer language", n, major)
		return nil
	case n < 8:
		n = 8 // the oldest level current JDKs compile
	}
	return []string{flag, strconv.Itoa(n)}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func orDot(s []string) []string {
	if len(s) == 0 {
		return []string{"."}
	}
	return s
}

// argLines writes javac arguments one a line, quoted as its argument
// files want.
func argLines(args []string) string {
	var b strings.Builder
	for _, a := range args {
		if strings.ContainsAny(a, " \t\"'\\#") {
			a = `"` + strings.ReplaceAll(strings.ReplaceAll(a, `\`, `\\`), `"`, `\"`) + `"`
		}
		b.WriteString(a)
		b.WriteByte('\n')
	}
	return b.String()
}

// describe is a javac command line for a report: the files counted, the
// classpath counted, the scratch folder elided.
func describe(args []string, nfiles int, classes string) string {
	var parts []string
	for i := 0; i < len(args)-nfiles; i++ {
		a := args[i]
		if a == "-classpath" && i+1 < len(args) {
			n := len(strings.Split(args[i+1], string(os.PathListSeparator))) - 1
			parts = append(parts, "-classpath", fmt.Sprintf("<%d jars>", n))
			i++
			continue
		}
		parts = append(parts, strings.ReplaceAll(a, classes, "<tmp>"))
	}
	return "javac " + strings.Join(parts, " ") + fmt.Sprintf(" <%d files>", nfiles)
}

func withoutEnv(env []string, names ...string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, n := range names {
			drop = drop || k == n
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}

// completeDiagnostics is the output of a javac stopped midway up to the
// start of its last diagnostic, which may have been cut off before its
// message's last lines (the symbol and location javac adds): only
// diagnostics another one followed are whole.
func completeDiagnostics(out []byte) []byte {
	last := -1
	for i := 0; i < len(out); {
		j := bytes.IndexByte(out[i:], '\n')
		if j < 0 {
			break
		}
		if headRE.Match(bytes.TrimRight(out[i:i+j], "\r")) {
			last = i
		}
		i += j + 1
	}
	if last < 0 {
		return nil
	}
	return out[:last]
}
