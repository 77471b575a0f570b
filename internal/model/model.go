package model

import (
	"fmt"
	"strings"
)

// Span is a range of lines, 1-based and inclusive.
type Span struct {
	StartLine int `json:"start_line"`
	EndLine   int `json:"end_line"`
}

// Contains reports whether line lies within s.
func (s Span) Contains(line int) bool { return s.StartLine <= line && line <= s.EndLine }

// Kind is what sort of declaration a Block is. The set is shared by all
// languages; a front-end maps its own constructs onto it (a Go struct type
// is a KindType, a Python class is a KindType, a Go NewT function is a
// KindConstructor).
type Kind string

const (
	KindFunc        Kind = "func"        // free function
	KindMethod      Kind = "method"      // method with a receiver or enclosing class
	KindConstructor Kind = "constructor" // constructor, or a Go NewT function
	KindType        Kind = "type"        // named type, class, struct
	KindInterface   Kind = "interface"   // interface or protocol type
	KindIfaceMethod Kind = "interface method"
	KindField       Kind = "field" // struct field, class attribute
	KindVar         Kind = "var"   // package- or module-level variable
	KindConst       Kind = "const" // package- or module-level constant
	KindImport      Kind = "import"
)

// Block is one declaration of one state of a file.
type Block struct {
	Lang string `json:"lang"` // front-end name: "go", "python", ...
	Kind Kind   `json:"kind"`
	Path string `json:"path"` // repository-relative, forward slashes
	// Package identifies the unit that scopes Name: a Go import path, a
	// Python module. Unit is a finer split the front-end may need (a Go
	// external test package); it is empty otherwise.
	Package string `json:"package"`
	Unit    string `json:"unit,omitempty"`
	// Container is the enclosing type or class for methods and fields.
	Container string `json:"container,omitempty"`
	Name      string `json:"name"`
	// Display is how a person names the block: "func (*Client).Do",
	// "field Options.Hidden".
	Display string `json:"display"`
	// Signature is the declaration's header as written (no body).
	Signature string `json:"signature,omitempty"`
	Span      Span   `json:"span"`
	// NameLine is the line of the declared name (for reports).
	NameLine int `json:"name_line"`
	// Data is the front-end's own view of the declaration (its syntax
	// nodes, parsed signature): it travels with the block from the
	// classifier to the analyzer and the fix engine, so no side table maps
	// blocks back to syntax. Only the front-end that made the block reads
	// it.
	Data any `json:"-"`
}

// Key identifies the block within its package: the same key in the old and
// the new state of a package means "the same declaration".
func (b *Block) Key() string {
	if b.Container != "" {
		return b.Container + "." + b.Name
	}
	return b.Name
}

// Label is an atomic-change label of CodePlan's Table 1.
type Label string

const (
	MMB Label = "MMB" // body of a method or function modified
	MMS Label = "MMS" // signature of a method or function modified
	MF  Label = "MF"  // field modified (type, tag, encoded name)
	MC  Label = "MC"  // type or class declaration modified
	MCC Label = "MCC" // constructor signature modified
	MI  Label = "MI"  // import modified
	AM  Label = "AM"  // method added
	AF  Label = "AF"  // field added
	AC  Label = "AC"  // type or class added
	ACC Label = "ACC" // constructor added
	AI  Label = "AI"  // import added
	DM  Label = "DM"  // method or function deleted (or renamed)
	DF  Label = "DF"  // field deleted (or renamed)
	DC  Label = "DC"  // type or class deleted (or renamed)
	DCC Label = "DCC" // constructor deleted (or renamed)
	DI  Label = "DI"  // import deleted
)

// Labels lists every label, in the order of the CodePlan table.
var Labels = []Label{MMB, MMS, MF, MC, MCC, MI, AM, AF, AC, ACC, AI, DM, DF, DC, DCC, DI}

// Change is one atomic change of the seed diff.
type Change struct {
	Label Label `json:"label"`
	// Old is the block in the base state (nil when added), New in the head
	// state (nil when deleted). A rename is a D* label with both set.
	Old *Block `json:"old,omitempty"`
	New *Block `json:"new,omitempty"`
	// Details are the facets of the change, each a short phrase such as
	// "parameter ctx context.Context added" or "renamed to IndexByteTwo".
	Details []string `json:"details,omitempty"`
	// Escapes lists how a body change (MMB) reaches callers: "return
	// values", "errors", "receiver mutated", ... Empty means the change is
	// internal to the body.
	Escapes []string `json:"escapes,omitempty"`
	// Derived is set on changes that Ripple inferred (a wrapper whose
	// signature must follow the seed) rather than read from the diff.
	Derived bool `json:"derived,omitempty"`
	// Cause is the change a derived change follows from, and Via the
	// relation in which the derived change's block stands to the cause's
	// (CalledBy: a wrapper that calls it; OverriddenBy: an implementation
	// of it; Overrides: the method it overrides).
	Cause *Change  `json:"-"`
	Via   Relation `json:"via,omitempty"`
	// Merged is set on a change that only the merge check saw (the head
	// merged with another branch): one that branch made (Theirs), or the
	// head's own, classified otherwise once merged.
	Merged *Merged `json:"merged,omitempty"`
	// Tentative counts the may-impact steps on the derived change's trail:
	// a change derived from a site that may be impacted (a base method that
	// may have to follow an override's new signature) is tentative, and
	// what it reaches is reported one rung lower (see propagate.Cap).
	Tentative int `json:"tentative,omitempty"`
	// Frontier marks a derived change whose form is not known (a function
	// that may have to take a new value from its own callers): its
	// dependents can only be the farther frontier (notes), and so can
	// what derives from it (see propagate.Rung).
	Frontier bool `json:"frontier,omitempty"`
	// Bump is set on a change read from a dependency's two versions
	// (a change of its API) rather than from the repository's diff: the
	// version change of the manifest that caused it.
	Bump *Bump `json:"bump,omitempty"`
}

// Bump is a dependency's version change in a manifest: the seed of the
// changes read from the dependency's two versions.
type Bump struct {
	// Module is the dependency (a Go module path, an npm package);
	// NewModule is set when the bump renamed it (a Go major version:
	// github.com/x/y -> github.com/x/y/v2).
	Module    string `json:"module"`
	NewModule string `json:"new_module,omitempty"`
	From      string `json:"from"`
	To        string `json:"to"`
	// Manifest is the repository file whose line Line changed the
	// version ("go.mod").
	Manifest string `json:"manifest"`
	Line     int    `json:"line"`
}

// String names the bump as a person reads it: "github.com/x/y v1.4.0 ->
// v1.6.2".
func (b *Bump) String() string {
	if b.NewModule != "" && b.NewModule != b.Module {
		return b.Module + " " + b.From + " -> " + b.NewModule + " " + b.To
	}
	return b.Module + " " + b.From + " -> " + b.To
}

// Hops is the number of derived steps between the developer's change and
// c: 0 for a change of the diff, 1 for what must follow it, and so on.
func (c *Change) Hops() int {
	n := 0
	for ; c != nil && c.Cause != nil; c = c.Cause {
		n++
	}
	return n
}

// Block returns the block the change is about: the new block if any, else
// the old one.
func (c *Change) Block() *Block {
	if c.New != nil {
		return c.New
	}
	return c.Old // nil only for a malformed change
}

// Known returns the block dependents know: the old block if any (the old
// name of a renamed declaration), else the new one of an added
// declaration.
func (c *Change) Known() *Block {
	if c.Old != nil {
		return c.Old
	}
	return c.New // nil only for a malformed change
}

// Trail is the relation path from the developer's change to c's block:
// one step per change along Cause, the seed first, each derived change
// related to its cause by Via.
func (c *Change) Trail() []Step {
	var chain []*Change
	for ; c != nil; c = c.Cause {
		chain = append([]*Change{c}, chain...)
	}
	var steps []Step
	if bp := chain[0].Bump; bp != nil {
		// the developer's change is the manifest's line, the
		// dependency's declaration the first thing it changed
		steps = append(steps, Step{Display: bp.String(), Path: bp.Manifest, Line: bp.Line})
	}
	for i, c := range chain {
		b := c.Block()
		st := Step{Display: b.Display, Path: b.Path, Line: b.NameLine}
		if i > 0 {
			st.Relation = c.Via
		}
		steps = append(steps, st)
	}
	return steps
}

// Renamed reports whether the change is a rename (old and new present,
// names differ).
func (c *Change) Renamed() bool {
	return c.Old != nil && c.New != nil && c.Old.Name != c.New.Name
}

// Summary is the one-line description used as a report heading:
// "func (*Client).Do: parameter ctx context.Context added".
func (c *Change) Summary() string {
	b := c.New
	if c.New == nil || c.Renamed() {
		b = c.Old // a deletion or a rename is named by the old declaration
	}
	if b == nil {
		return c.Label.Describe()
	}
	var what string
	switch {
	case len(c.Details) > 0:
		what = strings.Join(c.Details, "; ")
	default:
		what = c.Label.Describe()
	}
	if c.Bump != nil {
		return fmt.Sprintf("%s: %s: %s", c.Bump.String(), b.Display, what)
	}
	return fmt.Sprintf("%s: %s", b.Display, what)
}

// Describe is a phrase for a label without details.
func (l Label) Describe() string {
	switch l {
	case MMB:
		return "body changed"
	case MMS:
		return "signature changed"
	case MF:
		return "field changed"
	case MC:
		return "type declaration changed"
	case MCC:
		return "constructor changed"
	case MI:
		return "import changed"
	case AM:
		return "method added"
	case AF:
		return "field added"
	case AC:
		return "type added"
	case ACC:
		return "constructor added"
	case AI:
		return "import added"
	case DM:
		return "deleted"
	case DF:
		return "field deleted"
	case DC:
		return "type deleted"
	case DCC:
		return "constructor deleted"
	case DI:
		return "import deleted"
	}
	return string(l)
}

// WithData returns b carrying the front-end's data d.
func (b Block) WithData(d any) Block {
	b.Data = d
	return b
}
