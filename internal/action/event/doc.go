// Package event turns the event that started a workflow into the range
// of commits Ripple checks.
//
// Reading and parsing are split (as reviewdog's cienv does): FromEnv
// reads GITHUB_EVENT_NAME and the payload file at GITHUB_EVENT_PATH and
// fails with an error naming the missing variable or unreadable file;
// Parse decodes a payload and fails on an event Ripple does not handle,
// naming the events it does.
//
// What each event checks (Plan):
//
//   - pull_request, pull_request_target: the pull request's head commit
//     against its merge-base with the base commit of the payload: exactly
//     the "Files changed" view of GitHub, whatever actions/checkout put in
//     the work tree (by default the merge commit).
//   - push: after against before; a new branch (before all zeros) against
//     its merge-base with the default branch; a force push against the
//     merge-base of before and after; a deleted branch checks nothing.
//   - workflow_dispatch: GITHUB_SHA (or the head input) against the base
//     input, else the merge-base with the default branch.
//   - workflow_run: only to post a review prepared by an earlier run
//     (the two-phase set-up); it has no range of its own.
//
// Base and head inputs override what the event says.
//
// Shallow clones. actions/checkout fetches one commit by default, so the
// base or the merge-base are usually missing. With Deepen set, Plan
// fetches the missing commits by name and deepens the history
// (git fetch --deepen) in growing steps until the merge-base appears; it
// never fetches more than MaxDeepen commits. Without Deepen, or when
// fetching fails (no remote, no credentials), the error names the exact
// fix: `fetch-depth: 0` on actions/checkout, or the git fetch command the
// action would have run. Fetching reads objects only: nothing fetched is
// checked out or executed.
package event
