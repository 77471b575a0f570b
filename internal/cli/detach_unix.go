//go:build unix

package cli

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// detach makes cmd a session of its own: it outlives the hook and the
// terminal, and a ^C in the terminal does not reach it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

// lowerSelf gives this process the lowest priority, so that a warm-up
// yields to whatever its user is doing. Started through nice, its
// threads have it already; but a session of its own is also a
// scheduling group of its own where the kernel groups by session
// (autogroup), and a group competes with the user's terminal as an
// equal whatever the nice value of its threads, so the group is
// lowered too.
func lowerSelf() {
	_ = os.WriteFile("/proc/self/autogroup", []byte("19"), 0o644)
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, 0, 19)
}

// processAlive reports whether pid names a running process.
func processAlive(pid string) bool {
	n, err := strconv.Atoi(pid)
	return err == nil && n > 0 && syscall.Kill(n, 0) == nil
}
