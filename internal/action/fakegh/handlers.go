package fakegh

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

const htmlBase = "https://github.com/"

func (s *Server) pr(m []string) *PR {
	n, _ := strconv.Atoi(m[3])
	return s.prs[n]
}

func repoJSON(full string) map[string]any {
	return map[string]any{"full_name": full, "name": full[strings.Index(full, "/")+1:]}
}

func (s *Server) getPR(w http.ResponseWriter, r *http.Request, m []string, _ string) (int, string) {
	if st, note, ok := s.fault(w, r); ok {
		return st, note
	}
	pr := s.pr(m)
	if pr == nil {
		return errorJSON(w, http.StatusNotFound, "Not Found", nil), ""
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"number": pr.Number, "state": pr.State,
		"html_url": fmt.Sprintf("%s%s/%s/pull/%d", htmlBase, s.owner, s.name, pr.Number),
		"head":     map[string]any{"sha": pr.Head, "ref": pr.HeadRef, "repo": repoJSON(pr.HeadRepo)},
		"base":     map[string]any{"sha": pr.Base, "ref": pr.BaseRef, "repo": repoJSON(s.owner + "/" + s.name)},
	})
	return http.StatusOK, ""
}

func (s *Server) prJSON(pr *PR) map[string]any {
	return map[string]any{
		"number": pr.Number, "state": pr.State, "title": pr.Title, "body": pr.Body,
		"html_url": fmt.Sprintf("%s%s/%s/pull/%d", htmlBase, s.owner, s.name, pr.Number),
		"head":     map[string]any{"sha": pr.Head, "ref": pr.HeadRef, "label": s.owner + ":" + pr.HeadRef, "repo": repoJSON(pr.HeadRepo)},
		"base":     map[string]any{"sha": pr.Base, "ref": pr.BaseRef, "label": s.owner + ":" + pr.BaseRef, "repo": repoJSON(s.owner + "/" + s.name)},
	}
}

// branchExists: a branch of the repository, as far as the fake knows.
func (s *Server) branchExists(name string) bool {
	if s.branches != nil {
		return s.branches(name)
	}
	for _, p := range s.prs {
		if p.HeadRef == name || p.BaseRef == name {
			return true
		}
	}
	return false
}

// createPR is POST /repos/{owner}/{repo}/pulls: head and base are
// branches of this repository (head may be "owner:branch"), both must
// exist and differ, and an open pull request of the same branches makes
// GitHub answer 422 "A pull request already exists".
func (s *Server) createPR(w http.ResponseWriter, r *http.Request, m []string, token string) (int, string) {
	var req struct {
		Title               *string `json:"title"`
		Head                *string `json:"head"`
		HeadRepo            *string `json:"head_repo"`
		Base                *string `json:"base"`
		Body                *string `json:"body"`
		Issue               *int    `json:"issue"`
		MaintainerCanModify *bool   `json:"maintainer_can_modify"`
		Draft               *bool   `json:"draft"`
	}
	bad := func(format string, args ...any) (int, string) {
		s.violate("POST %s: "+format, append([]any{r.URL.Path}, args...)...)
		return errorJSON(w, http.StatusUnprocessableEntity, "Validation Failed", map[string]any{"errors": []string{fmt.Sprintf(format, args...)}}), "invalid"
	}
	if err := decode(r, &req); err != nil {
		return bad("%v", err)
	}
	switch {
	case req.Head == nil || *req.Head == "" || req.Base == nil || *req.Base == "":
		return bad("head and base are required")
	case (req.Title == nil || *req.Title == "") && req.Issue == nil:
		return bad("title is required")
	case req.Body != nil && len(*req.Body) > maxBody:
		return bad("body of %d characters is over %d", len(*req.Body), maxBody)
	}
	if st, note, ok := s.fault(w, r); ok {
		return st, note
	}
	if !s.tokens[token] {
		return errorJSON(w, http.StatusForbidden, "Resource not accessible by integration",
			map[string]any{"documentation_url": "https://docs.github.com/rest/pulls/pulls#create-a-pull-request"}), "read-only token"
	}
	head := *req.Head
	if owner, branch, ok := strings.Cut(head, ":"); ok {
		if owner != s.owner {
			return errorJSON(w, http.StatusUnprocessableEntity, "Validation Failed", map[string]any{"errors": []map[string]any{{"resource": "PullRequest", "field": "head", "code": "invalid"}}}), "head in another repository"
		}
		head = branch
	}
	invalid := func(field string) (int, string) {
		return errorJSON(w, http.StatusUnprocessableEntity, "Validation Failed", map[string]any{"errors": []map[string]any{{"resource": "PullRequest", "field": field, "code": "invalid"}}}), field + " invalid"
	}
	switch {
	case !s.branchExists(head):
		return invalid("head")
	case !s.branchExists(*req.Base):
		return invalid("base")
	case head == *req.Base:
		return errorJSON(w, http.StatusUnprocessableEntity, "Validation Failed", map[string]any{"errors": []map[string]any{{"resource": "PullRequest", "code": "custom", "message": "No commits between " + *req.Base + " and " + head}}}), "same branch"
	}
	for _, p := range s.prs {
		if p.State == "open" && p.HeadRef == head && p.BaseRef == *req.Base {
			return errorJSON(w, http.StatusUnprocessableEntity, "Validation Failed", map[string]any{"errors": []map[string]any{{"resource": "PullRequest", "code": "custom", "message": "A pull request already exists for " + s.owner + ":" + head + "."}}}), "exists"
		}
	}
	n := 1
	for k := range s.prs {
		n = max(n, k+1)
	}
	pr := &PR{Number: n, HeadRef: head, BaseRef: *req.Base, HeadRepo: s.owner + "/" + s.name, State: "open"}
	if req.Title != nil {
		pr.Title = *req.Title
	}
	if req.Body != nil {
		pr.Body = *req.Body
	}
	s.prs[n] = pr
	writeJSON(w, http.StatusCreated, s.prJSON(pr))
	return http.StatusCreated, fmt.Sprintf("#%d head=%s base=%s", n, head, *req.Base)
}

// listPRs is GET /repos/{owner}/{repo}/pulls (state, head as
// owner:branch, base).
func (s *Server) listPRs(w http.ResponseWriter, r *http.Request, m []string, _ string) (int, string) {
	if st, note, ok := s.fault(w, r); ok {
		return st, note
	}
	q := r.URL.Query()
	state := q.Get("state")
	if state == "" {
		state = "open"
	}
	if state != "open" && state != "closed" && state != "all" {
		s.violate("GET %s: state=%s", r.URL.Path, state)
	}
	head := q.Get("head")
	if head != "" && !strings.Contains(head, ":") {
		s.violate("GET %s: head=%s is not owner:branch", r.URL.Path, head)
	}
	var nums []int
	for n := range s.prs {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	var out []map[string]any
	for _, n := range nums {
		p := s.prs[n]
		if state != "all" && p.State != state {
			continue
		}
		if head != "" && head != s.owner+":"+p.HeadRef {
			continue
		}
		if b := q.Get("base"); b != "" && b != p.BaseRef {
			continue
		}
		out = append(out, s.prJSON(p))
	}
	writeJSON(w, http.StatusOK, nonNil(page(w, r, out)))
	return http.StatusOK, ""
}

// page cuts items per the per_page and page query and sets the Link
// header for the next page.
func page[T any](w http.ResponseWriter, r *http.Request, items []T) []T {
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if per <= 0 {
		per = 30
	}
	pg, _ := strconv.Atoi(r.URL.Query().Get("page"))
	if pg <= 0 {
		pg = 1
	}
	start := min((pg-1)*per, len(items))
	end := min(start+per, len(items))
	if end < len(items) {
		q := r.URL.Query()
		q.Set("page", strconv.Itoa(pg+1))
		w.Header().Set("Link", fmt.Sprintf(`<http://%s%s?%s>; rel="next"`, r.Host, r.URL.Path, q.Encode()))
	}
	return items[start:end]
}

func (s *Server) listFiles(w http.ResponseWriter, r *http.Request, m []string, _ string) (int, string) {
	if st, note, ok := s.fault(w, r); ok {
		return st, note
	}
	pr := s.pr(m)
	if pr == nil {
		return errorJSON(w, http.StatusNotFound, "Not Found", nil), ""
	}
	var out []map[string]any
	for _, f := range pr.files {
		out = append(out, map[string]any{"filename": f.name, "status": f.status, "patch": f.patch, "additions": 0, "deletions": 0, "changes": 0})
	}
	writeJSON(w, http.StatusOK, nonNil(page(w, r, out)))
	return http.StatusOK, ""
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

// commentJSON is a review comment as GitHub answers it. An outdated
// comment has no line and no position: the description types both as
// integers, not nullable, and requires neither, so they are left out
// (a client reads a missing field as it reads null).
func (s *Server) commentJSON(c *Comment, pr int) map[string]any {
	var rid any
	if c.ReviewID != 0 {
		rid = c.ReviewID
	}
	out := map[string]any{
		"id": c.ID, "node_id": fmt.Sprintf("PRRC_%d", c.ID), "pull_request_review_id": rid,
		"path": c.Path, "original_line": c.OrigLine, "original_position": c.OrigLine,
		"side": c.Side, "subject_type": "line",
		"commit_id": c.CommitID, "original_commit_id": c.CommitID, "body": c.Body, "diff_hunk": "@@",
		"user":     map[string]any{"login": c.User, "type": c.UserType},
		"html_url": fmt.Sprintf("%s%s/%s/pull/%d#discussion_r%d", htmlBase, s.owner, s.name, pr, c.ID),
	}
	if c.Line > 0 {
		out["line"], out["position"] = c.Line, c.Line
	}
	if c.StartLine > 0 {
		out["start_line"], out["start_side"] = c.StartLine, c.Side
	}
	return out
}

func (s *Server) listComments(w http.ResponseWriter, r *http.Request, m []string, _ string) (int, string) {
	if st, note, ok := s.fault(w, r); ok {
		return st, note
	}
	pr := s.pr(m)
	if pr == nil {
		return errorJSON(w, http.StatusNotFound, "Not Found", nil), ""
	}
	var out []map[string]any
	for _, c := range s.comments {
		out = append(out, s.commentJSON(c, pr.Number))
	}
	writeJSON(w, http.StatusOK, nonNil(page(w, r, out)))
	return http.StatusOK, ""
}

func (s *Server) reviewJSON(rv *Review, pr int) map[string]any {
	state := map[string]string{"COMMENT": "COMMENTED", "APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "": "PENDING"}[rv.Event]
	return map[string]any{
		"id": rv.ID, "node_id": fmt.Sprintf("PRR_%d", rv.ID), "body": rv.Body, "state": state, "commit_id": rv.CommitID,
		"user":     map[string]any{"login": rv.User, "type": rv.UserType},
		"html_url": fmt.Sprintf("%s%s/%s/pull/%d#pullrequestreview-%d", htmlBase, s.owner, s.name, pr, rv.ID),
	}
}

func (s *Server) listReviews(w http.ResponseWriter, r *http.Request, m []string, _ string) (int, string) {
	if st, note, ok := s.fault(w, r); ok {
		return st, note
	}
	pr := s.pr(m)
	if pr == nil {
		return errorJSON(w, http.StatusNotFound, "Not Found", nil), ""
	}
	var out []map[string]any
	for _, rv := range s.reviews {
		out = append(out, s.reviewJSON(rv, pr.Number))
	}
	writeJSON(w, http.StatusOK, nonNil(page(w, r, out)))
	return http.StatusOK, ""
}

// decode reads a JSON body strictly into v.
func decode(r *http.Request, v any) error {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("body %s: %v", data, err)
	}
	return nil
}

type reviewComment struct {
	Path      *string `json:"path"`
	Position  *int    `json:"position"`
	Body      *string `json:"body"`
	Line      *int    `json:"line"`
	Side      *string `json:"side"`
	StartLine *int    `json:"start_line"`
	StartSide *string `json:"start_side"`
}

type reviewRequest struct {
	CommitID *string         `json:"commit_id"`
	Body     *string         `json:"body"`
	Event    *string         `json:"event"`
	Comments []reviewComment `json:"comments"`
}

var shaRE = regexp.MustCompile(`^[0-9a-f]{40}$`)

const maxBody = 65536

// createReview is POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews.
func (s *Server) createReview(w http.ResponseWriter, r *http.Request, m []string, token string) (int, string) {
	var req reviewRequest
	bad := func(format string, args ...any) (int, string) {
		s.violate("POST %s: "+format, append([]any{r.URL.Path}, args...)...)
		return errorJSON(w, http.StatusUnprocessableEntity, "Unprocessable Entity", map[string]any{"errors": []string{fmt.Sprintf(format, args...)}}), "invalid"
	}
	if err := decode(r, &req); err != nil {
		return bad("%v", err)
	}
	if format, args := reviewProblem(&req); format != "" {
		return bad(format, args...)
	}
	pr := s.pr(m)
	if st, note, ok := s.fault(w, r); ok {
		return st, note
	}
	if pr == nil {
		return errorJSON(w, http.StatusNotFound, "Not Found", nil), ""
	}
	if !s.tokens[token] {
		return errorJSON(w, http.StatusForbidden, "Resource not accessible by integration",
			map[string]any{"documentation_url": "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request"}), "read-only token"
	}
	commit := pr.Head
	if req.CommitID != nil {
		if !contains(pr.heads, *req.CommitID) {
			return errorJSON(w, http.StatusUnprocessableEntity, "Unprocessable Entity", map[string]any{"errors": []string{"commit_id is not part of the pull request"}}), "unknown commit"
		}
		commit = *req.CommitID
	}
	for i, c := range req.Comments {
		if c.Position != nil {
			continue
		}
		side := sideOf(c)
		lines := []int{*c.Line}
		if c.StartLine != nil {
			lines = lines[:0]
			for l := *c.StartLine; l <= *c.Line; l++ {
				lines = append(lines, l)
			}
		}
		for _, l := range lines {
			if side != "RIGHT" || !pr.commentable(*c.Path, l, c.StartLine != nil) {
				s.violate("POST %s: comments[%d]: %s:%d (%s) is not on the right side of one hunk of the diff", r.URL.Path, i, *c.Path, l, side)
				return errorJSON(w, http.StatusUnprocessableEntity, "Unprocessable Entity", map[string]any{"errors": []string{"Line could not be resolved"}}), "line outside the diff"
			}
		}
	}
	s.nextID++
	rv := &Review{ID: s.nextID, CommitID: commit, User: Bot, UserType: "Bot"}
	if req.Body != nil {
		rv.Body = *req.Body
	}
	if req.Event != nil {
		rv.Event = *req.Event
	}
	for _, c := range req.Comments {
		s.nextID++
		cm := &Comment{ID: s.nextID, ReviewID: rv.ID, Path: *c.Path, Body: *c.Body, Side: "RIGHT", CommitID: commit, User: Bot, UserType: "Bot"}
		if c.Line != nil {
			cm.Line, cm.OrigLine = *c.Line, *c.Line
		}
		if c.StartLine != nil {
			cm.StartLine = *c.StartLine
		}
		s.comments = append(s.comments, cm)
		rv.Comments = append(rv.Comments, cm.ID)
	}
	s.reviews = append(s.reviews, rv)
	writeJSON(w, http.StatusOK, s.reviewJSON(rv, pr.Number))
	return http.StatusOK, fmt.Sprintf("event=%s comments=%d", rv.Event, len(req.Comments))
}

// problem is a request's first problem, as a format and its arguments.
func problem(format string, args ...any) (string, []any) { return format, args }

// reviewProblem is what makes a review request invalid, as GitHub would
// refuse it (an unknown event, a missing or oversized body, a commit id
// that is no commit, a comment whose position, lines and sides do not
// fit together), as a format and its arguments; "" when it is valid.
func reviewProblem(req *reviewRequest) (string, []any) {
	if req.Event != nil && !contains([]string{"APPROVE", "REQUEST_CHANGES", "COMMENT"}, *req.Event) {
		return problem("event %q", *req.Event)
	}
	if req.Event != nil && *req.Event != "APPROVE" && (req.Body == nil || *req.Body == "") {
		return problem("body is required with event %s", *req.Event)
	}
	if req.Body != nil && len(*req.Body) > maxBody {
		return problem("body of %d characters is over %d", len(*req.Body), maxBody)
	}
	if req.CommitID != nil && !shaRE.MatchString(*req.CommitID) {
		return problem("commit_id %q is not a commit", *req.CommitID)
	}
	for i, c := range req.Comments {
		switch {
		case c.Path == nil || *c.Path == "":
			return problem("comments[%d]: path is required", i)
		case c.Body == nil || *c.Body == "":
			return problem("comments[%d]: body is required", i)
		case len(*c.Body) > maxBody:
			return problem("comments[%d]: body over %d characters", i, maxBody)
		case c.Position != nil && (c.Line != nil || c.Side != nil || c.StartLine != nil || c.StartSide != nil):
			return problem("comments[%d]: position mixed with line/side", i)
		case c.Position == nil && c.Line == nil:
			return problem("comments[%d]: neither position nor line", i)
		case c.Line != nil && *c.Line < 1:
			return problem("comments[%d]: line %d", i, *c.Line)
		case c.Side != nil && *c.Side != "RIGHT" && *c.Side != "LEFT":
			return problem("comments[%d]: side %q", i, *c.Side)
		case c.StartSide != nil && c.StartLine == nil:
			return problem("comments[%d]: start_side without start_line", i)
		case c.StartLine != nil && (c.Line == nil || *c.StartLine >= *c.Line):
			return problem("comments[%d]: start_line must be below line", i)
		case c.StartSide != nil && *c.StartSide != "RIGHT" && *c.StartSide != "LEFT":
			return problem("comments[%d]: start_side %q", i, *c.StartSide)
		case c.StartSide != nil && *c.StartSide != sideOf(c):
			// GitHub takes a range from a deleted line to an added one;
			// the action's ranges are suggestions, whose lines are all
			// on the right side
			return problem("comments[%d]: start_side %s and side %s: a range on two sides", i, *c.StartSide, sideOf(c))
		}
	}
	return "", nil
}

// sideOf is a comment's side, RIGHT by default as GitHub has it.
func sideOf(c reviewComment) string {
	if c.Side != nil {
		return *c.Side
	}
	return "RIGHT"
}

// updateComment is PATCH /repos/{owner}/{repo}/pulls/comments/{comment_id}.
func (s *Server) updateComment(w http.ResponseWriter, r *http.Request, m []string, token string) (int, string) {
	var req struct {
		Body *string `json:"body"`
	}
	if err := decode(r, &req); err != nil || req.Body == nil || *req.Body == "" {
		s.violate("PATCH %s: the body must be {\"body\": non-empty} (%v)", r.URL.Path, err)
		return errorJSON(w, http.StatusUnprocessableEntity, "Unprocessable Entity", nil), "invalid"
	}
	if st, note, ok := s.fault(w, r); ok {
		return st, note
	}
	id, _ := strconv.ParseInt(m[3], 10, 64)
	var c *Comment
	for _, x := range s.comments {
		if x.ID == id {
			c = x
		}
	}
	if c == nil {
		return errorJSON(w, http.StatusNotFound, "Not Found", nil), ""
	}
	if !s.tokens[token] {
		return errorJSON(w, http.StatusForbidden, "Resource not accessible by integration", nil), "read-only token"
	}
	if c.User != Bot {
		s.violate("PATCH %s: edits %s's comment", r.URL.Path, c.User)
		return errorJSON(w, http.StatusForbidden, "Resource not accessible by integration", nil), "not the author"
	}
	c.Body = *req.Body
	c.Edits++
	writeJSON(w, http.StatusOK, s.commentJSON(c, 0))
	state := "edited"
	if m := regexp.MustCompile(`ripple:state=(\w+)`).FindStringSubmatch(c.Body); m != nil {
		state = m[1]
	}
	return http.StatusOK, "state=" + state
}

// commentable: line of path is on the right side of the diff (for a
// multi-line range, within one hunk: the caller checks each line).
func (p *PR) commentable(path string, line int, _ bool) bool {
	for _, f := range p.files {
		if f.name == path {
			return f.right[line]
		}
	}
	return false
}

var hunkRE = regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@`)

// parseDiff reads `git diff` output: per file its status, its patch (the
// hunks, as the REST API gives them) and its right-side lines.
func parseDiff(diff string) ([]file, error) {
	var files []file
	var cur *file
	var patch strings.Builder
	line, left := 0, 0
	flush := func() {
		if cur != nil {
			cur.patch = strings.TrimSuffix(patch.String(), "\n")
			files = append(files, *cur)
		}
		cur = nil
		patch.Reset()
	}
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "diff --git "):
			flush()
			cur = &file{status: "modified", right: map[int]bool{}}
			if i := strings.Index(l, " b/"); i >= 0 {
				cur.name = l[i+3:]
			}
			left = 0
		case cur == nil:
		case left == 0 && strings.HasPrefix(l, "new file mode"):
			cur.status = "added"
		case left == 0 && strings.HasPrefix(l, "deleted file mode"):
			cur.status = "removed"
		case left == 0 && strings.HasPrefix(l, "rename from"):
			cur.status = "renamed"
		case left == 0 && strings.HasPrefix(l, "+++ "):
			if n := strings.TrimPrefix(l, "+++ "); n != "/dev/null" {
				cur.name = strings.TrimPrefix(n, "b/")
			}
		case strings.HasPrefix(l, "@@"):
			hm := hunkRE.FindStringSubmatch(l)
			if hm == nil {
				return nil, fmt.Errorf("bad hunk header %q", l)
			}
			line, _ = strconv.Atoi(hm[1])
			left = 1 << 30 // inside hunks until the next file
			patch.WriteString(l + "\n")
		case left > 0 && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "+")):
			cur.right[line] = true
			line++
			patch.WriteString(l + "\n")
		case left > 0 && (strings.HasPrefix(l, "-") || strings.HasPrefix(l, `\`)):
			patch.WriteString(l + "\n")
		}
	}
	flush()
	return files, nil
}
