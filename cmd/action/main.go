// Command action is Ripple's GitHub Action: action.yml at the top of this
// repository builds and runs it. Everything is in internal/action.
package main

import (
	"os"

	"github.com/ripple-dev/ripple/internal/action"
)

func main() { os.Exit(action.Main()) }
