package ghapi

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v92/github"
)

// server answers each request with the next status of statuses (the last
// one repeats) and records what it saw.
func server(t *testing.T, statuses ...int) (*API, *[]string, *[]time.Duration) {
	var seen []string
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		st := statuses[min(n, len(statuses)-1)]
		n++
		w.Header().Set("Content-Type", "application/json")
		switch st {
		case 429:
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(st)
			_, _ = w.Write([]byte(`{"message":"slow down"}`))
		case 403:
			w.WriteHeader(st)
			_, _ = w.Write([]byte(`{"message":"Resource not accessible by integration"}`))
		case 200:
			_, _ = w.Write([]byte(`[]`))
		default:
			w.WriteHeader(st)
			_, _ = w.Write([]byte(`{"message":"boom","errors":[{"resource":"PullRequestReview","field":"line","code":"invalid"}]}`))
		}
	}))
	t.Cleanup(srv.Close)
	api, err := New(srv.URL, "s3cret", "octo/demo")
	if err != nil {
		t.Fatal(err)
	}
	var slept []time.Duration
	api.Sleep = func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }
	api.WriteInterval = -1
	return api, &seen, &slept
}

func list(api *API) error {
	return api.Call(context.Background(), "list reviews", false, func(ctx context.Context) (*github.Response, error) {
		_, resp, err := api.GH.PullRequests.ListReviews(ctx, api.Owner, api.Repo, 1, nil)
		return resp, err
	})
}

func TestCall(t *testing.T) {
	t.Run("429 waits Retry-After", func(t *testing.T) {
		api, seen, slept := server(t, 429, 200)
		if err := list(api); err != nil {
			t.Fatal(err)
		}
		if len(*seen) != 2 || len(*slept) != 1 || (*slept)[0] != 7*time.Second {
			t.Fatalf("requests %v, waits %v", *seen, *slept)
		}
		if !strings.HasSuffix((*seen)[0], "Bearer s3cret") {
			t.Errorf("no bearer token: %s", (*seen)[0])
		}
	})
	t.Run("waits stop at MaxWait", func(t *testing.T) {
		api, seen, _ := server(t, 429)
		api.MaxWait = 20 * time.Second
		err := list(api)
		if KindOf(err) != KindRateLimited || len(*seen) != 3 {
			t.Fatalf("err %v after %d requests; want rate limited after 3 (two waits of 7s fit in 20s)", err, len(*seen))
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Error("the token leaked into an error")
		}
	})
	t.Run("403 is not retried", func(t *testing.T) {
		api, seen, _ := server(t, 403)
		err := list(api)
		if KindOf(err) != KindForbidden || len(*seen) != 1 || !strings.Contains(err.Error(), "403 Resource not accessible by integration") {
			t.Fatalf("err %v after %d requests", err, len(*seen))
		}
	})
	t.Run("5xx is retried with backoff", func(t *testing.T) {
		api, seen, slept := server(t, 502, 500, 200)
		if err := list(api); err != nil {
			t.Fatal(err)
		}
		if len(*seen) != 3 || len(*slept) != 2 || (*slept)[0] != time.Second || (*slept)[1] != 2*time.Second {
			t.Fatalf("requests %d, waits %v", len(*seen), *slept)
		}
	})
	t.Run("422 details", func(t *testing.T) {
		api, _, _ := server(t, 422)
		err := list(api)
		if KindOf(err) != KindUnprocessable || !strings.Contains(err.Error(), "boom; line invalid") {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("the cap counts retries", func(t *testing.T) {
		api, seen, _ := server(t, 500)
		api.Cap = 2
		err := list(api)
		if KindOf(err) != KindCapReached || len(*seen) != 2 {
			t.Fatalf("err %v after %d requests", err, len(*seen))
		}
	})
	t.Run("writes are spaced", func(t *testing.T) {
		api, _, slept := server(t, 200)
		api.WriteInterval = time.Second
		clock := time.Unix(0, 0)
		api.Now = func() time.Time { return clock }
		for range 2 {
			_ = api.Call(context.Background(), "w", true, func(ctx context.Context) (*github.Response, error) { return nil, nil })
		}
		if len(*slept) != 1 || (*slept)[0] != time.Second {
			t.Fatalf("waits %v, want one second between two writes", *slept)
		}
	})
}

func TestNew(t *testing.T) {
	if _, err := New("", "", "octo/demo"); err == nil || !strings.Contains(err.Error(), "no token") {
		t.Errorf("no token: %v", err)
	}
	if _, err := New("", "t", "octo"); err == nil {
		t.Error("a repository without owner must fail")
	}
}
