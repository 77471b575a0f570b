// Package report writes a model.Result for people (Text), for programs
// (JSON) and for code-scanning tools (SARIF 2.1.0), and prints the one-line
// Headline of a check.
//
// Writers never decide verdicts or severities. Finding.Verdict comes from
// the analysis and Finding.Level from the driver and its configuration;
// a finding is reported when its level is note, warning or error, and
// findings with level none (consistent, or switched off) are shown only
// in verbose text and JSON, never in SARIF. Whether a push is blocked is
// the caller's decision too (Headline takes it as an argument).
//
// What this package does decide:
//
//   - Order. Findings arrive in any order and are written in report
//     order: by the position of their change in Result.Changes, then
//     path, line, column and rule id (then message and severity, so that
//     the order is total). Findings whose change the result does not list
//     come after, grouped by change; findings without a change come last.
//   - Deduplication. Findings identical in (path, line, column, rule,
//     message) are written once, keeping the most severe.
//   - Words. Text headings and totals count reported findings by verdict:
//     Inconsistent is "not updated"/"inconsistent", MayBeImpacted is "may
//     be impacted". The noun of a heading ("call sites", "uses",
//     "implementations", ...) is the relation most of the change's
//     findings have. The level prefix of each site ("error:",
//     "warning:", "note:") is the finding's Level.
//   - Coordinates. Model columns are 1-based UTF-8 byte offsets. Text and
//     JSON keep them; SARIF converts them to 1-based Unicode code point
//     columns using the site's source line (run.columnKind
//     "unicodeCodePoints"), moving a column inside a multi-byte character
//     to the character's start and leaving the column out when the line
//     does not match it. SARIF URIs are the repository-relative paths,
//     percent-encoded per segment ('/' kept), relative to the base URI
//     SRCROOT, which Options.RepoRoot defines.
//   - Identity. Each reported finding has a fingerprint, the SHA-256 of
//     its rule, the seed's display name, its path, its enclosing
//     declaration and its trimmed source line: stable when lines shift.
//     SARIF writes it as partialFingerprints["rippleFingerprint/v1"] and
//     JSON as "fingerprint". Repeated identities in one run are told
//     apart by mixing in their occurrence number.
//   - Presentation. Text is grouped by change, source lines are trimmed
//     and cut at about 120 columns with "…", colours are used only when
//     Options.Color is set. JSON is the documented object of JSON, with
//     every key always present. SARIF is one run with one reporting
//     descriptor per rule used, related locations and a code flow from
//     the seed through the relation trail to the site, and diagnostics as
//     tool execution notifications. Every physical location names a line
//     of the head state (code scanning resolves them against the
//     checkout): a deleted seed is a logical location whose message says
//     where it was in the base revision.
package report
