package fakegh

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Bot is the login of the workflow token's comments.
const Bot = "github-actions[bot]"

// Server is the fake API.
type Server struct {
	URL string // base URL for the client (with a trailing slash)
	srv *httptest.Server
	// contract validates every exchange against GitHub's REST
	// description; nil when the description could not be loaded (the
	// cause is the first violation).
	contract *contract

	mu         sync.Mutex
	owner      string
	name       string
	tokens     map[string]bool // token → may write
	prs        map[int]*PR
	comments   []*Comment
	reviews    []*Review
	faults     []*Fault
	log        []Entry
	violations []string
	nextID     int64
	// branches answers whether a branch exists in the repository (the
	// git remote the action pushes to); nil: only the pull requests'
	// head branches exist.
	branches func(name string) bool
}

// PR is a pull request.
type PR struct {
	Number   int
	Head     string
	Base     string
	HeadRepo string // owner/name of the head repository
	// HeadRef and BaseRef are the branches (default feature and main).
	HeadRef, BaseRef string
	State            string
	// Title and Body of a pull request the action opened.
	Title, Body string
	files       []file
	heads       []string // every head the pull request had
}

type file struct {
	name, status, patch string
	right               map[int]bool
}

// Comment is a review comment.
type Comment struct {
	ID        int64
	ReviewID  int64
	Path      string
	Line      int // 0: outdated
	OrigLine  int
	StartLine int
	Side      string
	CommitID  string
	Body      string
	User      string
	UserType  string
	Edits     int
}

// Review is a submitted review.
type Review struct {
	ID       int64
	Body     string
	Event    string
	CommitID string
	User     string
	UserType string
	Comments []int64
}

// Entry is one request as the server saw it.
type Entry struct {
	Method string
	Path   string // the URL's path, then its query sorted by name
	Status int
	Note   string
	// Body is the request's body as sent (JSON for every write).
	Body []byte
}

func (e Entry) String() string {
	s := fmt.Sprintf("%s %s %d", e.Method, e.Path, e.Status)
	if e.Note != "" {
		s += " " + e.Note
	}
	return s
}

// Fault makes matching requests fail.
type Fault struct {
	Method string
	Path   *regexp.Regexp
	Kind   string // secondary, secondary429, primary, 404, 422, 500
	Times  int
}

// New starts a fake of repository repo ("owner/name").
func New(repo string) *Server {
	owner, name, _ := strings.Cut(repo, "/")
	s := &Server{owner: owner, name: name, tokens: map[string]bool{}, prs: map[int]*PR{}, nextID: 1000}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/"
	c, err := newContract(s.srv.URL)
	if err != nil {
		s.violate("%v", err)
	}
	s.contract = c
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// SetToken declares a token; write says whether it may write.
func (s *Server) SetToken(token string, write bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[token] = write
}

// SetPR creates or replaces pull request pr with diff, the unified diff
// GitHub shows (git diff base...head). Comments on files the new diff
// changed since the previous head become outdated.
func (s *Server) SetPR(pr PR, diff string, changed []string) error {
	files, err := parseDiff(diff)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if pr.State == "" {
		pr.State = "open"
	}
	if pr.HeadRepo == "" {
		pr.HeadRepo = s.owner + "/" + s.name
	}
	if pr.HeadRef == "" {
		pr.HeadRef = "feature"
	}
	if pr.BaseRef == "" {
		pr.BaseRef = "main"
	}
	if old := s.prs[pr.Number]; old != nil {
		pr.heads = old.heads
		moved := map[string]bool{}
		for _, c := range changed {
			moved[c] = true
		}
		for _, c := range s.comments {
			if moved[c.Path] {
				c.Line = 0
			}
		}
	}
	pr.heads = append(pr.heads, pr.Head)
	pr.files = files
	s.prs[pr.Number] = &pr
	return nil
}

// AddFault makes the next times requests matching method and the path
// regexp fail with kind.
func (s *Server) AddFault(method, pathRE, kind string, times int) error {
	re, err := regexp.Compile(pathRE)
	if err != nil {
		return err
	}
	switch kind {
	case "secondary", "secondary429", "primary", "404", "422", "500":
	default:
		return fmt.Errorf("unknown fault %q", kind)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &Fault{Method: method, Path: re, Kind: kind, Times: times})
	return nil
}

// AddHumanComment plants a comment written by a person on line of path.
func (s *Server) AddHumanComment(pr int, path string, line int, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	head := ""
	if p := s.prs[pr]; p != nil {
		head = p.Head
	}
	s.comments = append(s.comments, &Comment{ID: s.nextID, Path: path, Line: line, OrigLine: line, Side: "RIGHT", CommitID: head, Body: body, User: "octocat", UserType: "User"})
}

// Log returns the requests seen so far.
func (s *Server) Log() []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Entry(nil), s.log...)
}

// Violations returns the requests that broke GitHub's rules.
func (s *Server) Violations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.violations...)
}

// Comments returns copies of the review comments, by id.
func (s *Server) Comments() []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Comment, len(s.comments))
	for i, c := range s.comments {
		out[i] = *c
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Reviews returns copies of the reviews, oldest first.
func (s *Server) Reviews() []Review {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Review, len(s.reviews))
	for i, r := range s.reviews {
		out[i] = *r
	}
	return out
}

// route is one documented endpoint.
type route struct {
	method string
	re     *regexp.Regexp
	query  []string // accepted query parameters
	handle func(s *Server, w http.ResponseWriter, r *http.Request, m []string, token string) (int, string)
}

var routes = []route{
	{"GET", regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls/(\d+)$`), nil, (*Server).getPR},
	{"GET", regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls/(\d+)/files$`), []string{"per_page", "page"}, (*Server).listFiles},
	{"GET", regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls/(\d+)/comments$`), []string{"per_page", "page", "sort", "direction", "since"}, (*Server).listComments},
	{"GET", regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls/(\d+)/reviews$`), []string{"per_page", "page"}, (*Server).listReviews},
	{"POST", regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls/(\d+)/reviews$`), nil, (*Server).createReview},
	{"PATCH", regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls/comments/(\d+)$`), nil, (*Server).updateComment},
	{"POST", regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls$`), nil, (*Server).createPR},
	{"GET", regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls$`), []string{"state", "head", "base", "sort", "direction", "per_page", "page"}, (*Server).listPRs},
}

// serve holds the request to GitHub's description before the fake's own
// rules see it (a request the description rejects is answered 404 or 422
// and recorded as a violation), then completes and checks the answer
// against the operation's response schema.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	reqBody, err := io.ReadAll(r.Body)
	if err != nil {
		s.violate("%s %s: reading the body: %v", r.Method, r.URL.Path, err)
	}
	r.Body = io.NopCloser(bytes.NewReader(reqBody))
	rec := &recorder{header: http.Header{}}
	var status int
	var note string
	var x *exchange
	if s.contract == nil {
		status, note = errorJSON(rec, http.StatusInternalServerError, "the fake has no description", nil), "no description"
	} else {
		var problems []string
		x, problems = s.contract.request(r)
		for _, p := range problems {
			s.violate("%s", p)
		}
		switch {
		case x == nil:
			status, note = errorJSON(rec, http.StatusNotFound, "Not Found", nil), "no such operation"
		case len(problems) > 0:
			status, note = errorJSON(rec, http.StatusUnprocessableEntity, "Validation Failed",
				map[string]any{"errors": problems}), "invalid by GitHub's description"
		default:
			status, note = s.dispatch(rec, r)
		}
	}
	body := rec.body.Bytes()
	if x != nil && rec.status != 0 {
		var problems []string
		body, problems = s.contract.response(x, rec.status, rec.header, body)
		for _, p := range problems {
			s.violate("the fake's %s", p)
		}
	}
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	w.WriteHeader(rec.status)
	_, _ = w.Write(body)
	s.log = append(s.log, Entry{Method: r.Method, Path: r.URL.Path + sortedQuery(r), Status: status, Note: note, Body: reqBody})
}

func sortedQuery(r *http.Request) string {
	q := r.URL.Query()
	if len(q) == 0 {
		return ""
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+"="+q.Get(k))
	}
	return "?" + strings.Join(parts, "&")
}

func (s *Server) violate(format string, args ...any) {
	s.violations = append(s.violations, fmt.Sprintf(format, args...))
}

func (s *Server) dispatch(w http.ResponseWriter, r *http.Request) (int, string) {
	var rt *route
	var m []string
	pathMatched := false
	for i := range routes {
		if mm := routes[i].re.FindStringSubmatch(r.URL.Path); mm != nil {
			pathMatched = true
			if routes[i].method == r.Method {
				rt, m = &routes[i], mm
				break
			}
		}
	}
	if rt == nil {
		s.violate("%s %s: no such endpoint in the fake (method allowed: %v)", r.Method, r.URL.Path, pathMatched)
		return errorJSON(w, http.StatusNotFound, "Not Found", nil), "unknown endpoint"
	}
	if m[1] != s.owner || m[2] != s.name {
		return errorJSON(w, http.StatusNotFound, "Not Found", nil), "other repository"
	}
	for k := range r.URL.Query() {
		if !contains(rt.query, k) {
			s.violate("%s %s: unknown query parameter %q", r.Method, r.URL.Path, k)
		}
	}
	if pp := r.URL.Query().Get("per_page"); pp != "" {
		if n, err := strconv.Atoi(pp); err != nil || n < 1 || n > 100 {
			s.violate("%s %s: per_page=%s is not 1..100", r.Method, r.URL.Path, pp)
		}
	}
	if v := r.Header.Get("X-GitHub-Api-Version"); v != "2022-11-28" {
		s.violate("%s %s: X-GitHub-Api-Version %q, want 2022-11-28", r.Method, r.URL.Path, v)
	}
	auth := r.Header.Get("Authorization")
	token, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok {
		token, ok = strings.CutPrefix(auth, "token ")
	}
	if !ok || token == "" {
		s.violate("%s %s: no token", r.Method, r.URL.Path)
		return errorJSON(w, http.StatusUnauthorized, "Requires authentication", nil), "no token"
	}
	if _, known := s.tokens[token]; !known {
		return errorJSON(w, http.StatusUnauthorized, "Bad credentials", nil), "bad credentials"
	}
	if r.Method != "GET" && !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		s.violate("%s %s: Content-Type %q, want application/json", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
	}
	return rt.handle(s, w, r, m, token)
}

// fault answers with an injected failure, if one matches.
func (s *Server) fault(w http.ResponseWriter, r *http.Request) (int, string, bool) {
	for _, f := range s.faults {
		if f.Times == 0 || f.Method != r.Method || !f.Path.MatchString(r.URL.Path) {
			continue
		}
		f.Times--
		switch f.Kind {
		case "secondary", "secondary429":
			w.Header().Set("Retry-After", "1")
			status := http.StatusForbidden
			if f.Kind == "secondary429" {
				status = http.StatusTooManyRequests
			}
			return errorJSON(w, status, "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
				map[string]any{"documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}), "fault " + f.Kind, true
		case "primary":
			w.Header().Set("X-RateLimit-Limit", "5000")
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(time.Second).Unix(), 10))
			return errorJSON(w, http.StatusForbidden, "API rate limit exceeded for installation ID 1.", nil), "fault primary", true
		case "404":
			return errorJSON(w, http.StatusNotFound, "Not Found", nil), "fault 404", true
		case "422":
			return errorJSON(w, http.StatusUnprocessableEntity, "Unprocessable Entity", map[string]any{"errors": []string{"Pull request review thread line must be part of the diff"}}), "fault 422", true
		default:
			return errorJSON(w, http.StatusInternalServerError, "Server Error", nil), "fault 500", true
		}
	}
	return 0, "", false
}

func errorJSON(w http.ResponseWriter, status int, msg string, extra map[string]any) int {
	body := map[string]any{"message": msg, "status": strconv.Itoa(status)}
	if _, ok := extra["documentation_url"]; !ok {
		body["documentation_url"] = "https://docs.github.com/rest"
	}
	for k, v := range extra {
		body[k] = v
	}
	writeJSON(w, status, body)
	return status
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Head returns pull request n's head, "" when there is none.
func (s *Server) Head(n int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.prs[n]; p != nil {
		return p.Head
	}
	return ""
}

// SetBranches makes exists the judge of which branches the repository
// has (a test points it at the git remote the action pushes to).
func (s *Server) SetBranches(exists func(name string) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.branches = exists
}

// PRs returns copies of the pull requests, by number.
func (s *Server) PRs() []PR {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []PR
	for _, p := range s.prs {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Number < out[j].Number })
	return out
}

// ResetLog forgets the requests seen so far.
func (s *Server) ResetLog() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = nil
}

// UnusedFaults lists the faults that did not fire as many times as
// asked: a test that injects a failure must see it happen.
func (s *Server) UnusedFaults() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, f := range s.faults {
		if f.Times > 0 {
			out = append(out, fmt.Sprintf("%s %s %s (%d left)", f.Method, f.Path, f.Kind, f.Times))
		}
	}
	return out
}
