// Package review posts a check's findings as one pull request review,
// and keeps re-runs from repeating themselves.
//
// Where a finding goes (Plan, a pure function of the findings, the diff
// and the comments already on the pull request):
//
//   - Inline, as a review comment on the right side of the diff, when its
//     line is one GitHub shows in the pull request's diff (an added or a
//     context line of a hunk: DiffMap). Comments use line and side only,
//     never the old position field.
//   - With a `suggestion` block only when the finding carries a Fix whose
//     whole range lies inside one hunk of the diff: the comment then spans
//     exactly that range (start_line..line), as GitHub requires for the
//     suggestion to apply. A check's mechanical fixes on the site's line
//     are Fixes; in fix mode so is the proven edit of the site's block
//     (internal/action/fixmode), introduced by where it comes from.
//   - In the review body, grouped by change with a permalink per site,
//     when its line is outside the diff, or when the inline cap
//     (MaxComments, never above MaxCommentsLimit) is reached.
//
// Every body is at most MaxBody bytes (GitHub's limit is 65,536
// characters): long lists are cut, a suggestion too long for a comment
// is left out rather than cut, and a cut closes any code block or
// <details> it leaves open and keeps the hidden marker.
//
// Options.Note is a paragraph fix mode puts at the top of the body (the
// commits it pushed, the stacked pull request, why nothing was
// committed); when it is news (NoteIsNews) the review is posted even if
// no finding is new.
//
// Idempotency. Every comment ends with an HTML comment carrying the
// finding's fingerprint (internal/report: rule, seed, path, enclosing
// declaration and trimmed source line; not the line number), and the
// review body carries a digest of all fingerprints. A re-run lists the
// pull request's review comments and reviews first, then:
//
//   - a finding whose fingerprint already has a live comment (one GitHub
//     still anchors in the diff) is not commented again; the comment is
//     edited only if its text changed;
//   - a finding whose only comment is outdated (GitHub no longer anchors
//     it) is commented again at its new line and the outdated comment is
//     edited to point at the new one;
//   - a comment whose fingerprint is no longer reported is edited once to
//     say it is resolved (the REST API cannot resolve threads);
//   - no review is posted when nothing is new: no new comment and the same
//     digest as Ripple's latest review.
//
// Failures (Post): 403 (a read-only token: fork and Dependabot pull
// requests) and 404 stop all writes and report why, so that the summary
// says so; 422 on the review retries once with every finding in the body
// and no inline comments; rate limits wait and retry within a budget
// (internal/action/ghapi); past the budget or the request cap the review
// is abandoned. In every case annotations, the SARIF file and the job
// summary carry the findings anyway.
package review
