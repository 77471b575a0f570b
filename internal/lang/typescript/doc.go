// Package typescript is Ripple's TypeScript and JavaScript front-end (the
// first slice of issue 12): it reads declarations for the classifier and
// answers impact queries for the driver, with the same contract, labels,
// relations, verdicts and precisions as the Go and Python front-ends.
// Its findings are established from syntax (PrecisionSyntax) or from a
// name alone (PrecisionName, never an error); a type-precise tier,
// TypeScript 7's own compiler, settles what the syntax could only warn
// about (PrecisionTypes; below).
//
// # Files (files.go)
//
// .ts .tsx .mts .cts .js .jsx .mjs .cjs, and .d.ts (.d.mts, .d.cts) whose
// declarations are read but which hold no calls to judge. Never analysed:
// node_modules, bower_components, vendor, dist, build, out, coverage,
// generated and framework output directories (.next, .nuxt, ...),
// *.min.js and bundles, files over 2 MB, binary files, minified files
// (average line over 300 characters) and files whose first 600 bytes say
// @generated or "do not edit ... generated". A module is its file:
// Package is the path without its extension, so a.ts and a.d.ts stay
// apart.
//
// # Parsing (parse.go, parse_cgo.go, internal/lang/treesit)
//
// Parser: tree-sitter through the bindings the Python front-end already
// uses (github.com/tree-sitter/go-tree-sitter v0.25.0), with the grammars
// of github.com/tree-sitter/tree-sitter-typescript v0.23.2: the
// TypeScript grammar for .ts .mts .cts and every JavaScript file but
// .jsx (it reads plain JavaScript, CommonJS and ESM alike), the TSX
// grammar for .tsx and .jsx (the two differ on `<T>x` casts versus JSX,
// so the extension decides, as tsc does). The tree is copied into Go
// nodes in one cgo call per file by the plumbing the Python front-end
// shares (internal/lang/treesit: the flat copy, the parser pool, the
// build without cgo) and the C tree is freed at once.
//
// Throughput (BenchmarkParseCorpus; 2-core shared machine, one goroutine,
// wall time, best of three rounds, 2026-11):
//
//	corpus                           parse only   parse + copy + summary
//	hono src/, 311 files, 2.5 MB     4.12 MB/s    2.53 MB/s
//	zod packages/, 474 files, 3.1 MB 4.55 MB/s    2.80 MB/s
//
// A check parses only the seed files and the files a whole-word git grep
// names, so a check of a hono or zod change takes about 0.6 s (median of
// the benchmark below, process start included). The alternative, the
// TypeScript compiler's own parser, needs Node on every developer machine
// and a process per check; the type-precise tier (below) runs tsc only
// where the syntax is unsure.
//
// Known grammar gaps (v0.23.2): generic call signatures in type literals
// (`{ <K>(key: K): V }`), `export type * from` and a few return-type
// positions produce local ERROR nodes (8 of hono's 311 files). A file
// with errors is a diagnostic marked Partial, never a failure: the
// declarations outside the error are kept (the classifier does not take
// the others as deleted) and references inside it are skipped.
//
// # Declarations (summary.go, decls.go, details.go)
//
// Top-level functions (declarations, overloads and `declare function`
// signatures folded into one declaration), `const f = (...) =>` and
// function expressions, classes (methods, arrow-function properties as
// methods, accessors as properties, static and #private members,
// constructors with parameter properties, properties), interfaces and
// object type aliases with their members (property and method
// signatures, `?`), other type aliases, enums and their members, exported
// variables, and CommonJS exports (module.exports = {...}, exports.x =
// function, module.exports.x = f). Parameters keep their kind: required,
// optional (`?`), with a default, rest. Sig holds what dependents rely
// on (export status, static, optional, parameter kinds and types in
// order, return and type parameters, heritage, a member's type); Body is
// the token stream without comments; neither holds the declared name, so
// that renames pair. Details explains a change in TypeScript terms
// ("required parameter c added", "parameter width removed", "parameters
// reordered", "type of x: string → number", "now required").
//
// # Module resolution (modules.go)
//
// Relative specifiers resolve as TypeScript's bundler and node16
// resolutions do: the path as written, the .ts/.tsx/.mts/.cts/.d.ts
// source of a .js/.mjs/.cjs specifier, inferred extensions, a
// directory's index file. Exports are followed through `export {a as b}
// from`, `export * from`, `export * as ns from`, and `export {x}` of an
// imported x (barrel files), to the declaring file. Bindings: named
// imports (with aliases), default imports, `import * as ns`, `import x =
// require()`, CommonJS `const x = require()` and `const {a, b: c} =
// require()`. Bare specifiers (project.go) go through the nearest
// tsconfig.json or jsconfig.json (extends followed; paths, exact or
// longest `*` prefix; baseUrl), then the root's workspace packages
// (package.json workspaces, pnpm-workspace.yaml, lerna.json globs): a
// package's exports (subpaths, patterns, conditions), else
// source/types/module/main, else src/index, with build output
// (dist/x.mjs, lib/x.d.ts) mapped back to src/x.ts. An import lost
// through a barrel's `export *` chains is found whatever the number of
// chains. Not yet: package.json imports, tsconfig references, dynamic
// import().
//
// # Verdicts (analyzer.go, judge.go, members.go, literals.go, inline.go, scope.go)
//
// Candidates: a whole-word git grep of the head state for the names
// dependents write (the old name, the class of a constructor or of an
// interface member, a module's base name for default and namespace
// imports), then each reference is resolved through the file's imports
// and scopes (parameters and locals shadow):
//
//   - Calls and `new` of a changed signature are bound by argument count
//     against the old and the new parameter list (and every overload): a
//     call that no longer binds is inconsistent (misses a required
//     argument, passes too many without a rest parameter); one that binds
//     but whose positional argument now fills another parameter (one
//     inserted, removed or reordered) is inconsistent; one whose argument
//     goes to a parameter whose type changed, or that uses a result whose
//     type changed, may be impacted; one that binds and leaves a new
//     optional parameter out is the frontier (a note); a call with a
//     spread argument is not judged; a call that did not bind before is
//     not blamed. A function passed as a value may be impacted.
//   - Constructors: `new C()`, `super()` in subclasses, and `new D()` of
//     subclasses that inherit the constructor.
//   - Methods: `this.m()` in the class and its subclasses (unless they
//     override m), `super.m()`, `new C().m()`, a local or parameter
//     annotated with C or initialized with `new C`, `this.x.m()` of a
//     property so typed, `C.m()` for statics, and a const holding the
//     result of a repository function that declares C as its return type
//     (`const x = make()`, `await load()` of a Promise<C>, `make().m()`;
//     C resolved in the function's own file; interface members read so
//     too). A call on any other receiver is a warning (PrecisionName)
//     when it bound to the old signature and does not bind to the new
//     one; a receiver known to be another class is not reported.
//   - Deleted and renamed exports: every import of the old name is
//     inconsistent (ImportedBy), re-exports too, and so is every use in the
//     importing files and in the declaring file (CalledBy, InstantiatedBy,
//     ReferencedBy for types, EmbeddedBy for extends and implements).
//     Deleted and renamed members: uses through a known receiver are
//     inconsistent, unless a base class still declares them or a base
//     outside the repository may (then may be impacted); uses through an
//     unknown receiver may be impacted.
//   - Interface and object type members: a required member added (or an
//     optional one made required) breaks the classes that implement the
//     interface without it and the object literals written for it
//     (annotated variables, `as`/`satisfies`, returns of a function
//     declaring it) that lack it (with a spread: may be impacted); a
//     member deleted or renamed breaks literals that still write it and
//     reads through values annotated with the interface; other reads of
//     the name in files that use the interface may be impacted.
//     Sub-interfaces (`interface O extends I`) and aliases that are the
//     interface under another name (`type A = I<any>`, Readonly,
//     Required, an Omit keeping the member, an intersection not
//     redeclaring it) have its members: their users are judged as the
//     interface's own, across files, the ones one file declares together
//     (subtypes.go; a retyped member is not followed through them, and a
//     sub-interface redeclaring it with the old type may be impacted).
//     A literal written where the interface is a type argument
//     (`reactive<I>({...})`, `{...} as Socket<I>`, nested literals of
//     them) may be impacted when it writes a deleted member or writes
//     most of the members but not an added one (literals.go). A literal
//     annotated through a namespace import (`price.Item`) or pushed into
//     an array of a declared element type (`items: Item[]`) is written
//     for the interface as an annotated one is. Interface
//     members, methods included, are fields to the core: their sites
//     are InstantiatedBy, EmbeddedBy and UsedBy.
//   - Enum members deleted or renamed: every `E.member` is inconsistent.
//   - Calls spreading some arguments: those before the first spread bind
//     at their positions, so one going to a retyped or moved parameter,
//     and a used result whose return type changed, may be impacted.
//   - `new x.C(...)` through an object holding the class (`ky.HTTPError`)
//     is judged by name (a warning when it no longer binds).
//   - Receivers imported from another module are followed to its
//     top-level const: its annotation, or the declared return type of the
//     call initializing it (`export default ky` of `const ky =
//     createInstance()`).
//   - JSX elements (jsx.go): a top-level component whose props the
//     container of a changed interface member types (`function C(p:
//     Props)`, `({a}: Props) =>`, `React.FC<Props>`, `forwardRef<R,
//     Props>`, `memo(...)`, `extends React.Component<Props>`, default
//     exports; through PropsWithChildren, Readonly, the standard mapped
//     types and intersections with inline object types) is a target of
//     its own, searched for by its name: its elements, imported through
//     any resolution above, are judged as tsc checks JSX attributes (a
//     required member missing: inconsistent, may be impacted with a
//     spread attribute; an attribute of a removed member: inconsistent,
//     the excess-property check; of a retyped one: may be impacted;
//     InstantiatedBy). Inside the component, a removed member read from
//     its props (destructured, props.x, this.props.x) is inconsistent
//     (UsedBy). An intersection with a type the analysis does not read
//     makes a removed member's sites warnings. Props written inline
//     (`PropsWithChildren<{...}>`, `React.FC<{...}>`, a const's
//     annotation being part of its Sig) change the component's signature:
//     its elements are calls (CalledBy), judged member by member against
//     the old and new inline types (jsxinline.go). Lower-case tags are
//     intrinsic elements, never uses; a closing tag is no finding of its
//     own.
//
// # The type-precise tier (tsc.go, tscsettle.go, the tsc package)
//
// Under `precision: types`, and in `auto` within the time budget when
// the compiler is already installed, tsc of TypeScript 7 (the npm
// package typescript@7, whose platform package holds a native
// executable: Ripple runs it directly, without Node) checks the sites
// the syntax left unsure: warnings, and under `types` the sites it
// called consistent too. Syntactic errors are final, notes are the
// frontier, and JavaScript sites or declarations are left to the syntax
// (to tsc every JavaScript parameter is optional and most types are
// inferred). tsc is found on PATH (a TypeScript 7 tsgo or tsc; the
// native executable beside an npm shim), then in the user cache
// (ripple/typescript), else `types` installs it there with npm; `auto`
// never installs (a pre-push check does not reach the network unasked)
// and says once how to get it.
//
// The head state's TypeScript, JavaScript and JSON files are written to
// a temporary directory (the check reads git objects), with the work
// tree's node_modules linked in where there are some. Each site file's
// project is the first configuration from its directory up that
// includes it (tsconfig.json, the projects it references, the other
// tsconfig*.json, jsconfig.json; what it includes is asked of tsc,
// `--showConfig`), else an inferred project with the nearest one's
// options. Each project is checked once, with its configuration
// flattened into one of Ripple's: its options, emit options dropped,
// TypeScript 7's removed options replaced (node10 and classic
// resolution by bundler, baseUrl by a `*` path, ES5 by ES2015,
// ...), type libraries that are not installed dropped (else tsc checks
// nothing), the workspace packages mapped to their sources by paths (a
// fresh checkout has no node_modules to link them), and as roots the
// site files with the project's ambient declarations (declaration files,
// global augmentations, scripts): their import closure is what the
// sites' types depend on.
//
// Settling a site (the evidence rule, as the Go tier's): an error of
// tsc inside the site's statement (the header of a declaration or of a
// compound statement) that concerns the change makes it inconsistent,
// with tsc's message and precision types. Concerning: a type or arity
// error (not a module or global not found, an implicit any, an unused
// name, a missing library); an error about a named member or export
// only when it names the changed declaration or its container, except
// at a call of a changed signature, where a member error is about what
// the arguments must now be. No such error makes the site consistent
// only when tsc's program lacked nothing (every module, type library
// used and global name resolved, the configuration whole) and the site
// was resolved exactly; otherwise the syntactic verdict stands and says
// what the check was without (Ref.Missing, and one note naming what
// each project lacked): tsc types what it cannot resolve as any and is
// then silent. Benchmark checkouts have no node_modules: there the tier
// turns warnings into errors, and calls nothing consistent.
//
// Over-approximation policy: an error needs a resolved reference and a
// rule of the language; a receiver whose type syntax cannot tell gives a
// warning at most. Not seen: calls through values stored in containers,
// destructured methods, dependency injection, types inferred from
// returns, decorators that change signatures.
//
// # Fixes (fixes.go, edit.go)
//
// Inconsistent sites carry the mechanical fix the seed alone decides
// (model.Fix): renamed declarations at named imports (aliases kept),
// re-exports, require destructuring, namespace uses and every use of a
// binding of the old name (the import aliases the new name to the old
// one where the new name is taken or the file re-exports the binding);
// renamed members at uses through known receivers, literal keys, JSX
// attributes and destructured props; calls rebuilt for removed,
// reordered and added parameters (param_defaults). None with spread
// arguments, rest parameters, overloads, comments or line breaks in the
// argument list. The front-end is a lang.BlockEditor: a model's block
// must parse (errors the file already had elsewhere are tolerated: the
// grammar has gaps) and hold exactly the planned declaration; import
// declarations a reply opens with are added after the file's imports.
// The members of an object a module declares (`export const visitor =
// { Identifier(node) {...}, Call: (n) => ... }`, `export default {
// setup() {...} }`, `module.exports = {...}`) are blocks of their own,
// named by the declaration holding the object ("method
// visitor.Identifier", "method default.setup": objmembers.go): a site
// inside one is reported with that block and a reply for it must hold
// that member alone; an object a function builds stays part of the
// function. They are not declarations (Decls): the classifier sees the
// variable's value change, as before.
// Not provided: lang.ImportPruner (tsc reports unused imports only under
// noUnusedLocals, in the same words as unused locals), lang.TopLevel.
package typescript
