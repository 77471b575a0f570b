package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdLLM is the scripts' `llm ANSWERS` command: it starts an
// OpenAI-compatible chat completions server in the test process for the
// rest of the script, points RIPPLE_LLM_BASE_URL and RIPPLE_LLM_MODEL at
// it, and answers each block a prompt names (its `ripple-block:` lines)
// with the script's answer for it. ANSWERS holds the answers, each
// opened by a line `=== BLOCK` (the block's name as the prompt gives
// it) and followed by the block's new text; a block without an answer
// is refused in words ("I cannot help with ..."), as a model may. A
// prompt naming several blocks (a file's review blocks) is answered in
// the batch form of the fix engine's protocol: per block, a line
// `### BLOCK` and its fenced text. Every request appends one line to
// $WORK/llm.log: `request: PATH BLOCK` for each block it named, joined
// by " | "; a request that breaks the chat completions contract fails
// the script.
func cmdLLM(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: llm ANSWERS")
	}
	answers := parseAnswers(ts.ReadFile(args[0]))
	logPath := filepath.Join(ts.Getenv("WORK"), "llm.log")
	var mu sync.Mutex
	var violations []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			violations = append(violations, r.Method+" "+r.URL.Path+": not the chat completions endpoint")
			http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
			return
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" || len(req.Messages) != 2 ||
			req.Messages[0].Role != "system" || req.Messages[1].Role != "user" {
			violations = append(violations, fmt.Sprintf("malformed chat request (%v)", err))
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		prompt := req.Messages[1].Content
		blocks := llmBlockRE.FindAllStringSubmatch(prompt, -1)
		if len(blocks) == 0 {
			violations = append(violations, "a prompt without a ripple-block line")
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		var named []string
		var text strings.Builder
		for _, b := range blocks {
			if u, err := strconv.Unquote(b[2]); err == nil {
				b[2] = u
			}
			named = append(named, b[1]+" "+b[2])
			code, ok := answers[b[2]]
			switch {
			case len(blocks) > 1:
				fmt.Fprintf(&text, "### %s\n", b[2])
				if !ok {
					text.WriteString("unchanged\n\n")
					continue
				}
				fallthrough
			case ok:
				text.WriteString("```\n" + code + "```\n\n")
			default:
				text.WriteString("I cannot help with " + b[2] + ".")
			}
		}
		f, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "request: %s\n", strings.Join(named, " | "))
			f.Close()
		}
		out := text.String()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-llm", "object": "chat.completion", "created": 0, "model": req.Model,
			"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": out}}},
			"usage":   map[string]any{"prompt_tokens": len(prompt) / 4, "completion_tokens": len(out) / 4, "total_tokens": (len(prompt) + len(out)) / 4},
		})
	}))
	ts.Defer(func() {
		srv.Close()
		mu.Lock()
		defer mu.Unlock()
		if len(violations) > 0 {
			ts.Fatalf("the scripted model saw requests outside the contract: %s", strings.Join(violations, "; "))
		}
	})
	ts.Setenv("RIPPLE_LLM_BASE_URL", srv.URL+"/v1")
	ts.Setenv("RIPPLE_LLM_MODEL", "scripted")
	ts.Setenv("RIPPLE_LLM_API_KEY", "none")
}

var llmBlockRE = regexp.MustCompile(`(?m)^ripple-block: path=(\S+) block=("(?:[^"\\]|\\.)*")`)

// parseAnswers reads `=== BLOCK` sections.
func parseAnswers(s string) map[string]string {
	out := map[string]string{}
	name := ""
	for _, l := range strings.SplitAfter(s, "\n") {
		if n, ok := strings.CutPrefix(l, "=== "); ok {
			name = strings.TrimSpace(n)
			out[name] = ""
			continue
		}
		if name != "" {
			out[name] += l
		}
	}
	return out
}
