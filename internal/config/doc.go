// Package config is ripple's configuration: the .ripple.yaml file of a
// repository and the command-line flags that mirror it.
//
// # What it decides
//
// The configuration decides which files a check looks at (ignore), which
// it treats as generated (generated, plus the Go "// Code generated ...
// DO NOT EDIT." header: findings there are reported with a note to
// regenerate), how loud each kind of finding is (severity), what fails
// the check (fail_on), what a failure of ripple itself does to a push
// (on_tool_error), how much time and precision a check may spend
// (budget, precision, max_files), and how the result is shown (format,
// verbose). ripple.example.yaml at the top of this module is the
// reference file: every key with its default and a one-line comment, and
// a test keeps it equal to Default.
//
// Levels: an inconsistent site is an error; a may-be-impacted site gets
// the severity of its relation (built-in: warning, and note for "body",
// the callers of a body change that escapes); a consistent site is not
// reported. Severity none switches a relation off entirely, inconsistent
// sites included. See Config.FindingLevel.
//
// # Precedence
//
// Defaults < file < flags. Default is the built-in configuration; Load
// reads .ripple.yaml or .ripple.yml at the top of the repository (both
// present is an error) over it; RegisterFlags defines a flag per key
// whose default is the file's value and which overrides it when given.
// -config PATH names a file to use instead of the repository's; Reload
// swaps it in under the flags already parsed, and Resolve does the whole
// chain for a command:
//
//	fs := flag.NewFlagSet("check", flag.ContinueOnError)
//	// ... the command's own flags ...
//	cfg, file, err := config.Resolve(top, fs, args)
//
// # Strictness
//
// The file is versioned: "version: 1" is required, and another version is
// an error before anything else is read. It is decoded strictly, key by
// key: an unknown key, a value of the wrong type or an invalid value (a
// level, relation, glob, duration, enumerated word) is an error naming
// the key and the key's line (a list item's own line; through an alias,
// the line that names it), as
//
//	.ripple.yaml:7: severity.CalledBy: unknown level "loud" (want error, warning, note or none)
//
// and all of a file's errors are reported at once. Missing keys take
// their defaults. Flags are checked as they are parsed.
//
// # Exit codes
//
// The configuration influences the exit code of a check (hook check,
// hook pre-push, CI):
//
//	0  nothing fails: no finding at or above fail_on (with never, none can)
//	1  one finding or more at or above fail_on (Config.Fails)
//	2  ripple itself failed: a bad config, a git error, a diff over
//	   max_files, an internal error
//
// on_tool_error does not change what a check reports. It decides only
// whether the pre-push hook lets the push through after a failure of
// ripple (code 2): allow, the default, says why on stderr and exits 0 so
// the push goes on; block keeps the failure and stops the push. Findings
// at or above fail_on stop a push either way.
package config
