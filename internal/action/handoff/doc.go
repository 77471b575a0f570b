// Package handoff is the file that carries a check from the job that
// analysed a pull request to the job that posts its review, in the
// two-phase set-up for pull requests from forks (docs/action.md).
//
// Phase one runs on pull_request with the read-only token of a fork: it
// analyses, annotates, writes the SARIF file and the summary, and writes
// this file, which the workflow uploads as an artifact. Phase two runs on
// workflow_run, in the base repository's context with a token that may
// write, and never checks out nor runs the pull request's code: it reads
// this file as untrusted data (the pull request could have changed the
// phase-one workflow and written anything).
//
// What Read guarantees: the file is at most MaxSize bytes, of version 1,
// names a pull request number and a full head commit, and its report
// decodes (internal/action/findings) with every finding's path clean and
// line positive. What it cannot know and the posting job checks against
// GitHub: that the pull request exists in this repository and that its
// head is the commit the finished workflow run was for (workflow_run's
// head_sha, which GitHub sets, not the pull request).
package handoff
