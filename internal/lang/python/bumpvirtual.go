package python

import (
	"context"
	"sort"
	"strings"
	"sync"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// The analyzer's view of the distributions a bump read (bump.go): the
// new version's files of the imported packages are files of the head
// state under the version's root ("jinja2@3.1.0/jinja2/utils.py", the
// path the bump's changes carry), an import root of its own, so that
// `import jinja2` in the repository resolves there as an import of a
// repository package does, through re-exports and submodules. They are
// listed, read and parsed like the repository's files, never searched
// for sites (a dependency's own code is not the repository's).

// pyBumpRead is one bump as the analyzer sees it.
type pyBumpRead struct {
	root, oldRoot, newRoot string
	files                  map[string][]byte // the new version's files, by versioned path
}

// bumpState is what a front-end keeps of the bumps of its check.
type bumpState struct {
	bumpMu sync.Mutex
	bumps  []*pyBumpRead
}

// headPath maps a path of a bump's trees or of its old version to the
// new version's: a declaration the bump changed or deleted is looked
// for where the repository's imports now resolve. Other paths are
// returned as given.
func (fe *Frontend) headPath(p string) string {
	if !strings.Contains(p, "@") {
		return p
	}
	fe.bumpMu.Lock()
	defer fe.bumpMu.Unlock()
	for _, b := range fe.bumps {
		for _, r := range []string{b.oldRoot, b.root} {
			if rest, ok := strings.CutPrefix(p, r+"/"); ok {
				return b.newRoot + "/" + rest
			}
		}
	}
	return p
}

// headTree is the head state with the bumps' new versions overlaid, or
// the head state itself when the check read no bump.
func (fe *Frontend) headTree(t gitio.Tree) gitio.Tree {
	fe.bumpMu.Lock()
	defer fe.bumpMu.Unlock()
	if len(fe.bumps) == 0 {
		return t
	}
	v := &bumpTree{Tree: t, files: map[string][]byte{}}
	for _, b := range fe.bumps {
		for p, src := range b.files {
			v.files[p] = src
		}
	}
	return v
}

// bumpRoots are the import roots of the bumps' new versions.
func (fe *Frontend) bumpRoots() map[string]bool {
	fe.bumpMu.Lock()
	defer fe.bumpMu.Unlock()
	out := map[string]bool{}
	for _, b := range fe.bumps {
		out[b.newRoot] = true
	}
	return out
}

// bumpTree overlays the bumped distributions' files on a tree.
type bumpTree struct {
	gitio.Tree
	files map[string][]byte
}

func (t *bumpTree) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if src, ok := t.files[p]; ok {
		return src, nil
	}
	return t.Tree.ReadFile(ctx, p)
}

func (t *bumpTree) List(ctx context.Context, specs ...string) ([]string, error) {
	out, err := t.Tree.List(ctx, specs...)
	if err != nil {
		return nil, err
	}
	for p := range t.files {
		for _, s := range specs {
			if gitio.MatchPathspec(s, p) {
				out = append(out, p)
				break
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// Grep searches the repository's files only: no site is in a dependency.
func (t *bumpTree) Grep(ctx context.Context, words []string, specs ...string) ([]string, error) {
	return t.Tree.Grep(ctx, words, specs...)
}

func (t *bumpTree) ReadFiles(ctx context.Context, paths []string) (map[string][]byte, error) {
	var rest []string
	out := map[string][]byte{}
	for _, p := range paths {
		if src, ok := t.files[p]; ok {
			out[p] = src
		} else {
			rest = append(rest, p)
		}
	}
	if len(rest) == 0 {
		return out, nil
	}
	got, err := t.Tree.ReadFiles(ctx, rest)
	for p, src := range got {
		out[p] = src
	}
	return out, err
}

// onlyForwards is the function fn only forwards its parameters to: past
// a docstring, `import warnings` and warnings.warn(...) statements, its
// body is `return g(a, b, *args, **kwargs)` passing every parameter in
// order (keyword-only ones as k=k). "" when it does anything else.
func onlyForwards(fn *funcInfo) string {
	body := fn.node.Child("body")
	if body == nil {
		return ""
	}
	stmts := body.NamedKids()
	var ret *treesit.Node
	for i, s := range stmts {
		switch s.Kind {
		case "comment":
			continue
		case "expression_statement":
			e := s.NamedKids()
			if len(e) == 1 && e[0].Kind == "string" && i == 0 {
				continue // the docstring
			}
			if len(e) == 1 && e[0].Kind == "call" {
				if f := e[0].Child("function").Text(); f == "warnings.warn" || f == "warn" {
					continue
				}
			}
			return ""
		case "import_statement":
			if strings.Join(strings.Fields(s.Text()), " ") == "import warnings" {
				continue
			}
			return ""
		case "return_statement":
			if ret != nil || i != len(stmts)-1 {
				return ""
			}
			ret = s
		default:
			return ""
		}
	}
	if ret == nil {
		return ""
	}
	vals := ret.NamedKids()
	if len(vals) != 1 || vals[0].Kind != "call" {
		return ""
	}
	call := vals[0]
	callee := call.Child("function")
	if callee == nil || callee.Kind != "identifier" || callee.Text() == fn.name {
		return ""
	}
	var args []*treesit.Node
	for _, a := range call.Child("arguments").NamedKids() {
		if a.Kind != "comment" {
			args = append(args, a)
		}
	}
	if len(args) != len(fn.params) {
		return ""
	}
	for i, p := range fn.params {
		a := args[i]
		var want string
		switch p.kind {
		case posOnly, posKw:
			want = p.name
			if a.Kind == "keyword_argument" {
				want = p.name + "=" + p.name
			}
		case varArgs:
			want = "*" + p.name
		case kwOnly:
			want = p.name + "=" + p.name
		case varKw:
			want = "**" + p.name
		}
		if strings.Join(strings.Fields(a.Text()), "") != want {
			return ""
		}
	}
	return callee.Text()
}
