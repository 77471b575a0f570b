// Package languages is the one list of Ripple's language front-ends. The
// check, the pre-push hook, `hook fix` and the Action read it and nothing
// else: adding a language is one new package under internal/lang and one
// line here.
package languages

import (
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/golang"
	"github.com/ripple-dev/ripple/internal/lang/python"
	"github.com/ripple-dev/ripple/internal/lang/typescript"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// Frontends returns a fresh front-end of every language (a front-end may
// keep per-check state, such as a parse cache).
func Frontends() []lang.Frontend {
	return []lang.Frontend{golang.New(), python.New(), typescript.New()}
}

// Oracle is the oracle of every front-end that has one (lang.Provable),
// run together: a state passes when each language's oracle passes. env
// is added to the oracles' environment (the Action's secrets to mask).
func Oracle(fes []lang.Frontend, env []string) oracle.Oracle {
	var all oracle.All
	for _, fe := range fes {
		if p, ok := fe.(lang.Provable); ok {
			all = append(all, p.Oracle(env))
		}
	}
	return all
}
