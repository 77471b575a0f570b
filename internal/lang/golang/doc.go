// Package golang is Ripple's Go front-end: it reads Go declarations for
// the classifier and answers impact queries for the driver.
//
// # Declarations (decls.go, details.go)
//
// Each top-level function, method, type, struct field, interface method,
// variable, constant and import of a file is a lang.Decl. Sig holds what
// dependents rely on (parameter and result types, receiver pointer-ness,
// type parameters, a field's type and encoding names from its tags, an
// interface's embeddings); Body the rest, as a token stream so that
// comments and layout never count as changes. NewT functions returning T
// are constructors. Details explains a signature change ("parameter ctx
// context.Context added"); Escapes says whether a body change reaches
// callers (return values, errors, mutated receivers, arguments or package
// state, panics, exits), looking only at the statements on changed lines.
//
// # Impact, in two tiers (analyzer.go)
//
// Candidates: a whole-word git grep of the head state for the names
// dependents would use (the old name of a renamed declaration), plus the
// seed packages in full. Each candidate file is parsed once, in part:
// the bodies of top-level functions whose declarations name none of the
// words (nor a target's name or container) are left out, and the file
// is completed in place when something needs every body (partial.go).
//
// Fast tier (resolve.go, symbols.go, verdict.go, asserted.go): identifiers are
// resolved through the file's scopes (scope.go: a scope walk of our own,
// which says whether a name is a local binding and which node declares
// it; files are parsed with parser.SkipObjectResolution) and imports (a
// package-level name, a
// qualified pkg.Name with the import's real package name, dot imports);
// members (x.Name, T{Name: v}) through a small receiver inference over
// the indexed packages (parameters, receivers, locals from literals and
// constructor calls, fields, results, embedding). Verdicts from syntax:
// argument counts against the new parameters, result counts against the
// assignment, uses of deleted or renamed names, unkeyed literals against
// an added or deleted field, implementations with the old signature of a
// changed interface method. An interface that gained a method, where no
// checker ran, is held against the types the syntax claims implement it
// (ifacesyntax.go).
//
// Precise tier (typecheck.go, siteerrors.go, narrowed.go, loader.go, evidence.go, implements.go): the
// packages holding references
// are type-checked with go/types, from source, with bodies; their imports
// are loaded declarations-only (bodies blanked before parsing, strip.go):
// packages of the repository from the head state, the standard library
// and module-cache packages from disk. Their declarations are kept as
// export data across runs (exportcache.go): standard library and
// module-cache packages by directory, repository packages (and
// module-cache packages built on a package not found) by a content key
// over their files and their imports' keys (repocache.go), so a check
// loads from source only the imported packages that changed since an
// earlier one (the packages holding references are always checked from
// source, with their bodies). The checked packages import from a
// universe of their own, read lazily from those entries (lazy.go): their
// direct imports whole, the deeper packages only as far as the entries
// that refer to them need; entry keys are computed from file heads
// without loading, and entries carry a checksum (a corrupt one is
// ignored). An import that cannot be found becomes an empty
// stub: the checker is silent about code using it, and that silence is
// no evidence (evidence.go): a site is consistent only when everything
// around it was typed, else it keeps its syntactic verdict and names what
// was missing; an error that only shows an unknown method set is
// dropped. The packages not found are named once per check. The
// checked packages are prepared in parallel, largest first, while their
// imports are read one package at a time, then checked in parallel; in
// each, only the bodies holding a
// reference or naming a judged target (a whole word) are kept, and the
// imports only the removed bodies used are dropped with them (each is a
// package to load). A changed
// or removed interface method keeps every body (a conversion to the
// interface may name neither); an added one keeps the bodies naming the
// interface first, and every body, with the packages importing the
// open types, only when a type that implemented the interface is not
// settled by them (implcands.go). File heads for content keys are kept
// by git blob id (heads.go); vendor/ is never grepped. Each
// package is checked under as many build configurations (GOOS, GOARCH,
// custom tags) as it takes to include every file holding a reference and
// the seed's own files. Checker errors are attributed to the reference
// that explains them, including errors downstream of a changed result
// (the variables the result was assigned to). "does not implement" errors
// are reported where the fix belongs: the implementing method or type for
// a changed interface, the interface's method for a changed
// implementation, never by reverting the seed.
//
// With precision "auto" the precise tier runs until the check's budget is
// spent and the rest keeps syntax precision; "types" removes the bound,
// "syntax" skips it. Under "auto" a call the diff itself rewrote and that
// binds to the new signature is consistent without the checker (its
// argument types are what the developer's compiler checks): the complete
// commit of a signature change, whose callers are all rewritten, then
// type-checks nothing (terraform a47b89170f40: 1.9 s and 212 MB with the
// checker, 0.3 s and 23 MB without).
//
// # Over-approximation policy
//
//   - An error (Inconsistent) needs proof: a checker error attributed to
//     the reference, or a syntactic fact that no type information can
//     change (an argument count, a remaining use of a removed name, an
//     unkeyed literal of a struct that gained a field).
//   - A reference whose receiver cannot be resolved is at most a warning
//     (PrecisionName), and is dropped once the checker resolves it to
//     another declaration.
//   - Never missed: every syntactic reference of a changed name in the
//     head state is judged; the grep prefilter is exact for identifiers.
//     Uses through reflection, text templates or serialized names are not
//     seen. The exception is the farther frontier (below).
//   - A type the change deleted that no code names any more has no
//     values: name-matched uses of its members are another type's and
//     are not reported (goneTypes).
//   - An error that follows from a type the checker could not resolve
//     ("... (variable with invalid type)") is no proof (proofs).
//   - A build variant of a changed function (foo_linux.go) left in the
//     old form is a warning while the code around it uses the old form
//     (its builds compile), an error once code its builds compile uses
//     the new one (variants.go).
//
// Derived changes: an implementation that must follow a changed interface
// method, and a wrapper that forwards its parameters to a changed
// function, are returned to the core as a Ref's Follow; the core walks
// them as derived MMS changes and asks for their own callers in the next
// round (the farther frontier: notes). A target every finding of which
// is a note (target.frontier) is, in auto precision, searched only in
// files naming its type or in its package (a member), and the type
// checker does not run for it: on terraform, the callers of four `Run`
// methods were 600 files and 1.3 s of type checking that could only add
// or drop notes. In types precision the checker resolves its
// name-matched calls (a call through a factory's result). The calls of a
// method whose body changed are treated alike when the configuration
// reports them as notes (the default, lang.Env.NoteOnly): searched where
// the syntax resolves them, reported when it does, and the name-matched
// rest counted in one note (frontier.go).
//
// New code (newcode.go): the lines the diff wrote are type-checked
// against the head (lang.NewCodeJudge), the bodies holding them only;
// errors that say a line does not fit a declaration it uses are
// findings of relation Uses.
//
// Dependency bumps (bump.go, migrate.go): the front-end is a
// lang.Bumper and a lang.Migrator. A go.mod or go.work whose requirement
// or replacement changed version is read through the module cache (go
// mod download when absent) for the packages the repository imports;
// their files reach the classifier under a versionless root
// ("github.com/x/y@/pkg/a.go") that importPath maps to the import path,
// so the walk finds their uses as for any package. `hook fix` applies
// the new version's //go:fix inline directives (go fix -inline). Sites
// inside vendor/ are never reported: a vendored module is its authors'.
//
// Set RIPPLE_TRACE=1 to print the time of each phase to stderr.
package golang
