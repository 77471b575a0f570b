package lang

import (
	"context"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/config"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// Decl is one declaration of one state of a file, with the fingerprints
// the classifier compares. The front-end's own data (syntax nodes,
// parsed tags) is Block.Data, so that it travels with the block.
type Decl struct {
	model.Block
	// Sig is the canonical text of what dependents rely on; two states
	// with equal Sig are interchangeable for every dependent.
	Sig string
	// Body is the canonical text of the rest (a function body, a constant's
	// value), comments and layout excluded.
	Body string
}

// DataOf returns the front-end's data (Block.Data) of two states of a
// declaration, ok when both hold a non-nil T, the front-end's own type.
func DataOf[T comparable](old, new *Decl) (o, n T, ok bool) {
	var none T
	o, _ = old.Data.(T)
	n, _ = new.Data.(T)
	return o, n, o != none && n != none
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
	// Precision is the tier asked for; Deadline bounds the precise tier
	// in auto (zero: no bound).
	Precision config.Precision
	Deadline  time.Time
	// Defaults maps a parameter name to the expression passed for it when
	// a change adds it (config param_defaults), for mechanical fixes.
	Defaults map[string]string
	// Diag records a problem that lowers precision without aborting.
	Diag func(model.Diagnostic)
	// Note records why precision is lower than it could be. A later note
	// with the same key replaces an earlier one.
	Note func(key, text string)
	// MayLevel is the level the core reports a may-be-impacted site of a
	// change labelled l, reached along r, at (the configuration's
	// severity). nil: warning. An analyzer spends its precise tier in
	// auto only on sites that can block or warn, not on what can only
	// be a note (NoteOnly).
	MayLevel func(l model.Label, r model.Relation) model.Level
}

// NoteOnly reports whether a may-be-impacted site of a change labelled l
// along r can only be reported as a note (or not at all): calls of a
// function whose body changed, by default.
func (e *Env) NoteOnly(l model.Label, r model.Relation) bool {
	return e.MayLevel != nil && e.MayLevel(l, r).Rank() <= model.LevelNote.Rank()
}

// Touched reports whether the diff changed any of lines from..to (head
// numbering) of path: code the developer wrote in this change.
func (e *Env) Touched(path string, from, to int) bool {
	fc := e.Changed[path]
	return fc != nil && fc.NewRangeChanged(from, to)
}

// Query asks for the dependents of one change along the given relations
// (the rows of model.Impacts the core chose for the change's label).
type Query struct {
	Change    *model.Change
	Relations []model.Relation
}

// Wants reports whether the query asks for relation r.
func (q Query) Wants(r model.Relation) bool {
	for _, x := range q.Relations {
		if x == r {
			return true
		}
	}
	return false
}

// Ref is one dependent site an analyzer found for a query, with its
// verdict. The core turns refs into findings: it adds the relation trail,
// decides the level, drops what the configuration ignores and merges
// repeated sites.
type Ref struct {
	Change    *model.Change // the query's change
	Relation  model.Relation
	Site      model.Site
	Verdict   model.Verdict
	Precision model.Precision
	// Message says why the site is impacted, in terms of the site. Sites
	// with one reason carry the same message (the core aggregates them).
	Message string
	// Missing names what the verdict was established without (a module
	// not in the cache, a type that does not resolve); "" when nothing.
	Missing string
	// Generated is set when the site's file says it is generated.
	Generated bool
	// Gather asks the core to report the sites of this change that share
	// the finding's rule, level and message as one finding listing the
	// others, whatever their number (a reason the front-end knows many
	// sites share, such as relying on a changed default).
	Gather bool
	Fix    *model.Fix
	// Follow, when set, says the site's enclosing declaration must change
	// with the queried change (a wrapper forwarding a changed parameter,
	// an override of a changed method): the core walks it as a derived
	// change, asking for its own dependents in turn.
	Follow *Follow
}

// Follow is a declaration that must change because of a change it
// depends on.
type Follow struct {
	Decl *Decl // its head state
	// From, when set, is the declaration as it stands and Decl what it
	// would become (an interface method taking the signature of an
	// implementation that changed); nil: Decl is both.
	From *Decl
	// Label is the atomic change it must make (MMS for a signature);
	// Details say what and why ("forwards its parameters to ...").
	Label   model.Label
	Details []string
	// May marks a change that is one way to restore consistency, not the
	// only one (the interface may follow its implementation, or the
	// implementation be changed back): the derived change is tentative
	// even when the site that implies it is broken.
	May bool
	// Frontier marks a change whose form is not known, only that it may
	// be needed (a function that may have to take the new value from its
	// own callers, up to an entry point): every dependent it reaches is
	// at most a note, and the walk asks about it last, and only for a
	// report that shows notes (model.Change.Frontier).
	Frontier bool
}

// Analyzer answers impact queries for one check.
type Analyzer interface {
	// Answer returns the dependents of each query's change along the
	// query's relations, in the head state. The queries of one call are
	// answered together (one search, one type check). A relation the
	// front-end cannot answer yields nothing, and the report says so
	// through Env.Note.
	Answer(ctx context.Context, qs []Query) ([]*Ref, error)
}

// Keep returns the refs whose relation their change's query asks for:
// a finder that judges several relations of a change in one pass (a
// reference's role decides its relation) keeps what was asked.
func Keep(qs []Query, refs []*Ref) []*Ref {
	want := map[*model.Change]Query{}
	for _, q := range qs {
		want[q.Change] = q
	}
	out := refs[:0]
	for _, r := range refs {
		if q, ok := want[r.Change]; ok && q.Wants(r.Relation) {
			out = append(out, r)
		}
	}
	return out
}

// Unavailable is the analyzer of a front-end that cannot analyse in this
// binary (its parser needs cgo, say): it notes why once, under key, and
// answers nothing.
func Unavailable(env *Env, key, message string) Analyzer {
	if env.Note != nil {
		env.Note(key, message)
	}
	return noAnalyzer{}
}

type noAnalyzer struct{}

func (noAnalyzer) Answer(context.Context, []Query) ([]*Ref, error) { return nil, nil }

// Stats is an optional capability of an Analyzer: what it did.
type Stats interface {
	Stats() (parsedFiles, typedPackages int)
}

// NewCodeJudge is an optional capability of an Analyzer: judging the
// code the diff added or rewrote against the declarations it uses as
// they stand at the head, whether or not this diff changed them (a
// method an earlier push added to an interface that a type the new code
// returns as that interface lacks). It is asked once per check, with
// the diff's changes; each ref is a site on a line the diff touched,
// attached to the change whose head block holds it, with relation
// model.Uses. Only what the evidence proves is reported (a type error
// the checker gave with everything it needed); a line that fits is not.
type NewCodeJudge interface {
	JudgeNewCode(ctx context.Context, changes []*model.Change) ([]*Ref, error)
}

// Cold is an optional capability of an Analyzer: whether its
// type-precise tier ran out of time building what a warm-up (Warmer)
// prepares, so that sites were left to the syntax that a warm check
// would have type-checked.
type Cold interface {
	Cold() bool
}

// Warmer is an optional capability of a Frontend: preparing, ahead of a
// check, what its type-precise tier would otherwise build on a check's
// time (export data of every package of the repository and of what it
// imports). `hook warm` runs it, and `hook install` starts it in the
// background, so that the first push is not a cold one. It returns one
// line saying what it prepared.
type Warmer interface {
	Warm(ctx context.Context, env *Env) (string, error)
}

// Provable is an optional capability of a Frontend: the oracle that
// judges a state of the repository for this language (Go's compiler and
// vet, pyright). The fix engine proves its edits with it. env is added to
// the oracle's environment.
type Provable interface {
	Oracle(env []string) oracle.Oracle
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
	// IsComment reports whether a line is a whole-line comment, and
	// IsDirective whether such a comment instructs a tool (//go:noinline,
	// # type: ignore) rather than documents: a model's rewrite of a
	// block's doc comment keeps the directives above the block.
	IsComment(line string) bool
	IsDirective(line string) bool
}

// ImportPruner is a BlockEditor that can also remove imports an edit
// left unused (Go's compiler rejects them; the fix engine removes them
// mechanically when the oracle names one in a file the engine edited).
type ImportPruner interface {
	// PruneImports removes the imports of the given paths and returns
	// the new source; paths it cannot remove cleanly are left.
	PruneImports(src []byte, paths []string) ([]byte, error)
	// UnusedImport reads an oracle message saying an import is unused:
	// the import's path.
	UnusedImport(message string) (path string, ok bool)
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
	// IsTest reports a test file: a declaration another unit needs does
	// not go there.
	IsTest(path string) bool
	// Placeable reports whether a file of a scope may take a declaration
	// meant for every build of the scope (Go: no build constraint).
	Placeable(path string, src []byte) bool
	// TypeMismatch reports an oracle message about a value of the wrong
	// type or a call with the wrong arguments.
	TypeMismatch(message string) bool
	// Receiver is the name a method block calls its receiver by ("s" in
	// func (s *T) M(), "self"), "" for other blocks.
	Receiver(b *model.Block) string
	// InOrder reports whether a unit's top-level code runs in order
	// (Python: a module's statements run top to bottom, so a class's
	// bases, decorators and annotations name what is above them): a new
	// declaration then goes above the first top-level declaration that
	// names it. Otherwise (Go) it is appended to the file.
	InOrder() bool
}

// Quoter is an optional capability of a BlockEditor: writing
// declarations of a file as a reply of the fix engine's model gives
// them. A replay model (bench/fixbench) answers each planned block, and
// each name the engine asks it to declare, with the declaration's text
// in a real commit through it, whatever the language.
type Quoter interface {
	// Quote returns the source of ds, declarations of the file path
	// (src) as Decls gives them, in order, each able to stand alone (a
	// spec of a grouped Go declaration takes the group's keyword), opened
	// by the imports of src that they name, in the form SplitImports
	// reads. An import declaration among ds is quoted as an import that
	// binds what it binds, and nothing else. It fails when a
	// declaration's lines are not in src.
	Quote(path string, src []byte, ds []*Decl) (string, error)
}

// ImportNames reports whether an import declaration names name as a
// whole word in its display or signature ("import t (typing)", `import
// "example.com/x/t"`): the import that binds name, for a name an oracle
// says is undefined that an import, not a declaration, provides.
func ImportNames(d *Decl, name string) bool {
	if d.Kind != model.KindImport || name == "" {
		return false
	}
	for _, s := range []string{d.Display, d.Sig} {
		for _, w := range strings.FieldsFunc(s, func(r rune) bool {
			return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127)
		}) {
			if w == name {
				return true
			}
		}
	}
	return false
}

// Bookkeeping reports a field or attribute name that says it holds
// bookkeeping rather than a value's data: a cache, a lock, a memo, a
// sync.Once. Code written to copy, compare or encode every field of a
// type leaves those out on purpose, so a new one is no gap in it.
func Bookkeeping(name string) bool {
	n := strings.ToLower(strings.Trim(name, "_"))
	if n == "mu" || n == "once" || strings.HasSuffix(n, "mu") && len(n) <= 4 {
		return true
	}
	for _, w := range []string{"cache", "lock", "mutex", "memo"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}
