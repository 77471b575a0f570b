// Package prepush turns what git tells a pre-push hook into the ranges of
// commits Ripple checks.
//
// Input: git runs the hook as `pre-push <remote-name> <remote-url>` and
// writes one line per ref being pushed on its standard input:
//
//	<local ref> SP <local sha> SP <remote ref> SP <remote sha> LF
//
// Parse reads those lines into Updates. Plan decides, for each Update,
// either a Range (check the diff Base..Head) or a Skip (with the reason
// shown to the user). Head is always a commit: the local object peeled
// through annotated tags.
//
//	update                                         decision
//	---------------------------------------------  ---------------------------------------------
//	local sha all zeros (delete)                   skip "deleting <ref>"
//	local object is not a commit (tag of a tree)   skip "<ref> points to a tree, not a commit"
//	remote commit local, ancestor of head          Base = remote commit ("update of <ref>")
//	remote commit local, not an ancestor (force)   Base = merge-base(remote, head);
//	                                               no merge-base: skip (no common history);
//	                                               merge-base = head: skip (only removes commits)
//	remote sha zero (new ref), or remote sha not   the commits `rev-list head --not <remote>`:
//	  in this repository (the remote moved and       none: skip "... with no new commits";
//	  was never fetched)                             no boundary commit (they reach a root):
//	                                                 skip "first push of a history with no
//	                                                 commits on the remote";
//	                                                 one boundary: Base = it;
//	                                                 several: Base = merge-base of head with the
//	                                                 remote's default branch, else the newest
//	                                                 boundary
//	Base == Head                                   skip
//
// Tags follow the same rules as branches: a tag on commits already on the
// remote is skipped, a tag on a new commit is checked from the commit the
// new history grew from.
//
// What counts as "on the remote" for a new ref, in order: the
// remote-tracking refs of the pushed remote when it is a configured remote
// (by name, or by a URL equal to its remote.<name>.url) that has some;
// else every remote-tracking ref (commits published anywhere are not the
// new work of this push); else, in a repository that never fetched, the
// local branches that do not contain the pushed commit. That last proxy
// reads "work that is not this push": excluding a branch that contains
// the pushed commit (a branch stacked on top of it, or the pushed branch
// itself) would hide the very commits being pushed.
//
// Why a new ref never checks the whole tree: with nothing known to be on
// the remote there is no old state to compare with. Diffing against the
// empty tree would report every declaration of the repository as added,
// a check that says nothing about impact and costs the most on the
// largest pushes. The first push of a history is therefore skipped with a
// reason, and a new branch is checked only from the point where it left
// history the remote already has.
//
// Plan reads refs and objects and never writes. Ranges and skips follow
// the input order; ranges with the same Base and Head are merged into one
// whose Ref lists the remote refs joined with ", ".
package prepush
