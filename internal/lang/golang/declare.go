package golang

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// The compiler's words for a name nobody declares (go build and go vet
// print the type checker's messages as they are).
var (
	undefinedNameRE   = regexp.MustCompile(`^undefined: (?:(\w+)\.)?(\w+)$`)
	undefinedMemberRE = regexp.MustCompile(`undefined \(type \*?(?:(\w+)\.)?(\w+)(?:\[[^\]]*\])? has no field or method (\w+)`)
	unknownFieldRE    = regexp.MustCompile(`^unknown field (\w+) in struct literal of type \*?(?:(\w+)\.)?(\w+)`)
)

// MissingIn reads a go build or go vet message about a missing
// declaration (lang.Declarer).
func (fe *Frontend) MissingIn(msg string) (lang.Missing, bool) {
	msg = strings.TrimSpace(msg)
	if m := undefinedNameRE.FindStringSubmatch(msg); m != nil {
		return lang.Missing{Qualifier: m[1], Name: m[2]}, true
	}
	if m := undefinedMemberRE.FindStringSubmatch(msg); m != nil {
		return lang.Missing{Qualifier: m[1], Type: m[2], Name: m[3]}, true
	}
	if m := unknownFieldRE.FindStringSubmatch(msg); m != nil {
		return lang.Missing{Qualifier: m[2], Type: m[3], Name: m[1]}, true
	}
	return lang.Missing{}, false
}

// InOrder: a Go package's declarations may come in any order
// (lang.Declarer).
func (fe *Frontend) InOrder() bool { return false }

// Scope is a Go file's package directory (lang.Declarer).
func (fe *Frontend) Scope(file string) string { return path.Dir(file) }

// ImportScope finds the repository directory of the package that
// qualifier names in the file (lang.Declarer).
func (fe *Frontend) ImportScope(ctx context.Context, t gitio.Tree, file string, src []byte, qualifier string) (string, bool) {
	f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.ImportsOnly|parser.SkipObjectResolution)
	if err != nil {
		return "", false
	}
	var imp string
	for _, is := range f.Imports {
		p, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			continue
		}
		name := defaultImportName(p)
		if is.Name != nil {
			name = is.Name.Name
		}
		if name == qualifier {
			imp = p
			break
		}
	}
	if imp == "" {
		return "", false
	}
	mods, err := loadModules(ctx, t)
	if err != nil {
		return "", false
	}
	files, err := t.List(ctx, "*.go")
	if err != nil {
		return "", false
	}
	dirs := map[string]bool{}
	for _, f := range files {
		d := path.Dir(f)
		if d == "." {
			d = ""
		}
		dirs[d] = true
	}
	from := path.Dir(file)
	if from == "." {
		from = ""
	}
	return mods.dirOf(imp, from, dirs)
}

// topNames are the names one top-level declaration binds.
func topNames(d ast.Decl) []string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && len(d.Recv.List) > 0 {
			base, _ := recvBase(d.Recv.List[0].Type)
			return []string{base + "." + d.Name.Name}
		}
		if d.Name.Name == "init" || d.Name.Name == "_" {
			return nil // may be declared any number of times
		}
		return []string{d.Name.Name}
	case *ast.GenDecl:
		return slices.DeleteFunc(specNames(d), func(n string) bool { return n == "_" })
	}
	return nil
}

// CheckNew judges new declarations appended to a file (lang.Declarer):
// lines [from, to] of src hold only whole top-level declarations, other
// than imports, of names the package does not declare yet, one of them
// want.
func (fe *Frontend) CheckNew(file string, src []byte, from, to int, want string, taken map[string]bool) error {
	fset, inside, err := editedDecls(file, src, from, to)
	if err != nil {
		return err
	}
	found := false
	for _, d := range inside {
		s := fset.PositionFor(d.Pos(), false).Line
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			return fmt.Errorf("an import declaration (line %d) among the new declarations", s)
		}
		for _, name := range topNames(d) {
			if taken[name] {
				return fmt.Errorf("%s (line %d) is already declared in the package", name, s)
			}
			if name == want {
				found = true
			}
		}
	}
	if len(inside) == 0 {
		return fmt.Errorf("the reply declares nothing")
	}
	if !found {
		return fmt.Errorf("the reply does not declare %s", want)
	}
	return nil
}

// IsTest reports a Go test file (lang.Declarer).
func (fe *Frontend) IsTest(file string) bool { return strings.HasSuffix(file, "_test.go") }

// constrainedName is a Go file whose name restricts it to some platforms
// (foo_linux.go, foo_arm64_test.go).
var constrainedName = regexp.MustCompile(`_(aix|android|darwin|dragonfly|freebsd|hurd|illumos|ios|js|linux|nacl|netbsd|openbsd|plan9|solaris|wasip1|windows|zos|386|amd64|arm|arm64|loong64|mips|mipsle|mips64|mips64le|ppc64|ppc64le|riscv64|s390x|wasm)(_test)?\.go$`)

// buildLineRE is a build constraint line.
var buildLineRE = regexp.MustCompile(`(?m)^//(go:build|\s*\+build) `)

// Placeable reports a Go source file that every build of its package
// compiles: not a test, no platform in its name, no build line
// (lang.Declarer).
func (fe *Frontend) Placeable(file string, src []byte) bool {
	return strings.HasSuffix(file, ".go") && !fe.IsTest(file) && !constrainedName.MatchString(path.Base(file)) && !buildLineRE.Match(src)
}

// typeMismatchRE are the compiler's words for a value of the wrong type
// or a call with the wrong arguments.
var typeMismatchRE = regexp.MustCompile(`^cannot use |arguments in call to |^mismatched types|^invalid operation|^cannot assign`)

// TypeMismatch reads a go build or vet message (lang.Declarer).
func (fe *Frontend) TypeMismatch(msg string) bool { return typeMismatchRE.MatchString(msg) }

// receiverRE is the receiver's name in a method's signature.
var receiverRE = regexp.MustCompile(`^func \((\w+) `)

// Receiver is the receiver variable of a method (lang.Declarer).
func (fe *Frontend) Receiver(b *model.Block) string {
	if b.Container == "" {
		return ""
	}
	if m := receiverRE.FindStringSubmatch(b.Signature); m != nil {
		return m[1]
	}
	return ""
}
