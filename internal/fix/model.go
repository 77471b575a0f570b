package fix

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Message is one chat message.
type Message struct {
	Role    string // "system" or "user"
	Content string
}

// Reply is a model's answer and what it cost.
type Reply struct {
	Text    string
	In, Out int // prompt and completion tokens
}

// Model completes a chat. The fix engine needs nothing else of it, so
// tests and the replay benchmark plug in servers of their own at the
// HTTP level (see NewOpenAI), never here.
type Model interface {
	Complete(ctx context.Context, msgs []Message) (Reply, error)
}

// ModelConfig selects an OpenAI-compatible endpoint: OpenAI, Azure
// OpenAI, Ollama, vLLM, llama.cpp's server.
type ModelConfig struct {
	BaseURL string        // e.g. https://api.openai.com/v1, http://localhost:11434/v1
	Model   string        // model, or the Azure deployment
	APIKey  string        // from the environment only, never from a file
	Timeout time.Duration // per request, retries included (default 60s)
	Retries int           // on 429 and 5xx (default 4)
	// Budget caps prompt+completion tokens over the whole run; 0 means no
	// cap. A request is not sent once the budget is spent.
	Budget int
	// HTTPClient overrides the transport (tests).
	HTTPClient *http.Client
}

// ModelFromEnv reads RIPPLE_LLM_BASE_URL, RIPPLE_LLM_MODEL and the key
// from RIPPLE_LLM_API_KEY, else OPENAI_API_KEY; ok is false when no base
// URL or model is set (the engine then fixes mechanically only).
func ModelFromEnv() (ModelConfig, bool) {
	c := ModelConfig{
		BaseURL: os.Getenv("RIPPLE_LLM_BASE_URL"),
		Model:   os.Getenv("RIPPLE_LLM_MODEL"),
		APIKey:  os.Getenv("RIPPLE_LLM_API_KEY"),
	}
	if c.APIKey == "" {
		c.APIKey = os.Getenv("OPENAI_API_KEY")
	}
	if c.BaseURL == "" && c.APIKey != "" && c.Model != "" {
		c.BaseURL = "https://api.openai.com/v1"
	}
	return c, c.BaseURL != "" && c.Model != ""
}

// openAI is a Model on go-openai.
type openAI struct {
	client *openai.Client
	cfg    ModelConfig
	mu     sync.Mutex
	spent  int
}

// ErrBudget is returned once the token budget is spent.
var ErrBudget = errors.New("token budget spent")

// UnreachableError is a model request that failed at the connection
// level: the endpoint refused the connection, its host name did not
// resolve, or the TLS handshake failed. Asking again cannot help, so the
// request is not retried and the engine stops asking the model for the
// rest of the run. A slow endpoint is not unreachable: its requests run
// out of time (ModelConfig.Timeout) instead.
type UnreachableError struct {
	URL   string // the base URL
	Cause string // "connection refused", "lookup ...: no such host", ...
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("model endpoint %s unreachable: %s", e.URL, e.Cause)
}

// unreachable says whether a request error is a connection-level
// failure, and its cause in a few words.
func unreachable(err error) (string, bool) {
	var dns *net.DNSError
	if errors.As(err, &dns) && !dns.IsTimeout {
		return dns.Error(), true
	}
	var op *net.OpError
	if errors.As(err, &op) && !op.Timeout() {
		switch op.Op {
		case "dial":
			var errno syscall.Errno
			if errors.As(op.Err, &errno) {
				return errno.Error(), true
			}
			return op.Err.Error(), true
		case "remote error": // a TLS alert from the server
			return op.Error(), true
		}
	}
	if errors.Is(err, http.ErrSchemeMismatch) { // https:// to a plain HTTP server
		return http.ErrSchemeMismatch.Error(), true
	}
	var verify *tls.CertificateVerificationError
	var header tls.RecordHeaderError
	var hostname x509.HostnameError
	var authority x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	if errors.As(err, &verify) || errors.As(err, &header) || errors.As(err, &hostname) ||
		errors.As(err, &authority) || errors.As(err, &invalid) {
		var ue *url.Error
		if errors.As(err, &ue) {
			return ue.Err.Error(), true
		}
		return err.Error(), true
	}
	return "", false
}

// NewOpenAI returns a Model for an OpenAI-compatible endpoint. Azure
// endpoints (*.openai.azure.com) use Azure's authentication and
// deployment paths.
func NewOpenAI(c ModelConfig) (Model, error) {
	if c.BaseURL == "" || c.Model == "" {
		return nil, errors.New("model: a base URL and a model are required (RIPPLE_LLM_BASE_URL, RIPPLE_LLM_MODEL)")
	}
	if c.Timeout <= 0 {
		c.Timeout = 60 * time.Second
	}
	if c.Retries <= 0 {
		c.Retries = 4
	}
	var oc openai.ClientConfig
	if strings.Contains(c.BaseURL, ".openai.azure.com") {
		oc = openai.DefaultAzureConfig(c.APIKey, c.BaseURL)
	} else {
		oc = openai.DefaultConfig(c.APIKey)
		oc.BaseURL = strings.TrimSuffix(c.BaseURL, "/")
	}
	base := c.HTTPClient
	if base == nil {
		base = &http.Client{}
	}
	oc.HTTPClient = &http.Client{Transport: &retrying{next: transportOf(base), retries: c.Retries}}
	return &openAI{client: openai.NewClientWithConfig(oc), cfg: c}, nil
}

func transportOf(c *http.Client) http.RoundTripper {
	if c.Transport != nil {
		return c.Transport
	}
	return http.DefaultTransport
}

func (m *openAI) Complete(ctx context.Context, msgs []Message) (Reply, error) {
	m.mu.Lock()
	if m.cfg.Budget > 0 && m.spent >= m.cfg.Budget {
		m.mu.Unlock()
		return Reply{}, ErrBudget
	}
	m.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, m.cfg.Timeout)
	defer cancel()
	req := openai.ChatCompletionRequest{Model: m.cfg.Model, Temperature: 0}
	for _, msg := range msgs {
		req.Messages = append(req.Messages, openai.ChatCompletionMessage{Role: msg.Role, Content: msg.Content})
	}
	resp, err := m.client.CreateChatCompletion(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return Reply{}, fmt.Errorf("model %s at %s: no answer within %v", m.cfg.Model, m.cfg.BaseURL, m.cfg.Timeout)
		}
		if cause, ok := unreachable(err); ok {
			return Reply{}, &UnreachableError{URL: m.cfg.BaseURL, Cause: cause}
		}
		return Reply{}, fmt.Errorf("model %s at %s: %w", m.cfg.Model, m.cfg.BaseURL, err)
	}
	if len(resp.Choices) == 0 {
		return Reply{}, fmt.Errorf("model %s: an answer without choices", m.cfg.Model)
	}
	r := Reply{Text: resp.Choices[0].Message.Content, In: resp.Usage.PromptTokens, Out: resp.Usage.CompletionTokens}
	m.mu.Lock()
	m.spent += r.In + r.Out
	m.mu.Unlock()
	return r, nil
}

// retrying retries requests answered 429 or 5xx, and connection errors
// but those that say the endpoint is unreachable (see
// UnreachableError), with exponential backoff and jitter, honouring
// Retry-After, within the request's context (go-openai has no retries
// of its own).
type retrying struct {
	next    http.RoundTripper
	retries int
	// sleep is time.Sleep's stand-in for tests.
	sleep func(ctx context.Context, d time.Duration) error
}

func (t *retrying) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	sleep := t.sleep
	if sleep == nil {
		sleep = sleepCtx
	}
	for attempt := 0; ; attempt++ {
		r := req.Clone(req.Context())
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		resp, err := t.next.RoundTrip(r)
		retry := err != nil && req.Context().Err() == nil ||
			err == nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500)
		if _, down := unreachable(err); err != nil && down {
			retry = false
		}
		if !retry || attempt >= t.retries {
			return resp, err
		}
		wait := time.Duration(500*(1<<attempt))*time.Millisecond + time.Duration(rand.IntN(250))*time.Millisecond
		if resp != nil {
			if s, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil && s >= 0 {
				wait = time.Duration(s) * time.Second
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		if err := sleep(req.Context(), wait); err != nil {
			return nil, err
		}
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
