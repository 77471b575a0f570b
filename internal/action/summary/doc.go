// Package summary writes the job summary of a check: the Markdown a
// reader of the workflow run sees first.
//
// It shows the verdict and why, the range checked, the counts per level,
// then one section per changed declaration (in report order) with a
// table of its sites: level, the site as a permalink pinned to the head
// commit with its source line, the reason, and the relation path from
// the changed declaration to the site. A deleted declaration links to the
// base commit. A "Delivery" section says where else the findings went
// and what could not be done (annotations left out over GitHub's limits,
// a review that was not posted and why, the SARIF file).
//
// Everything taken from the code under review is escaped (internal/
// action/md). GitHub accepts 1 MiB of summary per step; the tables stop
// at MaxRows rows and the text at MaxBytes, saying how many sites were
// left out and where they are (the SARIF file holds all of them).
package summary
