// Package check runs one Ripple check: it resolves the two states to
// compare, reads the diff, classifies the seed's atomic changes
// (internal/diffclassify), walks their impact (internal/propagate) and
// returns a model.Result for a writer (internal/report). The pre-push
// hook, the local CLI and the GitHub Action all call Run, so they agree.
//
// States: Head is a commit, or the work tree (uncommitted work, untracked
// files included, compared with Base, by default HEAD). Base defaults to
// the merge-base of Head with the branch's upstream, else with the
// default branch.
//
// Nothing here writes to the repository: files are read through git
// objects or from disk, never checked out.
package check
