package typescript

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// tsc's words for a name nobody declares, as the oracle reports them
// (the message, then its code).
var (
	// Cannot find name 'clamp'. (TS2304); ... Did you mean 'Clamp'? (TS2552)
	cannotFindRE = regexp.MustCompile(`^Cannot find name '([\w$]+)'\.(?: Did you mean '[^']*'\?)? \(TS(?:2304|2552)\)$`)
	// Property 'x' does not exist on type 'T'. (TS2339), or ... Did you mean ...? (TS2551)
	noPropertyRE = regexp.MustCompile(`^Property '([\w$]+)' does not exist on type '([\w$]+)'\.(?: Did you mean '[^']*'\?)? \(TS(?:2339|2551)\)$`)
	// Module '"./lib"' has no exported member 'clamp'. (TS2305), and
	// '"./lib"' has no exported member named 'x'. Did you mean 'y'? (TS2724)
	noExportRE = regexp.MustCompile(`^(?:Module )?'"(\.{1,2}/[^"]+)"' has no exported member (?:named )?'([\w$]+)'`)
	// tsc's words for a value of the wrong type or a call with the wrong
	// arguments
	tscMismatchRE = regexp.MustCompile(`\(TS(?:2322|2345|2353|2554|2555|2556|2741|2559)\)$`)
	tsDeclKinds   = map[model.Kind]bool{model.KindFunc: true, model.KindType: true, model.KindInterface: true, model.KindVar: true, model.KindConst: true}
)

// MissingIn reads a tsc message about a missing declaration
// (lang.Declarer): a name of the file's module, a member of a type it
// declares, or a name another module of the repository does not export
// (the qualifier is then the module's relative specifier).
func (fe *Frontend) MissingIn(msg string) (lang.Missing, bool) {
	if m := cannotFindRE.FindStringSubmatch(msg); m != nil {
		return lang.Missing{Name: m[1]}, true
	}
	if m := noPropertyRE.FindStringSubmatch(msg); m != nil {
		return lang.Missing{Type: m[2], Name: m[1]}, true
	}
	if m := noExportRE.FindStringSubmatch(msg); m != nil {
		return lang.Missing{Qualifier: m[1], Name: m[2]}, true
	}
	return lang.Missing{}, false
}

// InOrder: a module's top-level code runs top to bottom, and a class or
// a const is not usable above its declaration (lang.Declarer).
func (fe *Frontend) InOrder() bool { return true }

// Scope is the module, the file itself: its names are its own
// (lang.Declarer).
func (fe *Frontend) Scope(p string) string { return p }

// tsModuleExts are the files a relative specifier may name, in the order
// TypeScript's resolution tries them.
var tsModuleExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs", "/index.ts", "/index.tsx", "/index.js"}

// ImportScope resolves a relative module specifier of file (the
// qualifier MissingIn gives) to a file of the repository (lang.Declarer):
// as written, with an extension TypeScript adds, or a .js specifier
// naming its .ts source. A bare specifier is a package: not ours to
// extend.
func (fe *Frontend) ImportScope(ctx context.Context, t gitio.Tree, file string, _ []byte, qualifier string) (string, bool) {
	if !strings.HasPrefix(qualifier, "./") && !strings.HasPrefix(qualifier, "../") {
		return "", false
	}
	base := path.Join(path.Dir(file), qualifier)
	if strings.HasPrefix(base, "../") {
		return "", false
	}
	cands := []string{base}
	stem := strings.TrimSuffix(base, path.Ext(base))
	switch path.Ext(base) {
	case ".js", ".jsx", ".mjs", ".cjs":
		cands = append(cands, stem+".ts", stem+".tsx", stem+".mts", stem+".cts")
	}
	for _, ext := range tsModuleExts {
		cands = append(cands, base+ext)
	}
	for _, c := range cands {
		if !fe.Match(c) || strings.HasSuffix(c, ".d.ts") {
			continue
		}
		if _, err := t.ReadFile(ctx, c); err == nil {
			return c, true
		}
	}
	return "", false
}

// CheckNew judges new top-level declarations appended to a file
// (lang.Declarer): the file still parses, every line of [from, to] that
// is not blank or a comment belongs to a function, class, interface,
// type or exported const wholly inside, none of a name the module has,
// one of them want.
func (fe *Frontend) CheckNew(p string, src []byte, from, to int, want string, taken map[string]bool) error {
	ds, diag := fe.Decls(p, src)
	if diag != nil && diag.Partial {
		return fmt.Errorf("the file no longer parses: %s", diag.Message)
	}
	return lang.NewDecls(ds, src, from, to, want, taken, tsDeclKinds, func(l string) bool {
		return strings.HasPrefix(l, "//") || strings.HasPrefix(l, "/*") || strings.HasPrefix(l, "*")
	})
}

// IsTest reports a test module by the conventions of Jest, Vitest and
// Mocha: *.test.*, *.spec.*, or under __tests__ (lang.Declarer).
func (fe *Frontend) IsTest(p string) bool {
	n := path.Base(p)
	return strings.Contains(n, ".test.") || strings.Contains(n, ".spec.") || strings.Contains("/"+p, "/__tests__/")
}

// Placeable: a source file of the front-end's, not a declaration file,
// which holds no code (lang.Declarer).
func (fe *Frontend) Placeable(p string, _ []byte) bool {
	return fe.Match(p) && !strings.HasSuffix(p, ".d.ts") && !strings.HasSuffix(p, ".d.mts") && !strings.HasSuffix(p, ".d.cts")
}

// TypeMismatch reads a tsc message: not assignable, wrong argument
// types or counts, a missing or unknown property of a literal
// (lang.Declarer).
func (fe *Frontend) TypeMismatch(msg string) bool { return tscMismatchRE.MatchString(msg) }

// Receiver is this for a method or constructor (lang.Declarer).
func (fe *Frontend) Receiver(b *model.Block) string {
	if b.Container == "" || b.Kind != model.KindMethod && b.Kind != model.KindConstructor {
		return ""
	}
	return "this"
}
