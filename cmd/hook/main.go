// Command hook is Ripple's local command: the pre-push hook, the check of
// a range or of the work tree, and the hook installer. See internal/cli.
package main

import (
	"os"

	"github.com/ripple-dev/ripple/internal/cli"
)

func main() { os.Exit(cli.Main()) }
