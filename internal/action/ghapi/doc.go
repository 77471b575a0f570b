// Package ghapi is the action's access to GitHub's REST API: a
// go-github client pointed at GITHUB_API_URL, and Call, which every
// request goes through. Call decides what a failure means and what to do
// about it; the review flow (internal/action/review) decides what to
// fall back to.
//
// Retries and backoff:
//
//   - Secondary rate limit (403 or 429 whose documentation_url names the
//     secondary limits, or any 429): wait Retry-After, or one minute when
//     GitHub gives none (its documented minimum), then retry.
//   - Primary rate limit (403 or 429 with X-RateLimit-Remaining: 0): wait
//     until X-RateLimit-Reset, then retry.
//   - 5xx and transport errors: retry after 1 s, 2 s, 4 s.
//   - Every wait counts against MaxWait for the whole run; a wait that
//     would exceed it is not started and the call fails with
//     KindRateLimited, so a job never sleeps for an hour.
//   - Content-creating requests (POST, PATCH, PUT, DELETE) are spaced by
//     at least WriteInterval (GitHub asks for one second) to stay clear
//     of the secondary limit in the first place.
//
// Failures that are not retried are classified (Kind): 401 and 403
// (a read-only token, a missing permission) are KindForbidden, 404
// KindNotFound, 422 KindUnprocessable. Cap bounds the requests of one run
// (retries included); the request past it is not sent (KindCapReached).
//
// The token is sent only to the API's host (go-github refuses to follow
// a redirect to another host) and never appears in an error.
package ghapi
