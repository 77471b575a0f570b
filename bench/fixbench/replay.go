package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/ripple-dev/ripple/internal/fix"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// replay is an OpenAI-compatible chat server that answers a request for
// a block with that block's text in the real commit: it measures how far
// the planner reaches and whether the merge works, on real history,
// without a real model. It reads every language through the front-ends
// (lang.Frontend's Decls finds the block by its display name,
// lang.Quoter writes the reply with the imports it names), so it replays
// Go, Python and TypeScript alike.
//
// A block the commit left as the prompt shows it is answered unchanged:
// "no change needed", as a model that agrees would answer. So is a block
// the commit does not have (renamed or removed there).
type replay struct {
	fes  lang.Set
	tree gitio.Tree // the real commit
	// head is the state being fixed: a Go type's block is answered with
	// the methods of the type the commit has and head lacks, as a model
	// would add them (a type that must gain an interface's new method)
	head gitio.Tree

	mu       sync.Mutex
	answers  map[string]answer // by path|block, the last answer
	counts   map[answer]int    // every answer, by kind
	requests int               // chat requests served
}

// answer is how the replay answered one request.
type answer string

const (
	fromCommit answer = "commit"    // the block's text in the commit, which differs from the prompt's
	noChange   answer = "no change" // the commit's text is the prompt's: the block unchanged
	absent     answer = "absent"    // the commit has no such block, and the state being fixed none either: unchanged
	deleted    answer = "deleted"   // the commit lacks the block: ripple: delete
	renamed    answer = "renamed"   // the commit has the block's body under another name: ripple: rename
	declared   answer = "declared"  // a name to declare: the commit's declaration
	undeclared answer = "undeclared"
)

func newReplay(fes lang.Set, tree, head gitio.Tree) *replay {
	return &replay{fes: fes, tree: tree, head: head, answers: map[string]answer{}, counts: map[answer]int{}}
}

var (
	blockLineRE = regexp.MustCompile(`(?m)^ripple-block: path=(\S+) block=("(?:[^"\\]|\\.)*")`)
	// the block closes the prompt (prompt.go): greedy up to the last
	// fence, so that a block holding a fence of its own is read whole
	blockTextRE = regexp.MustCompile("(?s)\nThe block \\([^)]*\\):\n```\n(.*)```\n\nReply with the complete new text")
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
	s.mu.Lock()
	s.requests++
	s.mu.Unlock()
	text, lang := "", ""
	var how answer
	if ms := blockLineRE.FindAllStringSubmatch(prompt, -1); len(ms) > 1 {
		text = s.batch(r, prompt, ms)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "replay", "object": "chat.completion", "model": req.Model,
			"choices": []map[string]any{{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": text}}},
			"usage": map[string]any{"prompt_tokens": len(prompt) / 4, "completion_tokens": len(text) / 4, "total_tokens": (len(prompt) + len(text)) / 4},
		})
		return
	}
	if m := blockLineRE.FindStringSubmatch(prompt); m != nil {
		if u, err := strconv.Unquote(m[2]); err == nil {
			m[2] = u
		}
		if fe := s.frontendFor(m[1]); fe != nil {
			lang = fe.Name()
		}
		if name, ok := strings.CutPrefix(m[2], "new "); ok {
			text, how = s.declAt(r.Context(), m[1], name)
		} else {
			shown := ""
			if b := blockTextRE.FindStringSubmatch(prompt); b != nil {
				shown = b[1]
			}
			text, how = s.blockAt(r.Context(), m[1], m[2], shown)
		}
		s.mu.Lock()
		s.answers[m[1]+"|"+m[2]] = how
		s.counts[how]++
		s.mu.Unlock()
	}
	content := replyFor(text, how, lang)
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "replay", "object": "chat.completion", "model": req.Model,
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}},
		"usage": map[string]any{"prompt_tokens": len(prompt) / 4, "completion_tokens": len(text) / 4, "total_tokens": (len(prompt) + len(text)) / 4},
	})
}

func (s *replay) frontendFor(p string) lang.Frontend { return s.fes.For(p) }

// sectionBlockRE is a block's text in its section of a batched review
// (internal/fix/batch.go): up to the first closing fence.
var sectionBlockRE = regexp.MustCompile("(?s)\nThe block \\([^)]*\\):\n```\n(.*?)```\n")

// batch answers a batched review (the prompt names several blocks of one
// file, each in a section opened by "### NAME"): per block, its text in
// the commit, or "unchanged" where the commit has the block as shown or
// lacks it, in the reply form the prompt states.
func (s *replay) batch(r *http.Request, prompt string, ms [][]string) string {
	var out strings.Builder
	for i, m := range ms {
		if u, err := strconv.Unquote(m[2]); err == nil {
			m[2] = u
		}
		shown := ""
		head := "\n### " + m[2] + "\n"
		if at := strings.Index(prompt, head); at >= 0 {
			sec := prompt[at+len(head):]
			if i+1 < len(ms) {
				if n, err := strconv.Unquote(ms[i+1][2]); err == nil {
					if end := strings.Index(sec, "\n### "+n+"\n"); end >= 0 {
						sec = sec[:end+1]
					}
				}
			}
			if b := sectionBlockRE.FindStringSubmatch(sec); b != nil {
				shown = b[1]
			}
		}
		text, how := s.blockAt(r.Context(), m[1], m[2], shown)
		s.mu.Lock()
		s.answers[m[1]+"|"+m[2]] = how
		s.counts[how]++
		s.mu.Unlock()
		fmt.Fprintf(&out, "### %s\n", m[2])
		if how == noChange || how == absent {
			out.WriteString("unchanged\n\n")
			continue
		}
		out.WriteString(replyFor(text, how, "") + "\n")
	}
	return out.String()
}

// blockAt answers a request for the block named block in path, shown in
// the prompt as shown: its text in the commit, or shown itself when the
// commit has the same text or no such block.
func (s *replay) blockAt(ctx context.Context, path, block, shown string) (string, answer) {
	fe := s.frontendFor(path)
	if fix.AtFileScope(block) {
		return s.statementAt(ctx, fe, path, strings.TrimPrefix(block, fix.StatementBlock("")), shown)
	}
	q, _ := fe.(lang.Quoter)
	ed, _ := fe.(lang.BlockEditor)
	src, err := s.tree.ReadFile(ctx, path)
	if q == nil || ed == nil || err != nil {
		return shown, absent
	}
	decls, _ := fe.Decls(path, src)
	var d *lang.Decl
	for _, x := range decls {
		if x.Display == block {
			d = x
			break
		}
	}
	if d == nil {
		return s.goneAt(ctx, fe, q, path, block, shown, src, decls)
	}
	ds := append([]*lang.Decl{d}, s.newMethods(ctx, fe, path, decls, d)...)
	text, err := q.Quote(path, src, ds)
	if err != nil {
		return shown, absent
	}
	if _, code, err := ed.SplitImports(text); err == nil && strings.TrimSpace(code) == strings.TrimSpace(shown) {
		return shown, noChange
	}
	return text, fromCommit
}

// goneAt answers for a block of the state being fixed that the commit's
// file lacks: the commit's declaration of the same kind, container and
// body under another name that the state lacks (renamed), else a
// deletion. A block the state lacks too is answered as shown.
func (s *replay) goneAt(ctx context.Context, fe lang.Frontend, q lang.Quoter, path, block, shown string, src []byte, decls []*lang.Decl) (string, answer) {
	hsrc, err := s.head.ReadFile(ctx, path)
	if err != nil {
		return shown, absent
	}
	hds, _ := fe.Decls(path, hsrc)
	var hd *lang.Decl
	have := map[string]bool{}
	for _, x := range hds {
		have[x.Display] = true
		if x.Display == block {
			hd = x
		}
	}
	if hd == nil {
		return shown, absent
	}
	var cands []*lang.Decl
	for _, x := range decls {
		if !have[x.Display] && x.Kind == hd.Kind && x.Container == hd.Container && x.Body == hd.Body {
			cands = append(cands, x)
		}
	}
	if len(cands) == 1 {
		if text, err := q.Quote(path, src, cands); err == nil {
			return text, renamed
		}
	}
	return "", deleted
}

// replyFor is the reply text of one block's answer.
func replyFor(text string, how answer, lang string) string {
	if how == deleted {
		return "ripple: delete\n"
	}
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	out := fence + lang + "\n" + text + fence + "\n"
	if how == renamed {
		out = "ripple: rename\n" + out
	}
	return out
}

// declAt answers a request to declare a missing name ("F", "T", "T.M")
// for the file path: the commit's declaration of it in path's scope
// (lang.Declarer: a Go package's directory, a Python module), with the
// imports it names and, for a type, the methods of it that head lacks;
// else the commit's import in path that provides it (a module alias the
// seed uses), alone.
func (s *replay) declAt(ctx context.Context, path, name string) (string, answer) {
	fe := s.frontendFor(path)
	dc, _ := fe.(lang.Declarer)
	q, _ := fe.(lang.Quoter)
	if dc == nil || q == nil {
		return "", undeclared
	}
	scope := dc.Scope(path)
	var imported string
	for _, f := range s.scopeFiles(ctx, s.tree, fe, dc, scope) {
		src, err := s.tree.ReadFile(ctx, f)
		if err != nil {
			continue
		}
		decls, _ := fe.Decls(f, src)
		for _, d := range decls {
			switch d.Kind {
			case model.KindImport:
				// a name an import of the use's file provides: that
				// import, unless the scope declares it
				if f == path && imported == "" && lang.ImportNames(d, name) {
					imported, _ = q.Quote(f, src, []*lang.Decl{d})
				}
				continue
			case model.KindField, model.KindIfaceMethod:
				continue // not a declaration of its own
			}
			if d.Key() != name {
				continue
			}
			ds := append([]*lang.Decl{d}, s.newMethods(ctx, fe, f, decls, d)...)
			if text, err := q.Quote(f, src, ds); err == nil {
				return text, declared
			}
		}
	}
	if imported != "" {
		return imported, declared
	}
	return "", undeclared
}

// scopeFiles lists the files of a tree in a scope, the file itself
// first when the scope is a file.
func (s *replay) scopeFiles(ctx context.Context, t gitio.Tree, fe lang.Frontend, dc lang.Declarer, scope string) []string {
	files, _ := t.List(ctx, fe.Pathspecs()...)
	var out []string
	for _, f := range files {
		if fe.Match(f) && dc.Scope(f) == scope {
			out = append(out, f)
		}
	}
	return out
}

// newMethods are the methods of type d, declared in the commit's file
// (decls) outside d's own lines, that no file of d's scope declares in
// the head state: what a Go type's block brings along when its type must
// gain methods. A class whose methods lie inside its block has none.
func (s *replay) newMethods(ctx context.Context, fe lang.Frontend, file string, decls []*lang.Decl, d *lang.Decl) []*lang.Decl {
	dc, _ := fe.(lang.Declarer)
	if d.Kind != model.KindType || dc == nil || s.head == nil {
		return nil
	}
	var cands []*lang.Decl
	for _, m := range decls {
		if m.Kind == model.KindMethod && m.Container == d.Name && (m.Span.StartLine > d.Span.EndLine || m.Span.EndLine < d.Span.StartLine) {
			cands = append(cands, m)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	have := map[string]bool{}
	for _, f := range s.scopeFiles(ctx, s.head, fe, dc, dc.Scope(file)) {
		src, err := s.head.ReadFile(ctx, f)
		if err != nil {
			continue
		}
		ds, _ := fe.Decls(f, src)
		for _, x := range ds {
			have[x.Key()] = true
		}
	}
	var out []*lang.Decl
	for _, m := range cands {
		if !have[m.Key()] {
			out = append(out, m)
		}
	}
	return out
}

// statementAt answers a request for a top-level statement (its name is
// its first line, lang.TopLevel): the commit's top-level statement of
// that name in path, else the statement as shown.
func (s *replay) statementAt(ctx context.Context, fe lang.Frontend, path, name, shown string) (string, answer) {
	tl, _ := fe.(lang.TopLevel)
	src, err := s.tree.ReadFile(ctx, path)
	if tl == nil || err != nil {
		return shown, absent
	}
	lines := strings.SplitAfter(string(src), "\n")
	for l := 1; l <= len(lines); l++ {
		if !strings.HasPrefix(strings.TrimSpace(lines[l-1]), name) {
			continue
		}
		sp, n, ok := tl.Statement(path, src, l)
		if !ok || sp.StartLine != l || n != name {
			continue
		}
		text := strings.Join(lines[sp.StartLine-1:sp.EndLine], "")
		if strings.TrimSpace(text) == strings.TrimSpace(shown) {
			return shown, noChange
		}
		return text, fromCommit
	}
	return shown, absent
}
