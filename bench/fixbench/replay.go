package main

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang/golang"
)

// replay is an OpenAI-compatible chat server that answers a request for
// a block with that block's text in the real commit: it measures how far
// the planner reaches and whether the merge works, on real history,
// without a real model. A block the commit does not have (renamed or
// removed there) is answered unchanged.
type replay struct {
	tree gitio.Tree
	mu   sync.Mutex
	hits map[string]int // block -> answered from the commit (1) or unchanged (0)
}

var (
	blockLineRE = regexp.MustCompile(`ripple-block: path=(\S+) block="([^"]+)"`)
	blockTextRE = regexp.MustCompile("(?s)The block \\([^)]*\\):\n```\n(.*?)```")
)

func (s *replay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Content string `json:"content"`
		} `json:"messages"`
	}
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) == 0 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	prompt := req.Messages[len(req.Messages)-1].Content
	answer := ""
	if m := blockLineRE.FindStringSubmatch(prompt); m != nil {
		answer = s.blockAt(r.Context(), m[1], m[2])
	}
	if answer == "" {
		if m := blockTextRE.FindStringSubmatch(prompt); m != nil {
			answer = m[1] // not in the commit: keep the block
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "replay", "object": "chat.completion", "model": req.Model,
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": "```go\n" + answer + "```\n"}}},
		"usage": map[string]any{"prompt_tokens": len(prompt) / 4, "completion_tokens": len(answer) / 4, "total_tokens": (len(prompt) + len(answer)) / 4},
	})
}

// blockAt returns the text of the declaration named block in path at the
// commit, or "".
func (s *replay) blockAt(ctx context.Context, path, block string) string {
	src, err := s.tree.ReadFile(ctx, path)
	if err != nil {
		return ""
	}
	decls, _ := golang.New().Decls(path, src)
	lines := strings.SplitAfter(string(src), "\n")
	for _, d := range decls {
		if d.Display != block || d.Span.EndLine > len(lines) {
			continue
		}
		s.mu.Lock()
		s.hits[block]++
		s.mu.Unlock()
		return strings.Join(lines[d.Span.StartLine-1:d.Span.EndLine], "")
	}
	return ""
}
