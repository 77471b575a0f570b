package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ripple-dev/ripple/internal/languages"
	"github.com/ripple-dev/ripple/internal/oracle"
	"github.com/ripple-dev/ripple/internal/usercache"
)

// runTools is `hook tools`: the tools the languages install on first use
// (an npm package at a pinned version each), from the registry; `hook
// tools install` installs the missing ones now (a CI image, a machine
// about to go offline), as a first use would.
func runTools(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tools", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: hook tools [install]

Lists the tools Ripple's languages install into its user cache on first
use, with their pinned versions; install finds or installs each now
(PATH first, then the user cache, else npm install into it) and prints
where it is. A tool that cannot be installed is named with the cause;
the exit status is then 2.`)
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return ExitOK
		}
		return ExitFailure
	}
	install := false
	switch rest := fs.Args(); {
	case len(rest) == 0:
	case len(rest) == 1 && rest[0] == "install":
		install = true
	default:
		fmt.Fprintf(stderr, "ripple: tools: unknown argument %q (hook tools, or hook tools install)\n", strings.Join(rest, " "))
		return ExitFailure
	}
	tools := languages.Tools()
	if !install {
		for _, t := range tools {
			dir, _ := usercache.ToolDir(t.Name)
			fmt.Fprintf(stdout, "%s %s: %s (%s)\n", t.Name, t.Version, t.Why, usercache.HomeRel(dir))
		}
		return ExitOK
	}
	ctx = oracle.WithLog(ctx, stderr)
	code := ExitOK
	for _, t := range tools {
		bin, err := t.Locate(ctx)
		if err != nil {
			fmt.Fprintf(stderr, "ripple: %s %s: %v\n", t.Name, t.Version, err)
			code = ExitFailure
			continue
		}
		fmt.Fprintf(stdout, "%s %s: %s\n", t.Name, t.Version, usercache.HomeRel(bin))
	}
	return code
}
