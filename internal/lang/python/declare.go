package python

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// pyright's words for a name nobody declares.
var (
	notDefinedRE  = regexp.MustCompile(`^"(\w+)" is not defined`)
	noAttributeRE = regexp.MustCompile(`^Cannot access attribute "(\w+)" for class "(?:type\[)?(\w+)`)
	pyDeclKinds   = map[model.Kind]bool{model.KindFunc: true, model.KindType: true, model.KindInterface: true, model.KindVar: true, model.KindConst: true}
)

// MissingIn reads a pyright message about a missing declaration
// (lang.Declarer): a module-level name, or an attribute of a class.
func (fe *Frontend) MissingIn(msg string) (lang.Missing, bool) {
	if m := notDefinedRE.FindStringSubmatch(msg); m != nil {
		return lang.Missing{Name: m[1]}, true
	}
	if m := noAttributeRE.FindStringSubmatch(msg); m != nil {
		return lang.Missing{Type: m[2], Name: m[1]}, true
	}
	return lang.Missing{}, false
}

// InOrder: a module's statements run top to bottom (lang.Declarer).
func (fe *Frontend) InOrder() bool { return true }

// Scope is the module itself: a Python file's names are its own
// (lang.Declarer).
func (fe *Frontend) Scope(path string) string { return path }

// ImportScope is not resolved for Python yet: MissingIn reports no
// qualified names (lang.Declarer).
func (fe *Frontend) ImportScope(context.Context, gitio.Tree, string, []byte, string) (string, bool) {
	return "", false
}

// CheckNew judges new module-level definitions appended to a file
// (lang.Declarer): the file still parses, every line of [from, to] that is
// not blank or a comment belongs to a def, a class or an assignment that
// lies wholly inside, none of a name the module has, one of them want.
func (fe *Frontend) CheckNew(path string, src []byte, from, to int, want string, taken map[string]bool) error {
	ds, diag := fe.Decls(path, src)
	if diag != nil && diag.Partial {
		return fmt.Errorf("the file no longer parses: %s", diag.Message)
	}
	return lang.NewDecls(ds, src, from, to, want, taken, pyDeclKinds, func(l string) bool { return strings.HasPrefix(l, "#") })
}

// IsTest reports a pytest or unittest module by its name (lang.Declarer).
func (fe *Frontend) IsTest(p string) bool {
	n := p[strings.LastIndex(p, "/")+1:]
	return strings.HasPrefix(n, "test_") || strings.HasSuffix(n, "_test.py") || n == "conftest.py"
}

// Placeable: a Python declaration is appended to its own module, which
// every run of the program sees (lang.Declarer).
func (fe *Frontend) Placeable(p string, _ []byte) bool { return fe.Match(p) }

// pyrightMismatchRE are pyright's words for a value of the wrong type or
// a call with the wrong arguments.
var pyrightMismatchRE = regexp.MustCompile(`^Argument of type |^Expected \d+ positional argument|^Argument missing for parameter|^No parameter named |is not assignable to |^Type "[^"]*" is not assignable`)

// TypeMismatch reads a pyright message (lang.Declarer).
func (fe *Frontend) TypeMismatch(msg string) bool { return pyrightMismatchRE.MatchString(msg) }

// Receiver is self (or cls) for a method (lang.Declarer).
func (fe *Frontend) Receiver(b *model.Block) string {
	if b.Container == "" || b.Kind != model.KindMethod && b.Kind != model.KindConstructor {
		return ""
	}
	if strings.Contains(b.Signature, "(cls") {
		return "cls"
	}
	return "self"
}
