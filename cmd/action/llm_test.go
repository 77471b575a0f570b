package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// scriptedModel is an OpenAI-compatible chat server for the scripts, the
// protocol of internal/fix's tests: the prompt's "ripple-block:" line
// names the block asked for, and the script says what to answer for it.
type scriptedModel struct {
	srv *httptest.Server

	mu         sync.Mutex
	replies    map[string]string // block -> answer
	calls      []string
	violations []string
}

type llmKey struct{}

var blockRE = regexp.MustCompile(`ripple-block: path=(\S+) block="([^"]+)"`)

func newScriptedModel() *scriptedModel {
	m := &scriptedModel{replies: map[string]string{}}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	return m
}

func (m *scriptedModel) URL() string { return m.srv.URL }
func (m *scriptedModel) Close()      { m.srv.Close() }

func (m *scriptedModel) Violations() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.violations...)
}

func (m *scriptedModel) serve(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		m.violations = append(m.violations, fmt.Sprintf("%s %s: not the chat completions endpoint", r.Method, r.URL.Path))
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" || len(req.Messages) != 2 || req.Messages[0].Role != "system" || req.Messages[1].Role != "user" {
		m.violations = append(m.violations, fmt.Sprintf("malformed chat request (%v)", err))
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	prompt := req.Messages[1].Content
	b := blockRE.FindStringSubmatch(prompt)
	if b == nil {
		m.violations = append(m.violations, "a prompt without a ripple-block line")
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	auth := r.Header.Get("Authorization")
	m.calls = append(m.calls, fmt.Sprintf("%s %s model=%s auth=%q", b[1], b[2], req.Model, auth))
	text, ok := m.replies[b[2]]
	if !ok {
		text = "I cannot help with " + b[2] + "."
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-script", "object": "chat.completion", "model": req.Model,
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": text}}},
		"usage":   map[string]any{"prompt_tokens": len(prompt) / 4, "completion_tokens": len(text) / 4, "total_tokens": (len(prompt) + len(text)) / 4},
	})
}

func cmdLLM(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: llm reply BLOCK FILE | llm calls")
	}
	m := ts.Value(llmKey{}).(*scriptedModel)
	switch args[0] {
	case "reply":
		if len(args) != 3 {
			ts.Fatalf("usage: llm reply BLOCK FILE")
		}
		text := ts.ReadFile(args[2])
		m.mu.Lock()
		m.replies[args[1]] = text
		m.mu.Unlock()
	case "calls":
		m.mu.Lock()
		for _, c := range m.calls {
			fmt.Fprintln(ts.Stdout(), c)
		}
		m.mu.Unlock()
	default:
		ts.Fatalf("llm: unknown subcommand %q", args[0])
	}
}
