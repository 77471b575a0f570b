// Package python is Ripple's Python front-end: it reads Python
// declarations for the classifier and answers impact queries for the
// driver, with the same contract, verdicts and precisions as the Go
// front-end. Its findings are established from syntax (PrecisionSyntax)
// or from a name alone (PrecisionName, never an error); pyright, the
// type tier, settles what the syntax could only warn about
// (PrecisionTypes: "The type tier" below).
//
// # Parsing (frontend.go, parse_cgo.go, internal/lang/treesit)
//
// Parser: tree-sitter through its official Go bindings,
// github.com/tree-sitter/go-tree-sitter v0.25.0 with the grammar
// github.com/tree-sitter/tree-sitter-python v0.25.0, chosen by
// measurement (2026-11, a loaded 2-core machine; thread CPU time, best of
// three rounds; BenchmarkParseCorpus reproduces them):
//
//	corpus                                       parse only   parse + copy to Go
//	CPython 3.12 stdlib, 2,130 files, 37 MB      5.60 MB/s    4.58 MB/s
//	flask + click + httpx, 222 files, 2.1 MB     5.66 MB/s    3.94 MB/s
//
// For comparison, CPython 3.12's own ast.parse reads the same stdlib at
// 4.2 MB/s, but needs an interpreter of the right version on every
// developer machine and a process per check; the pure-Go tree-sitter port
// measured 0.4 MB/s and hangs on some grammars
// (../shared/design/dependencies.md). tree-sitter-python reads Python 3.12
// (match, PEP 695 type parameters and aliases, walrus, nested f-strings,
// except*) and Python 2 print statements; TestParse312 checks it.
//
// The tree is copied once into Go nodes by the shared tree-sitter
// plumbing (internal/lang/treesit: one cgo call per file through a small
// C walker, then plain Go; the C tree is freed at once). The same copy
// through the Go binding's TreeCursor (eight cgo calls per node) cost
// about 1.7 times the parse itself; the flat copy costs a fifth of it.
// Memory: about 100 bytes of Go nodes per syntax node, some 24 bytes per
// byte of source, only for the files a check reads.
//
// Build constraints: tree-sitter is C, so the parser needs cgo and a C
// compiler (gcc or clang). A cold build of the runtime and the grammar
// takes about 33 s of CPU; the hook binary grows by 1.4 MB (17.1 MB
// against 15.7 MB without cgo). With CGO_ENABLED=0 the package still
// builds (parse_nocgo.go, and treesit's): the Go front-end works as
// usual, every Python file of a diff yields one diagnostic saying that
// the binary was built without cgo and how to rebuild it, and the report
// carries a precision note; no Python finding is ever made up.
//
// Whole checks (bench/pyright.sh, same machine): on sqlalchemy (650
// files, 605k lines) with a method deleted, the check takes 0.60 s median
// (0.53 s CPU, 49 MB peak RSS, 5 files parsed) where pyright 1.1.414 on
// the same state takes 290 s (146 s CPU, 2.3 GB): 0.2% of its time. The
// Python benchmark's 60 runs (flask, click, httpx) take 0.53 s median.
//
// A file that does not parse is a diagnostic (its first error line),
// never a failure: tree-sitter recovers locally, declarations outside the
// error are kept, and declarations and references inside an ERROR node are
// skipped rather than half read. Files over 4 MB and binary files are
// skipped.
//
// # Declarations (summary.go, decls.go, details.go)
//
// Module functions, classes, methods, nested functions and classes,
// class attributes (class-level assignments and annotations, and
// attributes assigned through self in methods), module variables and
// constants, __all__, and imports (one declaration per bound name) are
// lang.Decls. A module is its file: Package is the path without ".py",
// so the dotted name, which depends on the import roots, never decides
// identity. Decorators fold into their function: @staticmethod,
// @classmethod, @property (with its setter), @overload stubs (their
// signatures join the implementation's), async. __init__ and __new__ are
// constructors. Sig holds what callers rely on: parameter names, kinds
// (positional-only, keyword-only, *args, **kwargs), defaults, annotations,
// decorators; a class's bases, keywords and decorators; a field's
// annotation and, in a dataclass-like class, how it enters the
// constructor. Body is the token stream without comments and docstrings.
// Details explains a change in Python terms ("parameter ctx added",
// "parameter cmd_parts renamed to cmd_path", "positional parameters
// reordered", "default of retries: 3 → 5", "now async"); Escapes reads the
// changed lines of a body (returns, raises, yields, writes through self,
// a parameter or a global).
//
// Dataclass-like families define the constructor from their fields:
// @dataclass (init=, kw_only=, KW_ONLY, field(default=, default_factory=,
// init=, kw_only=)), attrs (@attr.s with attr.ib, @define, @frozen, private
// names without their underscore), NamedTuple, TypedDict (keywords; the
// runtime does not enforce it, so mismatches are warnings), pydantic-style
// models (BaseModel, BaseSettings, SQLModel: keywords only, unknown
// keywords ignored), Enum (no field constructor).
//
// # Name resolution (modules.go, index.go, resolve.go, classes.go, refs.go)
//
// Import roots come from the layout: a file's root is the first directory
// above it that is not a regular package, which covers src/ layouts,
// several top-level packages and test directories without __init__.py;
// the repository's top is a root too, for namespace packages. Absolute
// imports try the importer's root first; relative imports walk up
// directories. Names resolve LEGB through scopes (class scopes skipped
// from methods, global and nonlocal honoured, comprehension and lambda
// scopes), then star imports (honouring __all__), re-exports through
// __init__.py, submodules, and builtins. A module-level __getattr__
// (PEP 562) makes missing module attributes unknown, not missing.
//
// Values are inferred as far as syntax allows: a class called in scope,
// annotated parameters, variables and attributes (string annotations,
// Optional, X | None, ClassVar, Final, Annotated, type[X]), declared
// return types (Self too) and, without one, the class that every return
// statement agrees on; self and cls; `with C() as x` through __enter__ or
// __aenter__, and `with f() as x` where f is a @contextmanager or
// @asynccontextmanager function through its Iterator/Generator
// annotation or its yields; loop variables (and comprehension targets)
// over annotated containers, dict keys, values and items, enumerate, zip,
// sorted and the like, unpacked one level (iter.go); super() and
// Base.method. A name bound several times under conditions takes the
// value its bindings agree on, imports and aliases that do not resolve (a
// compiled accelerator tried first) leaving the decision to the others;
// bindings that disagree keep every value (value.alts), and a constructor
// call is judged against each class (a break in one of them is a
// warning). Members are looked up through the
// C3 MRO. Bases outside the repository are known for object, Generic,
// Protocol, ABC, Enum, NamedTuple and the builtin exceptions; any other
// may provide any attribute. A call of an external class yields an
// external instance: its members are not the repository's.
//
// # Verdicts (bind.go, verdict.go, reach.go, inherit.go, analyzer.go)
//
// Candidates: a whole-word git grep of the head state for the names
// dependents write (the old name of a renamed declaration, the class and
// its subclasses for a constructor), plus import aliases of those names
// in each candidate file. Every reference is resolved and judged:
//
//   - Calls of a changed signature are bound with Python's rules
//     (positional, keyword, defaults, *args and **kwargs on both sides,
//     keyword-only, positional-only). A call that no longer binds is
//     inconsistent; so is one whose positional argument, written for one
//     parameter, now fills a newly inserted one or one whose own parameter
//     was removed. A call that still binds but whose positional arguments
//     land on other existing parameters, or that relies on a changed
//     default, may be impacted. A call that did not bind before the change
//     is not blamed for it. Becoming async is inconsistent where the
//     coroutine is discarded or used as a value, may be impacted where
//     it is stored or passed to a function that may await it, and fine
//     where it is awaited, scheduled (create_task, ensure_future, gather,
//     wait, run_coroutine_threadsafe), collected or returned; async
//     generators are never awaited (coro.go). No longer async while
//     awaited is inconsistent (may be impacted when the function may
//     still return an awaitable); becoming a property is inconsistent.
//     Calls that rely on a changed default are may be impacted; more
//     than five of one function are notes the core gathers into one
//     (lang.Ref.Gather, defaults.go).
//   - Constructors: instantiations of the class, of subclasses that
//     inherit the constructor (and, for dataclasses, their synthesized
//     ones), cls(...), super().__init__(...) and Base.__init__(self, ...)
//     are bound the same way. A field change compares each call with the
//     constructor the base state's fields gave, for every changed class
//     at once: a call that did not bind before is not blamed, and a
//     deleted field that moves later positional arguments onto other
//     fields is inconsistent. Field specifiers are recognised by the name
//     they were imported under (fields.go); settings models
//     (BaseSettings) require no field; a subclass re-assigning an
//     inherited model field without annotation gives it a default; a
//     class subclassing a model of the repository is a model.
//   - A broken site inside `with pytest.raises(E)` or assertRaises where
//     E catches what the site now raises (itself, a builtin base,
//     Exception; a model's missing field raises ValidationError, a
//     ValueError) is an expected failure and not reported; an exception
//     class outside the builtins may derive from it (may be impacted).
//   - Deleted and renamed functions, methods, classes, attributes and
//     imports: every remaining use and every import of the old name is
//     inconsistent, including imports that re-export it; a member that a
//     base class still defines, or that an external base may provide, may
//     be impacted; a write creates the attribute anew (may be impacted);
//     self.name in a class whose subclasses define name may be impacted,
//     unless a renamed method's overrides are all that define it (they
//     must follow the rename: inconsistent).
//     A test requesting a renamed or deleted pytest fixture is
//     inconsistent when no other fixture of that name is visible to it.
//   - Overrides: a subclass method that kept the old signature of a
//     changed base method is inconsistent and becomes a derived change;
//     calls of it that would not bind once it follows are inconsistent,
//     the others may be impacted. An override of a renamed method is no
//     longer reached (inconsistent). A method whose new signature no
//     longer accepts its base's calls is reported at the base (Overrides).
//     A method added over a base method takes over the calls through the
//     subclass (AM): may be impacted, unless it only forwards the call to
//     super() unchanged and adds code guarded by parameters the call
//     leaves to defaults that do not run it (extend.go): consistent.
//   - A name dropped from __all__ breaks the star-importers that use it;
//     an added or changed import that names something its module does not
//     define is itself inconsistent; getattr, setattr, hasattr and mock
//     patch strings naming a deleted member may be impacted.
//   - A function that forwards its own parameters to a call that broke is
//     a wrapper whose signature must follow: the ref's Follow, a derived
//     change the core walks next (its callers are the frontier).
//
// # New code (newcode.go)
//
// The lines the diff added or rewrote inside its changes' head blocks are
// judged against the repository's declarations as they stand at the head
// (lang.NewCodeJudge, as the Go front-end does with its type checker),
// whether or not the diff changed them: an earlier push removed a
// parameter and updated every caller, this one adds a call with the old
// arity and changes nothing a walk would start from. Two rules, each an
// error (model.Uses) only when every step of the proof is exact:
//
//   - `from m import name`, absolute or relative, where m is a module
//     file of the repository (found under the importer's own root, or
//     under a single root) that neither binds name at its top (any
//     binding, or a function's global) nor has it as a submodule, and
//     cannot make it at run time: no __getattr__, no star import, no
//     globals(), vars(), sys.modules, setattr, exec, import_module in
//     it; not a stub.
//   - a call whose callee is a module-level function or class of the
//     repository, reached through one binding at every step (a def or
//     class of the same file, an import from its module, re-exports, an
//     attribute of a module imported as such), whose arguments do not
//     bind (bind.go) to its head signature. A function must have no
//     decorator but a few of the standard library (lru_cache, cache,
//     contextmanager, final, override, abstractmethod); a class no
//     decorator but the dataclass-like ones, no metaclass or class
//     keyword, no __new__ and no assigned __init__ in its MRO, and a
//     constructor the front-end knows for certain (not a TypedDict, not
//     an external base's).
//
// Left alone: code under a try whose except clauses may catch the error
// (any, for an import), under a with of raises, suppress or patch, in a
// test marked skip or xfail, in a top-level statement that patches names
// (mock, monkeypatch), in annotations and under TYPE_CHECKING. The core
// drops a line the walk already reported broken.
//
// # Mechanical fixes (fixes.go)
//
// An inconsistent site whose edit the seed alone decides carries a
// model.Fix, which internal/fix applies without a model: the old name of
// a renamed function, class, method or attribute at a use, an import or
// an override becomes the new one; a call that bound to the old
// parameters gets an argument list rebuilt for the new ones (removed
// parameters dropped, reordered ones followed, a parameter renamed in
// place keeps its keyword's value, an added one takes param_defaults).
// Calls with *args or **kwargs, arguments the old *args or **kwargs
// absorbed, comments or several lines inside the argument list get no fix.
// Two uses on one line merge their edits into the line's one finding.
//
// # Dependency bumps (bump.go, bumpmanifest.go, bumpfetch.go, bumpvirtual.go)
//
// The front-end is a lang.Bumper: a changed requirements file,
// pyproject.toml, uv.lock or poetry.lock whose pinned version of a
// distribution changed is a seed (docs/bumps.md). Both versions come from
// the index the user's pip configuration names, through the simple
// repository API, a wheel preferred, into the user cache; only the
// top-level packages the repository imports are read, a stub standing
// for its module. The core classifies them like any diff; API keeps
// public names (and __all__), ReExport a package's re-exports, Forwards
// recognises a deprecated function that only warns and forwards. The
// new version's files are overlaid on the head state under their
// versioned root (bumpTree, an import root resolved as the dependency
// itself), never searched for sites; a change's declaration path is
// mapped to the new version's (headPath) so that the repository's
// references, resolved there, meet it. A deleted re-export of a name the
// same bump renamed is that rename, seen through the package.
//
// # The type tier (pyrighttier.go, pyrightsettle.go, package pyright)
//
// Under `precision: types`, and in `auto` when pyright is installed
// (auto never installs it) and expected to fit half of what is left of
// the budget, pyright analyses the files holding the warnings of a
// round (not notes, not derived changes, not gathered default
// reliances), in the head state: the work tree when it holds it, else a
// copy of the head's Python files and configuration. It runs through a
// configuration of Ripple's own written outside the tree
// (pyright.Analyse): the repository's settings from pyrightconfig.json
// or pyproject's [tool.pyright] (without the keys that choose files), a
// virtual environment .venv or venv at the top of the work tree (else
// $RIPPLE_PYTHON), the front-end's import roots as extra paths, every
// body analysed, `# type: ignore` not honoured, and the reports of
// unknown types turned on, so that pyright says where it could not type
// an expression. A file analysed in one round is not analysed again.
//
// A warning becomes an error (PrecisionTypes, pyright's message) where
// pyright reports in the site's statement (or the header it stands in)
// an error tied to the change: `Cannot access attribute "NAME" for
// class "C"` with NAME the deleted or renamed member and C its class or
// a subclass (pyright prints self's type as "C*", any subclass: a
// member deleted from a base that subclasses define stays a warning);
// a module attribute or import of a deleted name of the changed module;
// for a changed signature or constructor, a call error whose innermost
// call is the site's (an arity, an unknown or missing keyword) or an
// argument's type error naming the changed function. A warning becomes
// consistent only where pyright analysed the file, resolved every
// import the file makes (file-wide: pyright's reports do not say which
// import an expression's type depends on), reported no unknown type and
// no error in the site's reach, no comment silences the line, and what
// the syntax doubted was a binding (a name matched on an unknown
// receiver, a deleted member's attribute read on a typed receiver).
// Otherwise the warning stands and Ref.Missing says what pyright lacked
// (an unresolved import, an untyped expression, an error of another
// cause, a budget, pyright itself). A changed default, arguments that
// moved between parameters of compatible types and overrides are never
// settled by silence: they are not errors of types.
//
// Cost (bench/pyright.sh's change on sqlalchemy): auto estimates
// pyright's time from its start (1.2 s) and the repository sources the
// sites' files import, transitively, as this front-end resolves imports,
// at 1 MB/s (a sqlalchemy test file with its 7 MB closure took 12 CPU s
// in pyright), stopping the estimate once it exceeds what half the
// budget left allows; there it declines in 0.1 s and says so, where
// pyright on the sites' two files takes longer than the whole budget.
//
// # Over-approximation policy
//
//   - An error needs proof from syntax: a resolved reference and a rule of
//     the language (binding, lookup through the MRO, an import of a name
//     the module lacks), or from pyright (the type tier). Decorators that may change a calling convention
//     (anything but the well-known ones and repository decorators that
//     wrap with functools.wraps or return their argument) turn binding
//     errors into warnings.
//   - Where a receiver's type cannot be known, a name match is a warning
//     with PrecisionName, never an error. To keep those useful, a call on
//     an unknown receiver is reported only when it bound to the old
//     signature and does not bind to the new one, and a module-level name
//     reached through an unknown receiver only when that receiver's root
//     comes from an import.
//   - Never missed syntactically: every identifier, attribute, import and
//     def of a watched name in the head state is judged. Not seen: uses
//     through strings other than getattr-like calls and patch targets,
//     dynamic attribute creation (setattr with computed names, __dict__),
//     monkey-patching, decorators and metaclasses that rewrite classes,
//     and values flowing through containers and unannotated returns that
//     disagree.
//
// Set RIPPLE_TRACE=1 to print the time of each phase to stderr.
package python
