// Package fix derives the edits a seed change leaves to be made, in the
// manner of CodePlan's adaptive planning (Algorithm 1), and proves them
// with an oracle before anything is delivered.
//
// The plan is a graph of obligations: a block of code (a function, a
// method, a type), the reasons it must change (the findings of the
// impact analysis, or an oracle diagnostic) and a status. The
// developer's own edits are the roots and are never touched: a block the
// seed diff changed is never planned, and a diagnostic inside it is
// resolved by following the relation (the analyzer already attributes a
// "does not implement" error to the implementation, not to the changed
// interface), never by reverting it.
//
// One round:
//
//  1. Run the impact analysis (internal/check) between the base and the
//     current scratch state; every inconsistent site's enclosing block is
//     a pending obligation (may-be-impacted blocks too, when a model is
//     there to review them).
//  2. Order obligations callees first (blocks of derived changes, such as
//     a wrapper whose signature must follow, before the blocks that call
//     them).
//  3. Edit each block: the analyzer's mechanical fix when it has one
//     (renames, removed or reordered parameters, given defaults), else the
//     model, with the fragment (the block and a sketch of its enclosing
//     type), spatial context (the signatures it depends on) and temporal
//     context (the diffs of the edits on its plan path, the seed first).
//  4. Merge by block replacement; the file must still parse and the block
//     must still declare what it declared; otherwise the edit is rejected
//     and reported.
//  5. Classify again: step 1 on the new state finds what the edits
//     themselves impact (a wrapper's new parameter reaches its callers).
//
// When no obligation is left, the oracle (internal/oracle) runs on the
// scratch state; its diagnostics seed the next round. Only diagnostics
// the change introduced count: when the scratch state fails, the oracle
// judges the base state too (its own scratch worktree, once per file
// set) and what the base already had neither blocks proof nor is
// planned (oracle.Relative). A diagnostic about
// a name nobody declares (a helper the developer's edit calls before it
// was written, a field a replacement reads) is an obligation to declare
// it: on the type's block for a missing member, else a new declaration
// appended to a file of the name's scope (lang.Declarer: a package
// directory, where the use's file is tried first and another file when
// the imports it needs clash with the use's; or a module file), checked
// like a block (whole declarations, new names only, the wanted one among
// them). A name the base declared is never declared again: the change
// removed it. The
// loop stops when the oracle passes or a budget (rounds, tokens, time) is
// spent.
//
// Four more ways the plan reaches what the change leaves to be done:
//
//   - A callee whose result the developer's call now needs differently
//     (`a, b := split(s)` of a split that returns one value, `return
//     parse(s)` from a function whose result gained an error) is the
//     obligation, not the call's block: the oracle's diagnostic stands
//     in a block that changed (the developer's, or one the engine
//     edited), the callee did not, and the side that changed is the one
//     the other follows (callee.go, lang.ResultReader). The callee's
//     other callers are then planned by the check, as its result changed.
//   - Code outside any declaration that only the model can fix (a call
//     under `if __name__ == "__main__":`, a module-level assignment) is a
//     block per top-level statement, named StatementBlock(its first
//     line) and judged by lang.TopLevel.CheckStatement (toplevel.go);
//     what mechanical fixes settle there stays one FileScope obligation
//     per file.
//   - The review blocks of one file (warnings and notes the model may keep)
//     cost one request: a section per block, answered `unchanged` or with
//     the new text (batch.go, batchRule).
//   - A reply may delete its block (`ripple: delete`) or rename it
//     (`ripple: rename` and the new text: one declaration of the block's
//     kind under a name the scope lacks), as the system prompt documents
//     (reshape.go).
//
// An oracle's pass proves only the files whose front-end has an oracle
// (lang.Provable): an edit of a file of any other language leaves the
// run unproven, and the result says which files nothing judged.
//
// All edits happen in a scratch worktree (git worktree add --detach); the
// developer's work tree is written only by Apply, on request, after the
// plan is shown. Nothing is delivered unless the oracle passed, unless
// the caller explicitly asks for an unproven patch.
package fix
