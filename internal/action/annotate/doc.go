// Package annotate chooses the workflow-command annotations of a check
// within GitHub's limits: at most 10 annotations of each level (error,
// warning, notice) per step and 50 per job. Past a limit GitHub drops
// annotations silently; this package never lets that happen.
//
// Findings are taken in report order, errors first, then warnings, then
// notes (findings of level note become notice annotations). When a level
// has more findings than its limit, the last annotation of that level is
// not a finding but a count of the ones left out, pointing to the job
// summary, which lists them all: "ripple: 7 more inconsistent sites are
// not annotated (GitHub shows 10 error annotations per step); the job
// summary lists all 16". Plan returns the counts too, for the summary
// and the log.
//
// An annotation sits on the site's line, titled with the verdict and the
// changed declaration; its message is the finding's message, the change
// and the relation path from the seed to the site, in plain text (the
// go-githubactions writer escapes it for the workflow command).
package annotate
