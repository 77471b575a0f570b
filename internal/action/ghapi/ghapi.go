package ghapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/go-github/v92/github"
)

// Defaults of an API.
const (
	DefaultCap           = 60
	DefaultMaxWait       = 3 * time.Minute
	DefaultWriteInterval = time.Second
	// secondaryDefault is GitHub's advice when a secondary rate limit
	// comes without Retry-After: wait at least one minute.
	secondaryDefault = time.Minute
	maxServerRetries = 3
)

// API is a client for one repository.
type API struct {
	GH          *github.Client
	Owner, Repo string
	// Cap is the most requests of one run, retries included.
	Cap int
	// MaxWait bounds the time spent waiting for rate limits and
	// retries over the run.
	MaxWait time.Duration
	// WriteInterval spaces content-creating requests.
	WriteInterval time.Duration
	// Sleep waits (tests may replace it); it returns early with the
	// context's error.
	Sleep func(ctx context.Context, d time.Duration) error
	Now   func() time.Time
	// Log receives a line per retry and wait.
	Log func(string)

	requests  int
	waited    time.Duration
	lastWrite time.Time
}

// New returns a client of the REST API at apiURL (GITHUB_API_URL) for
// repo ("owner/name"), authenticated with token.
func New(apiURL, token, repo string) (*API, error) {
	owner, name, ok := strings.Cut(repo, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return nil, fmt.Errorf("repository %q is not owner/name", repo)
	}
	if token == "" {
		return nil, errors.New("no token: give the token input (the default is the workflow's GITHUB_TOKEN)")
	}
	if apiURL == "" {
		apiURL = "https://api.github.com"
	}
	gh, err := github.NewClient(
		github.WithURLs(&apiURL, &apiURL),
		github.WithAuthToken(token),
		github.WithTimeout(30*time.Second),
		github.WithUserAgent("ripple-action"),
		github.WithDisableRateLimitCheck(), // Call does the waiting
	)
	if err != nil {
		return nil, fmt.Errorf("GitHub client: %w", err)
	}
	return &API{GH: gh, Owner: owner, Repo: name}, nil
}

// Requests is the number of requests sent so far.
func (a *API) Requests() int { return a.requests }

// Kind classifies a failed call.
type Kind int

const (
	KindOther         Kind = iota
	KindForbidden          // 401, 403: the token may not do this
	KindNotFound           // 404: no such pull request, or the token cannot see it
	KindUnprocessable      // 422: GitHub refused the request's content
	KindRateLimited        // rate limited beyond what MaxWait allows
	KindCapReached         // the per-run request cap
)

func (k Kind) String() string {
	switch k {
	case KindForbidden:
		return "forbidden"
	case KindNotFound:
		return "not found"
	case KindUnprocessable:
		return "unprocessable"
	case KindRateLimited:
		return "rate limited"
	case KindCapReached:
		return "request cap reached"
	}
	return "failed"
}

// Error is a failed call.
type Error struct {
	Kind    Kind
	Op      string // what was asked: "create the review"
	Status  int    // HTTP status, 0 when none
	Message string // GitHub's message and error details
}

func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("%s: %d %s", e.Op, e.Status, e.Message)
	}
	return e.Op + ": " + e.Message
}

// KindOf returns the kind of err (KindOther for any other error).
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindOther
}

// Call runs one request through the retry policy. write marks a
// content-creating request. op names the request in errors and logs.
func (a *API) Call(ctx context.Context, op string, write bool, do func(context.Context) (*github.Response, error)) error {
	serverRetries := 0
	for {
		if a.cap() > 0 && a.requests >= a.cap() {
			return &Error{Kind: KindCapReached, Op: op, Message: fmt.Sprintf("not sent: this run already made %d API requests (its cap)", a.requests)}
		}
		if write && a.interval() > 0 && !a.lastWrite.IsZero() {
			if d := a.interval() - a.now().Sub(a.lastWrite); d > 0 {
				if err := a.sleep(ctx, d); err != nil {
					return &Error{Op: op, Message: err.Error()}
				}
			}
		}
		a.requests++
		resp, err := do(ctx)
		if write {
			a.lastWrite = a.now()
		}
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return &Error{Op: op, Message: ctx.Err().Error()}
		}
		wait, kind, msg, status := classify(resp, err, a.now())
		switch {
		case kind == KindRateLimited:
			if w := a.maxWait() - a.waited; wait > w {
				return &Error{Kind: KindRateLimited, Op: op, Status: status, Message: fmt.Sprintf("%s (GitHub asks to wait %v; this run may wait %v more)", msg, wait.Round(time.Second), w.Round(time.Second))}
			}
			a.logf("%s: %d %s; waiting %v before retrying", op, status, msg, wait.Round(time.Millisecond))
		case kind == KindOther && retryable(status) && serverRetries < maxServerRetries:
			wait = time.Second << serverRetries
			serverRetries++
			if wait > a.maxWait()-a.waited {
				return &Error{Kind: KindOther, Op: op, Status: status, Message: msg}
			}
			a.logf("%s: %s; retrying in %v", op, describe(status, msg), wait)
		default:
			return &Error{Kind: kind, Op: op, Status: status, Message: msg}
		}
		a.waited += wait
		if err := a.sleep(ctx, wait); err != nil {
			return &Error{Op: op, Message: err.Error()}
		}
	}
}

func describe(status int, msg string) string {
	if status == 0 {
		return msg
	}
	return fmt.Sprintf("%d %s", status, msg)
}

// retryable: a server error or no response at all.
func retryable(status int) bool { return status == 0 || status >= 500 }

// classify reads a failed response: how long to wait before a retry
// (rate limits only), its kind, GitHub's message and the status.
func classify(resp *github.Response, err error, now time.Time) (time.Duration, Kind, string, int) {
	status := 0
	if resp != nil && resp.Response != nil {
		status = resp.StatusCode
	}
	var rl *github.RateLimitError
	if errors.As(err, &rl) {
		wait := rl.Rate.Reset.Sub(now) + time.Second
		if wait < time.Second {
			wait = time.Second
		}
		return wait, KindRateLimited, "primary rate limit: " + rl.Message, status
	}
	var ab *github.AbuseRateLimitError
	if errors.As(err, &ab) {
		wait := secondaryDefault
		if ab.RetryAfter != nil {
			wait = *ab.RetryAfter
		}
		return wait, KindRateLimited, "secondary rate limit: " + ab.Message, status
	}
	msg := err.Error()
	var er *github.ErrorResponse
	if errors.As(err, &er) {
		msg = er.Message
		for _, d := range er.Errors {
			switch {
			case d.Message != "":
				msg += "; " + d.Message
			case d.Code != "":
				msg += fmt.Sprintf("; %s %s", d.Field, d.Code)
			}
		}
	}
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return 0, KindForbidden, msg, status
	case http.StatusNotFound:
		return 0, KindNotFound, msg, status
	case http.StatusUnprocessableEntity:
		return 0, KindUnprocessable, msg, status
	case http.StatusTooManyRequests:
		wait := secondaryDefault
		if resp != nil {
			if d, ok := retryAfter(resp.Header.Get("Retry-After")); ok {
				wait = d
			}
		}
		return wait, KindRateLimited, "too many requests: " + msg, status
	}
	return 0, KindOther, msg, status
}

func retryAfter(v string) (time.Duration, bool) {
	var n int
	if _, err := fmt.Sscanf(v, "%d", &n); err != nil || n < 0 {
		return 0, false
	}
	return time.Duration(n) * time.Second, true
}

func (a *API) cap() int {
	if a.Cap == 0 {
		return DefaultCap
	}
	return a.Cap
}

func (a *API) maxWait() time.Duration {
	if a.MaxWait == 0 {
		return DefaultMaxWait
	}
	return a.MaxWait
}

func (a *API) interval() time.Duration {
	if a.WriteInterval == 0 {
		return DefaultWriteInterval
	}
	return a.WriteInterval
}

func (a *API) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

func (a *API) sleep(ctx context.Context, d time.Duration) error {
	if a.Sleep != nil {
		return a.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (a *API) logf(format string, args ...any) {
	if a.Log != nil {
		a.Log(fmt.Sprintf(format, args...))
	}
}
