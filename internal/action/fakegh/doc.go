// Package fakegh is a fake of the part of GitHub's REST API the action
// uses, for tests only: an httptest server that holds pull requests,
// review comments and reviews in memory and answers as GitHub does.
//
// It holds every exchange to GitHub's published contract: the REST
// API's OpenAPI description (testdata/api.github.com.trimmed.json, the
// operations the action calls; testdata/README.md says which version),
// checked with kin-openapi. A request must be an operation of the
// description (method and path), with valid path and query parameters
// (and no query parameter the operation does not declare) and a JSON body
// valid against the operation's request schema, closed: a field the
// schema does not name is a violation, since GitHub would silently ignore
// it. A request that fails is answered 404 or 422 and recorded as a
// violation naming the operation and the field ("POST ... (operation
// pulls/create-review): request body field comments/0/line: value must be
// an integer"). Each answer is completed with what the operation's
// response schema requires and the fake does not model (placeholders of
// the right type: node ids, URLs, dates, the repository's many fields)
// and validated against that schema; a mismatch is a violation too.
//
// It is strict where the action could be wrong beyond the description.
// A review comment carries path, body, line and side, never position
// mixed with line; start_line only below line and on the same side;
// every request carries a bearer token and the X-GitHub-Api-Version
// header. A request that breaks a rule is answered as GitHub would (404,
// 422) and recorded as a violation, and tests fail on any violation. A
// review comment on a line outside the pull request's diff is a
// violation too: the action must never send one. The log (Log) keeps
// every request's body, for transcripts of what a run sent.
//
// It is permissive where GitHub is. Tokens are read-only or may write
// (a read-only token gets GitHub's 403 "Resource not accessible by
// integration" on every write). Faults inject GitHub's failures on
// matching requests: secondary and primary rate limits (with Retry-After
// or X-RateLimit-Reset), 404, 422 and 500.
//
// It opens pull requests (POST /repos/{owner}/{repo}/pulls, the stacked
// pull request of fix mode) only between branches that exist, which a
// test can tie to the git remote the action pushes to (SetBranches), and
// answers 422 "A pull request already exists" as GitHub does; it lists
// them by head and base.
//
// Its diff is computed independently of the action's: hunk headers and
// line prefixes of a unified diff, the right side of every hunk being
// commentable. Moving a pull request's head marks the comments on files
// changed by the move as outdated (line null), GitHub's behaviour for
// lines a push touched, coarsened to whole files.
package fakegh
