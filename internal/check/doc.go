// Package check runs one Ripple check: it resolves the two states to
// compare, reads the diff, classifies the seed's atomic changes
// (internal/diffclassify), walks their impact (internal/propagate) and
// returns a model.Result for a writer (internal/report). The pre-push
// hook, the local CLI and the GitHub Action all run a Session
// (session.go): their ranges under one budget, each range's merge check,
// the results combined and the verdict under fail_on, so they agree; they
// only turn their input into ranges and deliver the result.
//
// States: Head is a commit, or the work tree (uncommitted work, untracked
// files included, compared with Base, by default HEAD). Base defaults to
// the merge-base of Head with the branch's upstream, else with the
// default branch.
//
// States may also be trees: Merge checks the head merged with another
// branch (a merged tree from git merge-tree, written to a scratch object
// store, gitio.Repo.Scratch) with two ordinary checks, the head's changes
// as they land on that branch and that branch's changes as they land on
// the head, and moves their findings to lines of commits a developer can
// open (the head's, or the other branch's for lines only it has).
// MergeResult.Into adds them to the ordinary check's result, each marked
// model.Finding.Merged, identical findings once. The merge check is a
// composition of checks: nothing in internal/propagate or the front-ends
// knows of it.
//
// Nothing here writes to the repository: files are read through git
// objects or from disk, never checked out.
package check
