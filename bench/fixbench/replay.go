package main

import (
	"context"
	"encoding/json"
	"go/parser"
	"go/token"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/golang"
)

// replay is an OpenAI-compatible chat server that answers a request for
// a block with that block's text in the real commit: it measures how far
// the planner reaches and whether the merge works, on real history,
// without a real model. A block the commit does not have (renamed or
// removed there) is answered unchanged.
type replay struct {
	tree gitio.Tree
	// head is the state being fixed: a type's block is answered with the
	// methods of the type the commit has and head lacks, as a model
	// would add them (a type that must gain an interface's new method)
	head gitio.Tree
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
		text := strings.Join(lines[d.Span.StartLine-1:d.Span.EndLine], "")
		if tname, ok := strings.CutPrefix(block, "type "); ok {
			text += s.newMethods(ctx, path, decls, lines, tname)
		}
		return importsUsed(src, text) + text
	}
	return ""
}

// newMethods is the source of the methods of type tname in the commit's
// file path that no file of its package declares in the head state.
func (s *replay) newMethods(ctx context.Context, file string, decls []*lang.Decl, lines []string, tname string) string {
	if s.head == nil {
		return ""
	}
	dir := path.Dir(file)
	have := map[string]bool{}
	files, _ := s.head.List(ctx, "*.go")
	for _, f := range files {
		if path.Dir(f) != dir {
			continue
		}
		src, err := s.head.ReadFile(ctx, f)
		if err != nil {
			continue
		}
		ds, _ := golang.New().Decls(f, src)
		for _, d := range ds {
			have[strings.Replace(d.Display, "(*", "(", 1)] = true
		}
	}
	var out strings.Builder
	for _, d := range decls {
		if !strings.HasPrefix(d.Display, "func ("+tname+").") && !strings.HasPrefix(d.Display, "func (*"+tname+").") {
			continue
		}
		if have[strings.Replace(d.Display, "(*", "(", 1)] || d.Span.EndLine > len(lines) {
			continue
		}
		out.WriteString("\n" + strings.Join(lines[d.Span.StartLine-1:d.Span.EndLine], ""))
	}
	return out.String()
}

// importsUsed is an import declaration of the file's imports that the
// block names (name.X), as a model would add for a block it rewrote.
func importsUsed(src []byte, block string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly)
	if err != nil {
		return ""
	}
	var specs []string
	for _, is := range f.Imports {
		p, _ := strconv.Unquote(is.Path.Value)
		name := path.Base(p)
		if is.Name != nil {
			name = is.Name.Name
		} else if len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
			name = path.Base(path.Dir(p)) // a major-version suffix
		}
		name = strings.TrimPrefix(strings.TrimSuffix(name, "-go"), "go-")
		if name == "_" || name == "." || !strings.Contains(block, name+".") {
			continue
		}
		spec := is.Path.Value
		if is.Name != nil {
			spec = is.Name.Name + " " + spec
		}
		specs = append(specs, spec)
	}
	if len(specs) == 0 {
		return ""
	}
	return "import (\n\t" + strings.Join(specs, "\n\t") + "\n)\n\n"
}
