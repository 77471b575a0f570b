//go:build !unix

package cli

import "os/exec"

func detach(*exec.Cmd)         {}
func lower(int)                {}
func processAlive(string) bool { return false }
