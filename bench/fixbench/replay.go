package main

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"path"
	"regexp"
	"slices"
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
		if name, ok := strings.CutPrefix(m[2], "new "); ok {
			answer = s.declAt(r.Context(), path.Dir(m[1]), name)
		} else {
			answer = s.blockAt(r.Context(), m[1], m[2])
		}
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

// declAt answers a request to declare a missing name: the commit's
// declaration of name ("F", "T", "T.M") in the package directory dir,
// with the imports it uses, and, for a type, the methods of it that head
// lacks. A name in a grouped declaration is answered as a declaration of
// its own.
func (s *replay) declAt(ctx context.Context, dir, name string) string {
	files, _ := s.tree.List(ctx, path.Join(dir, "*.go"))
	for _, f := range files {
		if path.Dir(f) != dir {
			continue
		}
		src, err := s.tree.ReadFile(ctx, f)
		if err != nil {
			continue
		}
		fset := token.NewFileSet()
		af, err := parser.ParseFile(fset, f, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		text := func(from, to token.Pos) string {
			return string(src[fset.Position(from).Offset:fset.Position(to).Offset]) + "\n"
		}
		for _, d := range af.Decls {
			var out string
			switch d := d.(type) {
			case *ast.FuncDecl:
				n := d.Name.Name
				if d.Recv != nil && len(d.Recv.List) > 0 {
					n = recvName(d.Recv.List[0].Type) + "." + n
				}
				if n == name {
					out = text(startOf(d.Doc, d.Pos()), d.End())
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					var names []string
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						names = []string{sp.Name.Name}
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							names = append(names, n.Name)
						}
					}
					if !slices.Contains(names, name) {
						continue
					}
					if d.Lparen.IsValid() {
						var doc *ast.CommentGroup
						switch sp := sp.(type) {
						case *ast.TypeSpec:
							doc = sp.Doc
						case *ast.ValueSpec:
							doc = sp.Doc
						}
						out = d.Tok.String() + " " + text(startOf(doc, sp.Pos()), sp.End())
					} else {
						out = text(startOf(d.Doc, d.Pos()), d.End())
					}
				}
			}
			if out == "" {
				continue
			}
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				decls, _ := golang.New().Decls(f, src)
				out += s.newMethods(ctx, f, decls, strings.SplitAfter(string(src), "\n"), name)
			}
			s.mu.Lock()
			s.hits["new "+name]++
			s.mu.Unlock()
			return importsUsed(src, out) + out
		}
	}
	return ""
}

func startOf(doc *ast.CommentGroup, pos token.Pos) token.Pos {
	if doc != nil {
		return doc.Pos()
	}
	return pos
}

// recvName is a receiver's type name without pointer or type parameters.
func recvName(x ast.Expr) string {
	for {
		switch t := x.(type) {
		case *ast.StarExpr:
			x = t.X
		case *ast.IndexExpr:
			x = t.X
		case *ast.IndexListExpr:
			x = t.X
		case *ast.ParenExpr:
			x = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
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
