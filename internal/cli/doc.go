// Package cli is the command line of the `hook` binary: the local check,
// the pre-push entry point and the hook installer. main stays thin
// (cmd/hook calls Main); everything here takes its streams and arguments
// as parameters so that tests and testscript scripts run it in-process.
//
// Exit codes (the contract the benchmark and CI scripts rely on):
//
//	0  nothing at or above fail_on (default: no inconsistent site)
//	1  findings at or above fail_on
//	2  Ripple itself failed (bad arguments, unknown revision, git missing)
//
// The merge check (check -merge BRANCH, merge_check) runs beside the
// ordinary check, within the same budget (merge.go). In the pre-push hook
// it is off unless merge_check is set, and then merges each pushed head
// with the pushed remote's default branch; a remote-tracking branch not
// updated for StaleAfter is said in one line after the report.
//
// In the pre-push hook a failure of Ripple lets the push through by
// default (on_tool_error: allow), saying why on stderr; with
// on_tool_error: block it exits 2 and git stops the push.
package cli
