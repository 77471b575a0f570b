// Package fakegh is a fake of the part of GitHub's REST API the action
// uses, for tests only: an httptest server that holds pull requests,
// review comments and reviews in memory and answers as GitHub does.
//
// It is strict where the action could be wrong. Every request must match
// a documented route, method, query and body shape (bodies are decoded
// with unknown fields rejected; a review comment carries path, body, line
// and side, never position mixed with line; start_line only below line);
// it must carry a bearer token and the X-GitHub-Api-Version header. A
// request that breaks a rule is answered as GitHub would (404, 422) and
// recorded as a violation, and tests fail on any violation. A review
// comment on a line outside the pull request's diff is a violation too:
// the action must never send one.
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
