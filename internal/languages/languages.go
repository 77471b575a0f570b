// Package languages is the registry of Ripple's languages: one
// lang.Language value each. The check, the pre-push hook, `hook fix`,
// `hook tools` and the Action read it and nothing else: adding a
// language is one new package under internal/lang and one entry here
// (a test adds a toy language that way, languages_test.go).
package languages

import (
	"sync"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/golang"
	"github.com/ripple-dev/ripple/internal/lang/java"
	"github.com/ripple-dev/ripple/internal/lang/python"
	"github.com/ripple-dev/ripple/internal/lang/typescript"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// registry is every language, in the order their front-ends are asked.
var registry = []lang.Language{golang.Language, python.Language, typescript.Language, java.Language}

// All returns the registered languages.
func All() []lang.Language { return append([]lang.Language(nil), registry...) }

// Frontends returns a fresh front-end of every language (a front-end may
// keep per-check state, such as a parse cache).
func Frontends() lang.Set { return SetOf(registry) }

// SetOf returns a fresh front-end of each of the languages: a test adds
// a language of its own as SetOf(append(All(), itsLanguage)).
func SetOf(ls []lang.Language) lang.Set {
	out := make(lang.Set, 0, len(ls))
	for _, l := range ls {
		out = append(out, l.New())
	}
	return out
}

// ByName returns the language named name (model.Block.Lang).
func ByName(name string) (lang.Language, bool) {
	for _, l := range registry {
		if l.Name == name {
			return l, true
		}
	}
	return lang.Language{}, false
}

// For returns the language that owns path.
func For(path string) (lang.Language, bool) {
	if fe := prototypes().For(path); fe != nil {
		return ByName(fe.Name())
	}
	return lang.Language{}, false
}

// prototypes answer For: which paths a front-end owns does not depend on
// a check (made once, on the first For).
var prototypes = sync.OnceValue(Frontends)

// Tools are the tools every language installs, in registry order.
func Tools() []lang.Tool {
	var out []lang.Tool
	for _, l := range registry {
		out = append(out, l.Tools...)
	}
	return out
}

// Oracle is the oracle of every front-end that has one (lang.Provable),
// run together: a state passes when each language's oracle passes. env
// is added to the oracles' environment (the Action's secrets to mask).
func Oracle(fes lang.Set, env []string) oracle.Oracle {
	var all oracle.All
	for _, fe := range fes {
		if p, ok := fe.(lang.Provable); ok {
			all = append(all, p.Oracle(env))
		}
	}
	return all
}
