package fakegh

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// The fake itself must refuse what GitHub refuses: these requests are
// made by hand, as a broken client would. Violations of GitHub's REST
// description name the operation and the field; the rules beyond it
// (lines in the diff, position or line) are the fake's own.
func TestViolations(t *testing.T) {
	s := New("octo/demo")
	defer s.Close()
	s.SetToken("tok", true)
	if err := s.SetPR(PR{Number: 1, Head: strings.Repeat("a", 40), Base: strings.Repeat("b", 40)},
		"diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1,2 +1,3 @@\n a\n+b\n c\n", nil); err != nil {
		t.Fatal(err)
	}
	do := func(method, path, body string) int {
		req, _ := http.NewRequest(method, s.URL+strings.TrimPrefix(path, "/"), strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer tok")
		req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	cases := []struct {
		method, path, body string
		status             int
		violation          string
	}{
		{"POST", "/repos/octo/demo/pulls/1/reviews", `{"event":"COMMENT","body":"b","comments":[{"path":"x.go","body":"c","line":2,"side":"RIGHT"}]}`, 200, ""},
		{"POST", "/repos/octo/demo/pulls/1/reviews", `{"event":"COMMENT","body":"b","comments":[{"path":"x.go","body":"c","position":1,"line":2}]}`, 422, "position mixed with line"},
		{"POST", "/repos/octo/demo/pulls/1/reviews", `{"event":"COMMENT","body":"b","comments":[{"path":"x.go","body":"c","line":9,"side":"RIGHT"}]}`, 422, "x.go:9 (RIGHT) is not on the right side"},
		{"POST", "/repos/octo/demo/pulls/1/reviews", `{"event":"COMMENT","body":"b","comments":[{"path":"x.go","body":"c","start_line":3,"line":2}]}`, 422, "start_line must be below line"},
		{"POST", "/repos/octo/demo/pulls/1/reviews", `{"event":"COMMENT","body":"b","comments":[{"path":"x.go","body":"c","start_line":1,"start_side":"LEFT","line":2,"side":"RIGHT"}]}`, 422, "a range on two sides"},
		{"POST", "/repos/octo/demo/pulls/1/reviews", `{"event":"COMMENT","body":"b","comments":[{"path":"x.go","body":"c","start_line":1,"start_side":"RIGHT","line":3,"side":"RIGHT"}]}`, 200, ""},
		{"POST", "/repos/octo/demo/pulls/1/reviews", `{"event":"COMMENT","body":"b","extra":1}`, 422, `(operation pulls/create-review): request body property "extra" is unsupported`},
		{"POST", "/repos/octo/demo/pulls/1/reviews", `{"event":"COMMENT","body":"b","comments":[{"path":"x.go","body":"c","line":"2"}]}`, 422, `(operation pulls/create-review): request body field comments/0/line: value must be an integer`},
		{"POST", "/repos/octo/demo/pulls/1/reviews", `{"event":"comment","body":"b"}`, 422, `(operation pulls/create-review): request body field event: value is not one of the allowed values`},
		{"POST", "/repos/octo/demo/pulls/1/reviews", `{"event":"COMMENT","body":"b","comments":[{"body":"c","line":2}]}`, 422, `request body field comments/0/path: property "path" is missing`},
		{"GET", "/repos/octo/demo/pulls/1/files?per_page=many", ``, 422, `(operation pulls/list-files): query parameter "per_page"`},
		{"GET", "/repos/octo/demo/pulls/1/files?limit=5", ``, 422, `(operation pulls/list-files): query parameter "limit": not a parameter of the operation`},
		{"GET", "/repos/octo/demo/pulls/x/files", ``, 422, `(operation pulls/list-files): path parameter "pull_number"`},
		{"POST", "/repos/octo/demo/pulls/1/reviews", `{"event":"COMMENT"}`, 422, "body is required"},
		{"PUT", "/repos/octo/demo/pulls/1/reviews", `{}`, 404, "PUT /repos/octo/demo/pulls/1/reviews: no operation of GitHub's REST description"},
		{"GET", "/repos/octo/demo/issues/1", ``, 404, "GET /repos/octo/demo/issues/1: no operation of GitHub's REST description"},
		{"GET", "/repos/octo/demo/pulls/1/comments?per_page=500", ``, 200, "per_page=500"},
		{"PATCH", "/repos/octo/demo/pulls/comments/1002", `{"bdy":"x"}`, 422, `(operation pulls/update-review-comment): request body property "bdy" is unsupported`},
	}
	for _, c := range cases {
		before := len(s.Violations())
		if got := do(c.method, c.path, c.body); got != c.status {
			t.Errorf("%s %s %s: status %d, want %d", c.method, c.path, c.body, got, c.status)
		}
		v := s.Violations()[before:]
		switch {
		case c.violation == "" && len(v) > 0:
			t.Errorf("%s %s: unexpected violation %v", c.method, c.path, v)
		case c.violation != "" && !slices.ContainsFunc(v, func(s string) bool { return strings.Contains(s, c.violation) }):
			t.Errorf("%s %s %s: violations %q, want one saying %q", c.method, c.path, c.body, v, c.violation)
		}
	}
}
