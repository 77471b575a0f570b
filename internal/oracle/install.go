package oracle

import (
	"context"
	"fmt"
	"io"

	"github.com/ripple-dev/ripple/internal/usercache"
)

// An npm install of a tool takes seconds to minutes, once, on the first
// check that needs it; without a word the check looks hung. The line
// goes to the writer the command line put in the context (WithLog), so
// that this package never writes to the process's streams itself.

type logKey struct{}

// WithLog returns ctx carrying w, where the oracles say what they
// install before they install it.
func WithLog(ctx context.Context, w io.Writer) context.Context {
	return context.WithValue(ctx, logKey{}, w)
}

// SayInstalling writes "ripple: installing typescript@7.0.2 into
// ~/.cache/ripple/typescript (first use; once)" to ctx's log, if any.
func SayInstalling(ctx context.Context, pkg, version, dir string) {
	w, _ := ctx.Value(logKey{}).(io.Writer)
	if w == nil {
		return
	}
	fmt.Fprintf(w, "ripple: installing %s@%s into %s (first use; once)\n", pkg, version, usercache.HomeRel(dir))
}
