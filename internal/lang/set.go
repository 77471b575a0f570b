package lang

import "context"

// Language is one language as the registry (internal/languages) knows
// it: how to make its front-end and the facts about it that live outside
// a check (the tools it installs, the comment that carries a scenario's
// `want` mark). A front-end's own methods answer the rest (its name, the
// paths it owns, its oracle).
type Language struct {
	// Name is the front-end's Name, model.Block.Lang of its blocks.
	Name string
	// Title is how a person names it ("Go", "TypeScript/JavaScript").
	Title string
	// Proof names what its oracle runs to prove a state ("go build, go
	// vet"), for the command line's help.
	Proof string
	// New makes a front-end for one check (it may keep per-check state,
	// such as a parse cache).
	New func() Frontend
	// Comment opens a line comment ("//", "#"): a scenario marks the line
	// a finding is expected at with COMMENT want LEVEL (internal/testrepo).
	Comment string
	// Extensions are the file name extensions the front-end owns, with
	// their dot (".go"), for the tests that hold the other lists of them
	// (testrepo's comment syntax, the action's needs) to the registry.
	Extensions []string
	// Cgo is set when the front-end's parser is C (tree-sitter) and the
	// binary must be built with cgo to run it: action.yml says which
	// languages a runner without a C compiler does not check.
	Cgo bool
	// Tools are the tools the front-end installs into the user cache on
	// first use (npm packages at a pinned version): `hook tools` lists
	// and installs them, and CI installs them before the tests.
	Tools []Tool
}

// Tool is a tool a front-end installs into Ripple's user cache.
type Tool struct {
	Name    string // the npm package ("pyright", "typescript")
	Version string // the pinned version
	// Why says what the front-end uses it for, in `hook tools`.
	Why string
	// Locate finds the tool (on PATH, in the user cache) or installs it
	// there, as the front-end does on first use; it returns its path.
	Locate func(ctx context.Context) (string, error)
}

// Set is the front-ends of one check, one per language. Which front-end
// owns a path (For) and which one made a block (ByName) are asked of it,
// nowhere else.
type Set []Frontend

// For returns the front-end that owns path, nil when none does.
func (s Set) For(path string) Frontend {
	for _, fe := range s {
		if fe.Match(path) {
			return fe
		}
	}
	return nil
}

// ByName returns the front-end named name (model.Block.Lang), nil when
// the set has none.
func (s Set) ByName(name string) Frontend {
	for _, fe := range s {
		if fe.Name() == name {
			return fe
		}
	}
	return nil
}

// Pathspecs are the git pathspecs of every front-end's files.
func (s Set) Pathspecs() []string {
	var out []string
	for _, fe := range s {
		out = append(out, fe.Pathspecs()...)
	}
	return out
}
