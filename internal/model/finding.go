package model

import (
	"fmt"
	"slices"
	"strings"
)

// Relation is how an impacted site depends on a changed block, read from
// the site to the block: a site related by CalledBy is a caller of the
// block.
type Relation string

const (
	CalledBy       Relation = "CalledBy"       // calls the block, or takes it as a function value
	OverriddenBy   Relation = "OverriddenBy"   // implements or overrides the changed method
	Overrides      Relation = "Overrides"      // the method the changed one implements or overrides
	UsedBy         Relation = "UsedBy"         // reads, writes or keys a field, variable or constant
	InstantiatedBy Relation = "InstantiatedBy" // constructs the type (literal, constructor call)
	ImportedBy     Relation = "ImportedBy"     // imports the changed package or module member
	EmbeddedBy     Relation = "EmbeddedBy"     // embeds or derives from the type (Go embedding, subclassing)
	ReferencedBy   Relation = "ReferencedBy"   // names the type (declarations, conversions, assertions)
	VariantOf      Relation = "VariantOf"      // another definition of the block for other builds (Go build tags, #if)
	// Uses is the reverse direction, for the diff's own code: a line the
	// diff added or rewrote that does not fit a declaration it uses, as
	// that declaration stands at the head (changed in this push or an
	// earlier one). It is not walked: each changed block's new code is
	// judged once (lang.NewCodeJudge).
	Uses Relation = "Uses"
)

// Words is how Ripple says a relation, the one vocabulary of every
// report: a relation path's hop, a heading's count, a rule's description.
type Words struct {
	// Phrase names the hop of a relation path that reaches a block:
	// "called by" (func run).
	Phrase string
	// Noun counts sites of the relation in a heading: "call site", "call
	// sites".
	Noun [2]string
	// Subject is a rule's short description, before the changed
	// declaration: "Caller of".
	Subject string
	// Long is a rule's full description, before the changed declaration:
	// "A site that calls, or takes as a value,".
	Long string
}

var words = map[Relation]Words{
	CalledBy:       {"called by", [2]string{"call site", "call sites"}, "Caller of", "A site that calls, or takes as a value,"},
	UsedBy:         {"used by", [2]string{"use", "uses"}, "Use of", "A site that reads, writes or keys"},
	InstantiatedBy: {"instantiated by", [2]string{"instantiation", "instantiations"}, "Instantiation of", "A site that constructs"},
	OverriddenBy:   {"implemented by", [2]string{"implementation", "implementations"}, "Implementation of", "A method that implements or overrides"},
	Overrides:      {"implements", [2]string{"implemented method", "implemented methods"}, "Method implemented by", "An interface or base method implemented or overridden by"},
	EmbeddedBy:     {"embedded by", [2]string{"embedding type", "embedding types"}, "Type embedding", "A type that embeds or derives from"},
	ImportedBy:     {"imported by", [2]string{"importer", "importers"}, "Importer of", "A file that imports"},
	ReferencedBy:   {"referenced by", [2]string{"reference", "references"}, "Reference to", "A site that names"},
	VariantOf:      {"variant of", [2]string{"build variant", "build variants"}, "Build variant of", "Another definition, for other builds, of"},
	Uses:           {"uses", [2]string{"line of new code", "lines of new code"}, "New code in", "A line the diff wrote in"},
}

// Words returns how the relation is said; a relation without words of
// its own gets general ones that name it.
func (r Relation) Words() Words {
	if w, ok := words[r]; ok {
		return w
	}
	return Words{Phrase: string(r), Noun: [2]string{"site", "sites"}, Subject: "Dependent of", Long: "A site that depends (" + string(r) + ") on"}
}

// Phrase is the words of the relation on a relation path ("called by").
func (r Relation) Phrase() string { return r.Words().Phrase }

// TrailText writes a relation path: "func Sum → called by func Use".
func TrailText(steps []Step) string {
	var b strings.Builder
	for i, s := range steps {
		if i > 0 {
			b.WriteString(" → ")
			if s.Relation != "" {
				b.WriteString(s.Relation.Phrase() + " ")
			}
		}
		b.WriteString(s.Display)
	}
	return b.String()
}

// Relations lists every relation.
var Relations = []Relation{CalledBy, OverriddenBy, Overrides, UsedBy, InstantiatedBy, ImportedBy, EmbeddedBy, ReferencedBy, VariantOf, Uses}

// Impacts is the may-impact table: which relations of a changed block a
// label reaches (CodePlan Table 1, with ReferencedBy for deleted and
// changed types). Front-ends answer queries for these relations only.
var Impacts = map[Label][]Relation{
	MMB: {CalledBy}, // only when the change escapes; see Change.Escapes
	MMS: {CalledBy, OverriddenBy, Overrides, VariantOf},
	MF:  {UsedBy, InstantiatedBy, EmbeddedBy, OverriddenBy}, // OverriddenBy: a subclass redeclaring it
	MC:  {InstantiatedBy, ReferencedBy, EmbeddedBy, OverriddenBy},
	MCC: {CalledBy, InstantiatedBy, VariantOf},
	MI:  {ImportedBy},
	AM:  {EmbeddedBy, OverriddenBy, Overrides, CalledBy}, // an override added changes what calls resolve to
	AF:  {InstantiatedBy, EmbeddedBy, UsedBy},            // UsedBy: code reading every other field (a copy, an Equal)
	AC:  nil,
	ACC: {InstantiatedBy},
	AI:  {ImportedBy},                                                       // the added import itself must resolve
	DM:  {CalledBy, OverriddenBy, Overrides, VariantOf, ImportedBy, UsedBy}, // UsedBy: a property
	DF:  {UsedBy, InstantiatedBy, EmbeddedBy, ImportedBy, OverriddenBy},
	DC:  {InstantiatedBy, ReferencedBy, EmbeddedBy, ImportedBy},
	DCC: {CalledBy, InstantiatedBy},
	DI:  {ImportedBy, UsedBy},
}

// Verdict is what Ripple concludes about one impacted site.
type Verdict int

// The verdicts form a ladder, weakest first; each has a default level.
const (
	// Consistent: the site was updated in the same diff, or is proven to
	// agree with the change. Shown only in verbose output.
	Consistent Verdict = iota
	// MayFollow: the farther frontier. The site depends on the change only
	// through another dependent (a caller of a wrapper that must follow),
	// or the change leaves it working (a caller of a function that gained
	// an optional parameter) though it may have to pass something on.
	// Reported as a note: shown in CI and -verbose, planned by the fix
	// engine, never blocking.
	MayFollow
	// MayBeImpacted: related to the change but not provably broken, for a
	// concrete reason a reviewer can judge (a sibling override of a method
	// whose signature changed; a read of a field whose type changed).
	MayBeImpacted
	// Inconsistent: provably broken by the change.
	Inconsistent
)

func (v Verdict) String() string {
	switch v {
	case Consistent:
		return "consistent"
	case MayFollow:
		return "may have to follow"
	case MayBeImpacted:
		return "may be impacted"
	case Inconsistent:
		return "inconsistent"
	}
	return fmt.Sprintf("verdict(%d)", int(v))
}

// Level is the severity a finding is reported with; it derives from the
// verdict and the configured severity of the relation.
type Level string

const (
	LevelError   Level = "error"
	LevelWarning Level = "warning"
	LevelNote    Level = "note"
	LevelNone    Level = "none" // not reported (consistent, or switched off)
)

// Rank orders levels: none < note < warning < error.
func (l Level) Rank() int {
	switch l {
	case LevelError:
		return 3
	case LevelWarning:
		return 2
	case LevelNote:
		return 1
	}
	return 0
}

// ParseLevel accepts error, warning, note and none.
func ParseLevel(s string) (Level, error) {
	switch l := Level(strings.ToLower(strings.TrimSpace(s))); l {
	case LevelError, LevelWarning, LevelNote, LevelNone:
		return l, nil
	}
	return "", fmt.Errorf("unknown level %q (want error, warning, note or none)", s)
}

// Precision says how a finding was established, from strongest to
// weakest. Reports show it so that a reader knows what to trust.
type Precision string

const (
	// PrecisionTypes: resolved and checked by a type checker on the head
	// state (Go: go/types).
	PrecisionTypes Precision = "types"
	// PrecisionSyntax: resolved through scopes and imports on syntax
	// trees; the receiver of a method or field was inferred syntactically.
	PrecisionSyntax Precision = "syntax"
	// PrecisionName: matched by name only; the receiver could not be
	// resolved. Never an error on its own.
	PrecisionName Precision = "name"
)

// Site is a place in the head state.
type Site struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Col  int    `json:"col,omitempty"`
	// Enclosing names the declaration the site lies in ("func run",
	// "method (*Terminal).Loop"), empty at top level.
	Enclosing string `json:"enclosing,omitempty"`
	// EnclosingSpan is that declaration's span, when known.
	EnclosingSpan Span `json:"enclosing_span,omitzero"`
	// Text is the site's whole source line, without the line terminator
	// and untrimmed (Col indexes into it); writers trim it for display.
	Text string `json:"text,omitempty"`
	// Rev is the commit whose file Line is a line of, when it is not the
	// result's head: a site the merge check found on the branch merged
	// with (Finding.Merged), which the head does not have.
	Rev string `json:"rev,omitempty"`
}

// Step is one block on the relation path from the seed to a site.
type Step struct {
	// Relation is how this block depends on the previous step's block
	// (empty on the first step, the seed).
	Relation Relation `json:"relation"`
	// Display and Path/Line locate the block.
	Display string `json:"display"`
	Path    string `json:"path"`
	Line    int    `json:"line"`
	// Rev is the commit Line is a line of when it is not the head's (as
	// Site.Rev).
	Rev string `json:"rev,omitempty"`
}

// Finding is one impacted site.
type Finding struct {
	Change    *Change   `json:"-"`
	Relation  Relation  `json:"relation"`
	Site      Site      `json:"site"`
	Verdict   Verdict   `json:"-"`
	Precision Precision `json:"precision"`
	// Message says why the site is impacted, in terms of the site: "call
	// passes 2 arguments; notifyOnResize now takes 3".
	Message string `json:"message"`
	// Trail is the relation path: the seed block first, then each block
	// the impact went through (a wrapper, an implementation), the site's
	// enclosing block last. A direct dependent has two steps.
	Trail []Step `json:"trail,omitempty"`
	// Level is filled by the driver from the verdict and the config.
	Level Level `json:"level"`
	// Updated is set when the site's lines were edited by the diff too.
	Updated bool `json:"updated,omitempty"`
	// Fix is the edit that makes the site consistent, when it follows
	// from the seed alone (a rename, a removed or reordered parameter, an
	// added parameter with a given default); nil otherwise.
	Fix *Fix `json:"fix,omitempty"`
	// Missing says what information the verdict was established without
	// ("module example.com/x not in the module cache"): the verdict is
	// the syntax's, not the type checker's.
	Missing string `json:"missing,omitempty"`
	// Also lists the other sites of an aggregate: findings of one change
	// with one rule, level and reason are reported once, at the first
	// site, when there are many of them.
	Also []Site `json:"also,omitempty"`
	// Merged is set on what the merge check found: the site is
	// inconsistent only once the head is merged with Merged.Ref.
	Merged *Merged `json:"merged,omitempty"`
}

// Merged names the branch a merge check merged the head with (Ref as the
// user named it, "origin/main"; Commit its tip). On a change, Theirs says
// the change is one that branch made after the fork; else it is the
// head's own, as it lands. Rev, on a change, is the commit whose lines
// the block it is reported at (the new one, else the old one) is at,
// when not the head's: Commit for a declaration that branch changed.
type Merged struct {
	Ref    string `json:"ref"`
	Commit string `json:"commit"`
	Theirs bool   `json:"theirs,omitempty"`
	Rev    string `json:"rev,omitempty"`
}

// MergeFixes combines the fixes of two uses on one line (f(x) + f(y)); nil
// when their edits overlap.
func MergeFixes(a, b *Fix) *Fix {
	edits := append([]TextEdit(nil), a.Edits...)
	for _, e := range b.Edits {
		if !slices.Contains(edits, e) {
			edits = append(edits, e)
		}
	}
	for i, x := range edits {
		for _, y := range edits[i+1:] {
			if x.Path == y.Path && before(x.StartLine, x.StartCol, y.EndLine, y.EndCol) && before(y.StartLine, y.StartCol, x.EndLine, x.EndCol) {
				return nil
			}
		}
	}
	d := a.Description
	if b.Description != a.Description {
		d += "; " + b.Description
	}
	return &Fix{Description: d, Edits: edits}
}

// before reports whether position l1:c1 comes before l2:c2.
func before(l1, c1, l2, c2 int) bool { return l1 < l2 || l1 == l2 && c1 < c2 }

// Fix is a mechanical edit of one site.
type Fix struct {
	Description string     `json:"description"`
	Edits       []TextEdit `json:"edits"`
}

// TextEdit replaces the text between two positions of the head state
// (1-based lines, 1-based UTF-8 byte columns; End is exclusive) with
// NewText. Edits of one Fix do not overlap.
type TextEdit struct {
	Path      string `json:"path"`
	StartLine int    `json:"start_line"`
	StartCol  int    `json:"start_col"`
	EndLine   int    `json:"end_line"`
	EndCol    int    `json:"end_col"`
	NewText   string `json:"new_text"`
}

// Rule is the stable rule identifier of a finding, used by SARIF and as a
// fingerprint component: "ripple/MMS/CalledBy".
func (f *Finding) Rule() string {
	l := Label("")
	if f.Change != nil {
		l = f.Change.Label
	}
	return "ripple/" + string(l) + "/" + string(f.Relation)
}

// Diagnostic is a problem Ripple met that lowers what it can say without
// aborting the check: a file that does not parse, a package whose types
// could not be loaded, a binary file in the diff.
type Diagnostic struct {
	Path    string `json:"path,omitempty"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
	// Partial is set when the file's declarations may be incomplete (it
	// does not parse): what it seems to lack is unknown, not deleted.
	Partial bool `json:"partial,omitempty"`
}

func (d Diagnostic) String() string {
	switch {
	case d.Path != "" && d.Line > 0:
		return fmt.Sprintf("%s:%d: %s", d.Path, d.Line, d.Message)
	case d.Path != "":
		return d.Path + ": " + d.Message
	}
	return d.Message
}

// Result is the outcome of one check: what changed, what it impacts, and
// what limited the analysis.
type Result struct {
	Base        string       `json:"base"`
	Head        string       `json:"head"` // a commit, or "" for the work tree
	Changes     []*Change    `json:"changes"`
	Findings    []*Finding   `json:"findings"`
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
	// Bumps are the dependency version changes of the diff's manifests
	// that the check read (internal/bump); the changes they caused are
	// marked with them (Change.Bump).
	Bumps []*Bump `json:"bumps,omitempty"`
	// Precision is the weakest precision any finding was established with,
	// and PrecisionNotes say why it is not stronger.
	PrecisionNotes []string `json:"precision_notes,omitempty"`
	Stats          Stats    `json:"stats"`
}

// Stats describes the work a check did.
type Stats struct {
	ChangedFiles  int   `json:"changed_files"`
	ParsedFiles   int   `json:"parsed_files"`
	TypedPackages int   `json:"typed_packages"`
	Millis        int64 `json:"millis"`
	// BudgetCut is set when the budget ran out before every derived
	// change was walked (a precision note says what was left).
	BudgetCut bool `json:"budget_cut,omitempty"`
	// FrontierSkipped counts the frontier changes not walked because
	// the report shows no notes (check.Options.Frontier).
	FrontierSkipped int `json:"frontier_skipped,omitempty"`
	// Cold is set when the type-precise tier ran out of time building
	// what `hook warm` prepares (a first check on this machine).
	Cold bool `json:"cold,omitempty"`
}

// Count returns the number of findings at each level.
func (r *Result) Count() map[Level]int {
	m := map[Level]int{}
	for _, f := range r.Findings {
		m[f.Level]++
	}
	return m
}

// Plural counts in words: Plural(1, "site", "sites") is "1 site",
// Plural(3, ...) "3 sites". Every report of the tool counts this way.
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
