// Package lang is the contract between Ripple's language-neutral core and
// its language front-ends. A language is one package under internal/lang
// and one Language value in the registry (internal/languages); nothing
// else in the core names it. A check's front-ends are a Set, which says
// which one owns a path (For) and which one made a block (ByName).
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
//     Escapes); it never labels it. Its own view of a declaration (syntax
//     nodes, a parsed signature) is model.Block.Data, which travels with
//     the change: no side table maps blocks back to syntax.
//  2. Answer impact queries (Analyzer.Answer). The core
//     (internal/propagate) owns the walk: it chooses, per change, the
//     relations of the may-impact table model.Impacts, asks each
//     front-end's analyzer for the dependents of a batch of changes along
//     those relations, builds findings with their relation trails from
//     the answers (Refs), settles verdicts and levels, and walks the
//     derived changes a Ref's Follow implies (a wrapper whose signature
//     must follow the seed, an override of a changed method) in the next
//     round. A front-end never builds a finding, a trail or a derived
//     change itself. It answers through a table of Finders (finder.go):
//     each names the labels it has something to search for and the
//     relations its sites are found along, a query runs only the finders
//     that serve its change's label and one of its relations, and a test
//     of each front-end holds its table to the core's (FinderGaps).
//
// Candidate search and parsing are the core's too: an analyzer holds an
// internal/corpus.Corpus of its language's files (listed once, searched
// with one whole-word grep, read in one batch, parsed once each in a
// pool, unreadable files reported).
//
// Optional capabilities are discovered by type assertion, as in reviewdog:
// a front-end without a type checker simply reports PrecisionSyntax or
// PrecisionName, and the report says so. Stats says what an analyzer did;
// Provable gives the oracle that proves a state (go build and vet,
// pyright, tsc: each in a package of its own beside its front-end);
// the fix engine (internal/fix) uses BlockEditor (judge a model's block,
// move its imports), ImportPruner (drop an import an edit left unused)
// and Declarer (read the oracle's "undefined" messages and judge new
// declarations appended to a file; Go declares per package directory,
// Python per module), ResultReader (name the callee whose result an
// oracle message says does not fit its use: the engine plans the callee)
// and TopLevel (the top-level statement holding a line, and a judge of
// its replacement: code outside any declaration the model may edit).
package lang
