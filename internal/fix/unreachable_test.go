package fix

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// counting is a transport that counts the requests it is given.
type counting struct {
	next http.RoundTripper
	n    atomic.Int32
}

func (c *counting) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.next.RoundTrip(r)
}

// closedPort returns the address of a local port nothing listens on: one
// listened on, then closed.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// modelAt is a model at url whose connections are counted.
func modelAt(t *testing.T, url string, client *http.Client) (Model, *counting) {
	t.Helper()
	if client == nil {
		client = &http.Client{}
	}
	c := &counting{next: transportOf(client)}
	m, err := NewOpenAI(ModelConfig{BaseURL: url, Model: "m", APIKey: "k", Timeout: 20 * time.Second,
		HTTPClient: &http.Client{Transport: c}})
	if err != nil {
		t.Fatal(err)
	}
	return m, c
}

// TestUnreachableNotRetried: a connection-level failure (refused, a
// scheme or certificate the endpoint does not speak) is one attempt, not
// five with backoff, and says what failed where.
func TestUnreachableNotRetried(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("a request reached the plain server: %s", r.URL)
	}))
	defer plain.Close()
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("a request got through an untrusted certificate: %s", r.URL)
	}))
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	refused := "http://" + closedPort(t) + "/v1"
	for _, tc := range []struct {
		name, url, cause string
	}{
		{"refused", refused, "refused"},
		{"https to http", "https://" + plain.Listener.Addr().String() + "/v1", "HTTP response to HTTPS client"},
		{"untrusted certificate", tlsSrv.URL + "/v1", "certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, c := modelAt(t, tc.url, nil)
			_, err := m.Complete(context.Background(), []Message{{Role: "user", Content: "hi"}})
			var down *UnreachableError
			if !errors.As(err, &down) {
				t.Fatalf("error %v (%T), want an UnreachableError", err, err)
			}
			if want := "model endpoint " + tc.url + " unreachable: "; !strings.HasPrefix(err.Error(), want) || !strings.Contains(down.Cause, tc.cause) {
				t.Errorf("error %q, want %q and a cause saying %q", err, want, tc.cause)
			}
			if n := c.n.Load(); n != 1 {
				t.Errorf("%d attempts, want 1", n)
			}
		})
	}
}

// TestDeadEndpoint: a model endpoint that refuses connections is asked
// once for the whole run, not again for every block and round; the
// mechanical fixes are still made, the run says once why the model was
// not used, and the blocks it should have edited stay unfixed.
func TestDeadEndpoint(t *testing.T) {
	repo, sc := setup(t, `
-- old/go.mod --
module example.com/m

go 1.22
-- old/num/num.go --
package num

func Scale(x int) int { return 2 * x }

func Old(a int) int { return a }
-- old/app/app.go --
package app

import "example.com/m/num"

func Use() int {
	return num.Scale(2)
}

func Two() int {
	return num.Scale(3)
}

func Renamed() int { return num.Old(1) }
-- new/num/num.go --
package num

func Scale(x float64) float64 { return 2 * x }

func New(a int) int { return a }
`)
	url := "http://" + closedPort(t) + "/v1"
	m, c := modelAt(t, url, nil)
	res := run(t, repo, sc, m)
	if n := c.n.Load(); n != 1 {
		t.Errorf("%d requests to a dead endpoint, want 1", n)
	}
	if want := "model endpoint " + url + " unreachable: "; !strings.HasPrefix(res.ModelUnreachable, want) || !strings.Contains(res.ModelUnreachable, "refused") {
		t.Errorf("ModelUnreachable %q, want %q...refused", res.ModelUnreachable, want)
	}
	if res.Mechanical != 1 || !strings.Contains(res.Patch, "+func Renamed() int { return num.New(1) }") {
		t.Errorf("mechanical %d, patch:\n%s", res.Mechanical, res.Patch)
	}
	if res.Proven || res.Rounds != 1 {
		t.Errorf("proven %v after %d rounds; want unproven after 1", res.Proven, res.Rounds)
	}
	failed := 0
	for _, o := range res.Obligations {
		if o.Status == Failed {
			failed++
			if o.Note != modelDown {
				t.Errorf("%s: note %q, want %q", o.Block, o.Note, modelDown)
			}
		}
	}
	if failed != 2 {
		logPlan(t, res)
		t.Errorf("%d failed obligations, want func Use and func Two", failed)
	}
	for _, n := range res.Notes {
		if strings.Contains(n, "unreachable") {
			t.Errorf("a note repeats the unreachable endpoint: %q", n)
		}
	}
}
