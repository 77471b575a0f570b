// Package findings is the action's view of one check: the changes and
// the reported findings of a model.Result in report order, each with its
// stable fingerprint, and the permalinks that point at them.
//
// It decides nothing about verdicts, levels, order, deduplication or
// identity: it reads them from the versioned JSON that internal/report
// writes (report.JSON), so that the job summary, the annotations, the
// review comments and the SARIF file agree finding for finding and
// fingerprint for fingerprint. The format has one definition, the types
// of internal/report (report.JSONReport and its parts, which Report,
// Change, Finding and the rest are): what the hook writes, the action
// reads, with nothing lost. The same reader decodes the report carried
// from the analysis job to the posting job of the two-phase set-up
// (internal/action/handoff), where the JSON is untrusted data: Validate
// drops findings whose paths or lines cannot be real (absolute paths,
// "..", control characters, lines below 1).
//
// Fix is an optional suggested replacement of a finding's lines: the
// check's mechanical fix when all its edits fall on the site's line, or,
// in fix mode, the proven edit of the site's block (internal/action/
// fixmode). The review package turns a Fix into a `suggestion` block
// where GitHub can apply it.
package findings
