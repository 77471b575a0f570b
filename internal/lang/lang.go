package lang

import (
	"context"
	"time"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
)

// Decl is one declaration of one state of a file, with the fingerprints
// the classifier compares.
type Decl struct {
	model.Block
	// Sig is the canonical text of what dependents rely on; two states
	// with equal Sig are interchangeable for every dependent.
	Sig string
	// Body is the canonical text of the rest (a function body, a constant's
	// value), comments and layout excluded.
	Body string
	// Data is private to the front-end (syntax nodes, parsed tags).
	Data any
}

// Frontend is one language's analysis.
type Frontend interface {
	// Name is the language name used in model.Block.Lang ("go").
	Name() string
	// Match reports whether the front-end handles a file.
	Match(path string) bool
	// Pathspecs are git pathspecs selecting the files Match accepts, so
	// that diffs and greps read nothing else ("*.go").
	Pathspecs() []string
	// Decls parses one state of a file. A file that does not parse yields
	// the declarations that could be read and a diagnostic marked Partial;
	// it never aborts the check.
	Decls(path string, src []byte) ([]*Decl, *model.Diagnostic)
	// Details explains the change between two states of the same
	// declaration (or a rename pair) whose Sig differ, as short phrases.
	Details(old, new *Decl) []string
	// Escapes says how a body change reaches callers ("return values",
	// "errors", "receiver mutated", ...). oldChanged and newChanged report
	// whether a line range of the old or new state was touched by the diff.
	Escapes(old, new *Decl, oldChanged, newChanged func(from, to int) bool) []string
	// NewAnalyzer prepares impact analysis for one check.
	NewAnalyzer(ctx context.Context, env *Env) (Analyzer, error)
}

// Env is what an analyzer may read during one check.
type Env struct {
	Base, Head gitio.Tree
	// Changed maps a head-state path to its diff (hunks), for marking
	// sites updated by the diff. Deleted files are keyed by old path.
	Changed map[string]*gitio.FileChange
	// Ignored reports paths that must be neither analysed nor reported.
	Ignored func(path string) bool
	// Precision is "auto", "syntax" or "types"; Deadline bounds the
	// precise tier in "auto" mode (zero: no bound).
	Precision string
	Deadline  time.Time
	// Defaults maps a parameter name to the expression passed for it when
	// a change adds it (config param_defaults), for mechanical fixes.
	Defaults map[string]string
	// Diag records a problem that lowers precision without aborting.
	Diag func(model.Diagnostic)
	// Note records why precision is lower than it could be. A later note
	// with the same key replaces an earlier one.
	Note func(key, text string)
}

// Analyzer answers impact queries for one check.
type Analyzer interface {
	// Impacted returns the findings for a batch of changes of this
	// front-end's language, and the changes they imply (Derived set, Cause
	// pointing at the change they follow). Findings carry Change, Relation,
	// Site, Verdict, Precision, Message and Trail; Level is left to the
	// driver.
	Impacted(ctx context.Context, changes []*model.Change) (findings []*model.Finding, derived []*model.Change, err error)
}

// Stats is an optional capability of an Analyzer: what it did.
type Stats interface {
	Stats() (parsedFiles, typedPackages int)
}

// BlockEditor is an optional capability of a Frontend: judging a block
// replacement proposed by the fix engine. CheckBlock returns an error
// when src (the whole file after the replacement) does not parse, or
// when lines [from, to] do not hold exactly one declaration named block.
type BlockEditor interface {
	CheckBlock(path string, src []byte, block string, from, to int) error
	// SplitImports separates the import declarations a model may put
	// before a block (the packages the new block needs) from the block.
	SplitImports(code string) (imports []string, block string, err error)
	// AddImports adds the imports src lacks and returns the new source
	// and how many lines were inserted (all before any declaration).
	AddImports(src []byte, imports []string) ([]byte, int, error)
}

// ImportPruner is a BlockEditor that can also remove imports an edit
// left unused (Go's compiler rejects them; the fix engine removes them
// mechanically when the oracle names one in a file the engine edited).
type ImportPruner interface {
	// PruneImports removes the imports of the given paths and returns
	// the new source; paths it cannot remove cleanly are left.
	PruneImports(src []byte, paths []string) ([]byte, error)
}

// Missing is a name an oracle diagnostic says the code uses and nothing
// declares: a package-level name, or a member (field or method) of a
// type.
type Missing struct {
	// Qualifier is the import name the use qualifies the name (or the
	// type) with; "" for the file's own package.
	Qualifier string
	// Type is the type that lacks the member ("" for a package-level
	// name): its bare name, without pointer or package.
	Type string
	Name string
}

// Declarer is an optional capability of a BlockEditor: letting the fix
// engine supply a declaration the code uses and nobody wrote (a helper a
// developer's edit calls before it exists, a constant a replacement
// names). A reply for one is appended to a file and judged by CheckNew.
type Declarer interface {
	// MissingIn reads one diagnostic message of the language's oracle;
	// ok is false when it is not about a missing declaration.
	MissingIn(message string) (m Missing, ok bool)
	// Scope is the unit whose names a declaration in the file path
	// shares: a Go package's directory, a Python module's own file.
	Scope(path string) string
	// ImportScope is the Scope of the unit that qualifier names in the
	// file path (src); ok is false when it is not in the repository.
	ImportScope(ctx context.Context, t gitio.Tree, path string, src []byte, qualifier string) (scope string, ok bool)
	// CheckNew judges lines [from, to] of src (the whole file after the
	// reply was added): they hold only whole top-level declarations, none
	// of a name in taken, and one of them declares want. Names are as
	// Decl gives them: Name, or Container.Name for a method or a field.
	CheckNew(path string, src []byte, from, to int, want string, taken map[string]bool) error
}
