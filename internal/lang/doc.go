// Package lang is the contract between Ripple's language-neutral core and
// its language front-ends.
//
// A front-end does two jobs:
//
//  1. Parse one state of one file into declarations (Decls). The neutral
//     classifier (internal/diffclassify) matches the old and new
//     declarations of the changed files and decides the CodePlan label of
//     each atomic change from the kind of the declaration and from which of
//     its two fingerprints changed: Sig (what dependents rely on: a
//     signature, a field's type and tag, an interface's method set) or
//     Body (the rest). The front-end only explains a change (Details,
//     Escapes); it never labels it.
//  2. Answer impact queries (Analyzer.Impacted): for a batch of changes,
//     the sites related to each by the relations of model.Impacts, each
//     with a verdict and the precision it was established with. Derived
//     changes (a wrapper whose signature must follow the seed) come back to
//     the driver (internal/propagate), which walks them transitively.
//
// Optional capabilities are discovered by type assertion, as in reviewdog:
// a front-end without a type checker simply reports PrecisionSyntax or
// PrecisionName, and the report says so. The fix engine (internal/fix)
// uses three: BlockEditor (judge a model's block, move its imports),
// ImportPruner (drop an import an edit left unused) and Declarer (read
// the oracle's "undefined" messages and judge new declarations appended
// to a file; Go declares per package directory, Python per module).
package lang
