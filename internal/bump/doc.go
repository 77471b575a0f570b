// Package bump turns a dependency's version change into seed changes.
//
// A diff that changes a dependency's version in a manifest (go.mod,
// go.work, package.json, requirements.txt, pyproject.toml, uv.lock,
// poetry.lock) changes declarations whose source is not in the
// repository. Each front-end that is a lang.Bumper finds the bumps of
// its manifests and reads the two versions of the dependency, as far as
// the repository imports it (Go: the module cache, fetched through
// GOPROXY when absent; npm: the packages' declaration files, from
// tarballs npm pack fetches into the user cache; Python: the imported
// packages' sources and stubs, from wheels or sdists of the user's
// package index, in the user cache; docs/bumps.md). This package,
// language-neutral like the rest of the core:
//
//   - classifies the two states with the classifier every diff goes
//     through (internal/diffclassify), so a bump's changes carry the same
//     CodePlan labels as a change of the repository's own code;
//   - keeps what dependents can use (the front-end's API: Go's exported
//     names) and drops what the repository cannot see from outside: body
//     changes (a dependency's behaviour is not judged) and imports, but
//     those a lang.ReExporter says are how the dependency exports a name
//     (a Python package's __init__.py);
//   - puts the version in each block's path ("github.com/x/y@v1.6.2/a.go")
//     and marks each change with its bump (model.Change.Bump), whose
//     manifest line heads every trail;
//   - says what was compared, and, after the walk, how many of the
//     changes the repository uses (Summarize).
//
// The walk then asks the front-end for the dependents of these changes
// like any others: a bump's uses are the repository's references through
// its imports of the dependency, judged by syntax and, where the new
// version is on disk, by the type checker against it. A bump whose
// versions cannot be read is reported as a diagnostic on its manifest
// line: its uses are unjudged, never called consistent.
package bump
