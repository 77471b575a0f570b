// Package pyright is the Python oracle: pyright (`pyright --outputjson`
// on the affected files; its errors count, its warnings do not), found on
// PATH or in the user cache, else installed there with npm (Version),
// else a clear error. A file pyright's default exclude would drop (a
// dot-folder's script) is judged through a configuration of its own; a
// pass that analysed fewer files than it was given says so
// (oracle.Result.Unanalysed). The Python front-end returns it
// (lang.Provable).
//
// It is the Python front-end's type tier too (tier.go): Analyse runs
// pyright on the files holding a check's sites through a configuration
// of Ripple's own, written outside the tree, that includes exactly
// those files and carries the repository's settings (settings.go:
// pyrightconfig.json, or the [tool.pyright] table of pyproject.toml read
// by a small reader of TOML's strings, booleans, numbers and arrays; a
// key of another form is named in Settings.Skipped), a virtual
// environment, extra import roots, and rules of its own: every body
// analysed, `# type: ignore` not honoured, attribute, call, argument
// and import errors reported as errors, and the reports of unknown
// types (UnknownRules) turned on, so that silence means typed. Every
// diagnostic is returned with its rule and range; NoInstall keeps a
// missing pyright an error (auto precision never installs it).
package pyright
