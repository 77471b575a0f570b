// Package gitio is everything Ripple asks of git: resolving revisions,
// the changed files and hunks between two states, file contents at a
// revision or in the work tree, and a whole-word prefilter over a tree.
//
// Two back-ends, chosen by measurement (../shared/design/dependencies.md,
// re-measured on hashicorp/terraform, 700k lines, 2026-11):
//
//   - go-git reads what needs no object lookup: opening the repository,
//     references, symbolic references, branch tracking configuration and
//     the shallow list. Opening and reading config take under 1 ms.
//   - The git CLI does the rest. go-git's first object lookup in a process
//     loads the pack indexes (220 ms on terraform, where `git cat-file
//     --batch` answers in 19 ms), its diffs and rev-list walks are 10-100x
//     slower than the CLI, it refuses repositories with
//     extensions.worktreeConfig (sparse checkouts, go-git#1943) and it
//     fails on shallow and partial clones with "object not found". A
//     pre-push hook always has git at hand; an exec costs 2-5 ms.
//
// Unified diffs from the CLI are parsed with sourcegraph/go-diff.
//
// The whole-word search (search.go) cuts each file into words in one
// pass; a commit's files are looked up in a WordIndex (words.go) when
// the check has one: the words of every blob a search read, kept by
// blob id in the cache folder, so that a later search, in the same check
// or the next push, reads only the files the index cannot decide.
//
// A state may be a commit or a tree (RevTree reads either): a merged
// tree (MergeTree, git merge-tree --write-tree) is written to a scratch
// object store (Scratch: GIT_OBJECT_DIRECTORY on a temporary directory,
// the repository's store as an alternate), so that a merge check leaves
// no object behind.
//
// Errors name their cause in terms a developer can act on ("unknown
// revision", "shallow clone: base is not in the history"). Nothing in this
// package writes to the work tree, the index or the refs.
package gitio
