// Package diffclassify turns the seed diff into atomic changes.
//
// Input: the changed files between two states (gitio.FileChange, with
// hunks), the two trees, and the language front-ends. For every changed
// file a front-end handles, both states are parsed into declarations
// (lang.Decl); the declarations of all changed files are then matched by
// identity (language, package, unit, key) across the two states, so a
// declaration moved between files of one package is not a change.
//
// The label of each atomic change (model.Label, CodePlan Table 1) is
// decided here, the same way for every language, from the declaration's
// kind and which fingerprint changed:
//
//	Sig changed        func, method, interface method -> MMS; constructor -> MCC;
//	                   field, var, const -> MF; type, interface -> MC
//	only Body changed  func, method, constructor -> MMB (with Escapes);
//	                   var, const -> MMB ("value")
//	only in base       -> DM, DCC, DF, DC, DI by kind (deleted)
//	only in head       -> AM, ACC, AF, AC, AI by kind (added)
//
// Renames: a declaration only in base and one only in head of the same
// kind, package and container are paired when their bodies are equal, or
// their signatures are equal and their bodies similar (token Jaccard >=
// 0.6). A rename is a D* change with both Old and New set, so that every
// remaining use of the old name is found.
//
// Over-approximation policy: a change is never dropped because it looks
// harmless; whether it impacts anything is the analyzers' question (an
// MMB without escapes simply has no relations to walk). Files that are
// binary, too large or do not parse are reported as diagnostics and
// contribute the declarations that could be read.
package diffclassify
