// Package fixmode delivers a proven fix (internal/fix) to a pull
// request: one commit per seed change pushed to its branch, a stacked
// pull request when that push is refused, or `suggestion`s on the lines
// of its diff. Package action decides which, from the event, the token
// and the fix-push input; this package does the work and writes the
// Markdown that reports it.
//
// Nothing is delivered unless the oracle passed on the whole fix: the
// caller hands over only a Result with Proven set, and Commit checks
// that its last commit's tree is exactly the proven state.
//
// # One commit per seed change (Split, Commit)
//
// Grouping. Each edited block (an obligation done) goes to the seed
// change it follows: the change of its reasons, followed through Cause
// to the developer's change when it is derived (an implementation that
// must follow an interface method); when no reason leads to a seed (a
// caller of a wrapper whose signature the engine itself changed), the
// obligation that caused it (Parent) is asked instead. The engine
// classifies its scratch state afresh on every iteration, so a seed
// change is a new value each time: changes are matched by label, path
// and declaration, not by pointer. A block that follows several seeds
// (it calls two changed functions) is one edit and cannot be split: it
// goes with the first seed's commit, whose message says it also follows
// the others. Blocks only an oracle diagnostic asked for form a last
// group, "edits the oracle asked for".
//
// Cutting the patch, not re-running the engine per seed. Re-running
// the fix engine once per seed would pay for the model again, could
// answer differently, and its per-seed results need not add up to the
// state the oracle proved. Instead the proven state is rebuilt from the
// head commit and the engine's patch in a temporary index (git apply
// --cached), diffed against the head without context (-U0), and each
// hunk is given to the edited block whose head-state lines (the
// front-end's declarations) contain it; an insertion just above or
// below a block belongs to it. Hunks outside every edited block (an
// import the model's edit needs) go with the first group that edits the
// same file, or to the last group. Commit k's tree is the head with the
// hunks of groups 1..k applied: cumulative, so the last tree must equal
// the proven one, which Commit verifies byte for byte (tree ids). A fix
// that adds, deletes or retypes a file, or whose diff is binary, is not
// cut: it becomes one commit holding the whole proven state (Unsplit
// says why). Only the last commit is proven; the earlier ones are its
// prefixes and need not build on their own.
//
// Commits are made with plumbing (hash-object, update-index on a
// temporary GIT_INDEX_FILE, write-tree, commit-tree) on the pull
// request's head commit: the checked-out branch is never needed, so
// actions/checkout's detached merge commit, the work tree, the index and
// HEAD are left as they are, and no hook runs. Author and committer are
// the fix-author input (github-actions[bot] by default); commit signing
// is off. Each message names the seed change on its first line ("ripple:
// follow func Sum: parameter c int added"), then one line per block with
// the relation path from the seed to it and how it was edited, then a
// "Ripple-Fix:" trailer naming the run, by which a later run recognises
// Ripple's own commits (and does not fix onto them again).
//
// # Pushing (PushBranch, PushOwn, OpenStacked)
//
// The branch must still be where the fix was made (git ls-remote): if it
// moved on, nothing is pushed and the run of the new head takes over.
// The push is a plain fast-forward, never forced, with local pre-push
// hooks skipped; the credentials are those actions/checkout left for
// origin. A push refused for any other reason (a protected branch, a
// token without contents: write, a 403) pushes Ripple's own branch
// ripple/fix/<number> instead (forced only over what an earlier run put
// there: --force-with-lease with the value just read) and opens a pull
// request of it into the pull request's branch through the REST API;
// when one is open already (422 "already exists"), that one is found and
// now holds the new commits.
//
// # Suggestions (Suggestions)
//
// A block's edit becomes one suggestion spanning its first to its last
// changed line of the head state (an insertion replaces the line above
// it by itself and the new lines), when those lines lie on the right
// side of one hunk of the pull request's diff, GitHub's condition for a
// suggestion it can apply. Other blocks' edits are in the patch only.
package fixmode
