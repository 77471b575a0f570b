// Package hookinstall installs and removes the git pre-push hook that runs
// Ripple.
//
// Where: HooksDir asks git (`git rev-parse --git-path hooks`), so the
// answer is git's own: core.hooksPath when set (relative values are
// relative to the top of the work tree, where git runs hooks, so each
// linked worktree resolves its own), else the hooks directory of the
// common git directory, which linked worktrees share. A core.hooksPath
// set by a hook manager (husky's .husky/_, lefthook, ...) is respected:
// the hook goes into that directory, and the message points those users
// to the README's snippets, because such tools rewrite their directory.
//
// What: a POSIX sh script (Script) whose second line is the marker
// "# ripple-pre-push-hook v1"; Install and Uninstall recognise Ripple's
// hook by a line starting "# ripple-pre-push-hook v" in its first lines
// and never delete or overwrite a hook without it. The script
//
//   - reads the pushed refs from standard input once, into a mktemp file
//     removed by a trap;
//   - runs the chained hook pre-push.ripple-chained, if it is an
//     executable file, with the same arguments and input, and stops with
//     its status if it fails;
//   - runs `"$RIPPLE" pre-push "$@"` on the saved input and exits with
//     its status. RIPPLE is $RIPPLE_BIN, else the binary path given at
//     install time; if that is not an executable file, the `hook` command
//     on PATH; if there is none, it says so on stderr and lets the push
//     go (exit 0): a moved binary must not block every push, and the
//     message says how to fix it.
//
// Decisions of Install, in order:
//
//	no pre-push hook                  write Ripple's hook
//	Ripple's hook, same content       nothing to do (said so)
//	Ripple's hook, other content      ErrOtherVersion; replaced with Force
//	another hook, no chained hook     rename it to pre-push.ripple-chained,
//	                                  then write Ripple's hook
//	another hook and a chained hook   error: nothing is moved
//
// Uninstall removes Ripple's hook and renames pre-push.ripple-chained back
// to pre-push when present; without Ripple's hook it returns
// ErrNotInstalled and changes nothing. Files are written to a temporary
// name and renamed, mode 0755 whatever the umask; the hooks directory is
// created when missing.
package hookinstall
