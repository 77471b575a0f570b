// Package action is Ripple's GitHub Action: it puts the findings of a
// check where reviewers look, without ever running the code it checks.
//
// One run (Run, behind cmd/action):
//
//  1. Inputs (action.yml) are read with go-githubactions; those that are
//     config keys become the command-line flags of the same name
//     (-fail-on, -ignore, ...) and go through config.Resolve, so the
//     action validates and layers them exactly as `hook check` does
//     (defaults < .ripple.yaml < inputs). The token is masked at once.
//  2. The event (internal/action/event) gives the range, fetching what a
//     shallow checkout lacks.
//  3. check.Run analyses it. Ripple reads git objects and parses and
//     type-checks source; it never builds, tests or runs the code under
//     review, so it is safe on a pull request from anyone. On a pull
//     request the merge check (check.Merge) follows, within the same
//     budget: the head merged with the event's base commit, unless
//     merge-check (merge_check) is false. Its sites on lines only the
//     base branch has take no inline comment and are annotated at the
//     change's declaration, naming the site; a failure of the merge
//     check is a warning.
//  4. The findings go out on every channel that works with the token at
//     hand: the text report in a log group (workflow commands stopped
//     while it prints, so a source line cannot issue one), annotations
//     within GitHub's limits (internal/action/annotate), the SARIF file
//     for upload-sarif, the review on a pull request
//     (internal/action/review), the handoff file for the two-phase
//     set-up (internal/action/handoff), the job summary
//     (internal/action/summary) and the step's outputs.
//  5. The exit code is `hook check`'s: 0 nothing at or above fail_on,
//     1 findings at or above it, 2 Ripple could not check (the summary
//     and an error annotation say why: a missing GITHUB_EVENT_PATH, an
//     unsupported event, a shallow checkout it could not deepen...).
//
// A review that cannot be posted (a read-only token on a fork or
// Dependabot pull request, a 404, rate limits past the budget) never
// changes the exit code: the other channels carry every finding, and the
// summary says what happened and what to do.
//
// With mode: fix (fix.go, internal/action/fixmode), a pull request's run
// also runs the fix engine (internal/fix) on the checked range, after the
// annotations and before the review: mechanical edits, the model's edits
// when llm-base-url and llm-model name one (the key only from the
// RIPPLE_LLM_API_KEY environment variable, masked at once), and the
// oracle, whose environment has the token and the key blanked. Only a
// proven fix is delivered: one commit per seed change pushed to the pull
// request's branch, else a stacked pull request (ripple/fix/<number>),
// else (fix-push: none, a fork, a read-only token, a branch that moved
// on) suggestions on the diff and the fix-patch file. Fork pull requests
// are never pushed to, and on pull_request_target the engine does not
// run for them at all: that job holds a write token and secrets, and the
// oracle builds the pull request's code. What the fix did never changes
// the exit code, which stays the check's.
//
// With the review-from input the run is phase two of the two-phase
// set-up instead: on workflow_run, it reads a handoff file and posts its
// review, checking the pull request against the finished run's commit.
//
// go-githubactions panics when a file command's file is unset or
// unwritable; every such call goes through runner, which logs instead.
package action
