package lang

import (
	"context"
	"time"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
)

// Bumper is a front-end that reads its ecosystem's dependency manifests
// (go.mod, package.json, requirements.txt, pyproject.toml, lock files): a diff that changes a dependency's version is
// a seed whose declarations live outside the repository. The front-end
// finds the bumps and reads the two versions of the dependency's source,
// as far as the repository imports it; the core (internal/bump)
// classifies the two states like any diff, keeps what dependents can
// use (API) and hands the changes to the walk, whose queries the
// front-end answers as for a change of the repository's own code.
type Bumper interface {
	// Manifests are the pathspecs of the manifest files ("go.mod").
	Manifests() []string
	// Bumps finds the dependency version changes of the changed
	// manifests and reads both versions of each. A bump whose source
	// cannot be read is returned with Unread set, never dropped.
	Bumps(ctx context.Context, in BumpInput) ([]*Bump, error)
	// API reports whether a declaration of a dependency is one the
	// repository can depend on (Go: an exported name).
	API(b *model.Block) bool
	// Forwards names the function of the same package that a function
	// only forwards its parameters to ("" when it does more): a
	// dependency that deletes such a deprecated name renamed it, and
	// its callers' edit is mechanical.
	Forwards(b *model.Block) string
}

// BumpInput is what a Bumper reads.
type BumpInput struct {
	Base, Head gitio.Tree
	// Manifests are the changed files the Manifests pathspecs select.
	Manifests []*gitio.FileChange
	// Deadline is the check's budget. Reading a bump's versions is
	// reading the seed, which a budget never cuts (its uses are the
	// diff's own dependents): fetching may run past it, up to
	// FetchLimit, and the time it took is said when it did.
	Deadline time.Time
	// Diag records what the Bumper could not read (a manifest that
	// does not parse, by file and line); nil drops it.
	Diag func(model.Diagnostic)
}

// FetchLimit bounds fetching the versions of a check's bumps that are
// not on disk: past it, a bump is Unread.
const FetchLimit = 2 * time.Minute

// Bump is one dependency's version change and the two states of the
// source the repository imports from it.
type Bump struct {
	model.Bump
	// Base and Head hold the imported packages' files of the old and the
	// new version under the same paths (Files), so that a declaration
	// meets its other state. Root prefixes those paths; OldRoot and
	// NewRoot replace it in the paths a person reads (the version in
	// them: "github.com/x/y@v1.4.0/pkg/a.go").
	Base, Head gitio.Tree
	Files      []*gitio.FileChange
	Root       string
	OldRoot    string
	NewRoot    string
	// Imported are the packages of the dependency the repository
	// imports (import paths), the only ones read; none for an indirect
	// dependency, which is reported as such and not read.
	Imported []string
	// Moved are the imported packages a major version moved to another
	// import path (github.com/x/y/pkg -> github.com/x/y/v2/pkg), as
	// import blocks of the old and the new path: the repository's
	// imports of the old one no longer build.
	Moved [][2]*model.Block
	// InDiff is set when the repository vendors the dependency and the
	// diff holds both versions' files: their changes are the diff's own
	// seeds, and the bump adds none.
	InDiff string
	// Directives are the names the new version marks for its own
	// migration, which a Migrator applies, and the directive's spelling
	// ("//go:fix inline").
	Directives []string
	Directive  string
	// Fetched is how long fetching its versions took, set when that ran
	// past the budget.
	Fetched time.Duration
	// Unread says why a version's source could not be read (offline,
	// refused by the proxy): the bump is reported, its uses unjudged.
	Unread string
}

// ReExporter is a Bumper whose dependencies' imports may be their API:
// a Python package's __init__.py re-exports what its users import
// (`from .core import render`), and deleting that import deletes the
// name from the package.
type ReExporter interface {
	// ReExport reports whether an import of a dependency binds a name
	// the dependency's users import: its deletion or change is kept.
	ReExport(b *model.Block) bool
}

// Migrator is a Bumper that applies the migration directives a
// dependency's new version ships (Go's //go:fix inline) to the
// repository's code, for the fix engine: in dir, a scratch work tree of
// the head state.
type Migrator interface {
	Migrate(ctx context.Context, dir string, bumps []*model.Bump) (Migration, error)
}

// Migration is what a Migrator did: the repository-relative files it
// changed, and how, for the plan ("the //go:fix inline directives of
// the new versions (go fix -inline)").
type Migration struct {
	Files []string
	How   string
}
