package gitio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Tree is one state of the repository's files: a commit (or a tree
// object), or the work tree. Front-ends read the head and base states
// only through it.
type Tree interface {
	// Rev is the commit or tree, or "" for the work tree.
	Rev() string
	// ReadFile returns a file's content; ErrNotExist if absent.
	ReadFile(ctx context.Context, path string) ([]byte, error)
	// List returns the paths of the files matching the pathspecs
	// (git pathspec syntax, e.g. "*.go").
	List(ctx context.Context, pathspecs ...string) ([]string, error)
	// Grep returns the paths of the files matching the pathspecs that
	// contain at least one of words as a whole word.
	Grep(ctx context.Context, words []string, pathspecs ...string) ([]string, error)
	// ReadFiles reads several files at once. Files it could not read are
	// absent from the map and named in the error (nil when every file was
	// read); the error does not invalidate what was read.
	ReadFiles(ctx context.Context, paths []string) (map[string][]byte, error)
}

// RevTree is the tree of a commit, or a tree object itself (SHA names
// either: ls-tree, cat-file, grep and diff take both).
type RevTree struct {
	R   *Repo
	SHA string

	listOnce sync.Once
	listed   atomic.Bool
	list     []string
	blobs    map[string]string // path -> blob id
	links    map[string]bool   // symbolic links (their blob is the target)
	listErr  error

	// the work tree, when the commit is the one checked out (workTree)
	wtOnce  sync.Once
	wtDirty map[string]bool
	wtFiles bool // its unchanged files hold the blobs' bytes
}

func (t *RevTree) Rev() string { return t.SHA }

func (t *RevTree) ReadFile(ctx context.Context, path string) ([]byte, error) {
	if b, ok := t.fromWorkTree(ctx, path); ok {
		return b, nil
	}
	if !t.listed.Load() {
		// a few files of a tree not listed (the base of a check): resolve
		// the path in git rather than listing the whole tree
		return t.R.ReadBlob(ctx, t.SHA, path)
	}
	if err := t.load(ctx); err == nil {
		if id, ok := t.blobs[path]; ok {
			return t.R.ReadBlob(ctx, id, "")
		}
		return nil, fmt.Errorf("%s at %s: %w", path, short(t.SHA), ErrNotExist)
	}
	return t.R.ReadBlob(ctx, t.SHA, path)
}

// ReadFiles reads several files in one pipelined round trip to git, or,
// when the commit is the one checked out, those the work tree did not
// change from disk (see workTree).
func (t *RevTree) ReadFiles(ctx context.Context, paths []string) (map[string][]byte, error) {
	if err := t.load(ctx); err != nil {
		return nil, err
	}
	out := make(map[string][]byte, len(paths))
	ids := make([]string, 0, len(paths))
	for _, p := range paths {
		if b, ok := t.fromWorkTree(ctx, p); ok {
			out[p] = b
		} else if id, ok := t.blobs[p]; ok {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return out, nil
	}
	data, rerr := t.R.readBlobs(ctx, ids)
	var missing []string
	for _, p := range paths {
		if _, ok := out[p]; ok {
			continue
		}
		if b, ok := data[t.blobs[p]]; ok {
			out[p] = b
		} else {
			missing = append(missing, p)
		}
	}
	return out, unreadable(missing, short(t.SHA), rerr)
}

// workTree returns the files the work tree changed from the commit, when
// the commit is the one checked out; ok is false otherwise. files says
// whether the unchanged files hold the blobs' very bytes: git compares
// them after its conversions (line endings, filters), so a repository
// with attributes or core.autocrlf set is read from git.
func (t *RevTree) workTree(ctx context.Context) (dirty map[string]bool, files, ok bool) {
	t.wtOnce.Do(func() {
		if t.R.HeadCommit(ctx) != t.SHA {
			return
		}
		var crlf []byte
		done := make(chan struct{})
		go func() {
			defer close(done)
			crlf, _ = t.R.Git(ctx, "config", "--get", "core.autocrlf")
		}()
		out, err := t.R.Git(ctx, "diff", "--name-only", "-z", "--no-renames", "HEAD", "--")
		<-done
		if err != nil {
			return
		}
		t.wtDirty = map[string]bool{}
		for _, p := range splitZ(out) {
			t.wtDirty[p] = true
		}
		switch strings.TrimSpace(string(crlf)) {
		case "true", "input":
			return
		}
		if _, err := os.Stat(filepath.Join(t.R.GitDir, "info", "attributes")); err == nil {
			return
		}
		if t.load(ctx) != nil {
			return
		}
		for _, p := range t.list {
			if p == ".gitattributes" || strings.HasSuffix(p, "/.gitattributes") {
				return
			}
		}
		t.wtFiles = true
	})
	return t.wtDirty, t.wtFiles, t.wtDirty != nil
}

// fromWorkTree reads a file of the commit from disk when the work tree
// holds it unchanged.
func (t *RevTree) fromWorkTree(ctx context.Context, p string) ([]byte, bool) {
	dirty, files, ok := t.workTree(ctx)
	if !ok || !files || dirty[p] || t.load(ctx) != nil || t.links[p] {
		return nil, false
	}
	if _, tracked := t.blobs[p]; !tracked {
		return nil, false
	}
	b, err := os.ReadFile(filepath.Join(t.R.Top, filepath.FromSlash(p)))
	if err != nil {
		return nil, false // a sparse checkout, a file removed since
	}
	return b, true
}

// load lists the tree once: paths and blob ids. ls-tree takes literal
// paths, not patterns, so the listing is filtered here.
func (t *RevTree) load(ctx context.Context) error {
	t.listOnce.Do(func() {
		out, err := t.R.Git(ctx, "ls-tree", "-r", "-z", "--full-tree", t.SHA)
		if err != nil {
			t.listErr = err
			return
		}
		t.blobs, t.links = map[string]string{}, map[string]bool{}
		for _, rec := range splitZ(out) {
			meta, p, ok := strings.Cut(rec, "\t")
			f := strings.Fields(meta)
			if !ok || len(f) != 3 || f[1] != "blob" {
				continue // submodules (commit entries) have no content here
			}
			t.list = append(t.list, p)
			t.blobs[p] = f[2]
			if f[0] == "120000" {
				t.links[p] = true
			}
		}
		t.listed.Store(true)
	})
	return t.listErr
}

// BlobID returns the blob id of a file of the tree (listing it first).
func (t *RevTree) BlobID(ctx context.Context, path string) (string, bool) {
	if t.load(ctx) != nil {
		return "", false
	}
	id, ok := t.blobs[path]
	return id, ok
}

// Prefetch lists the tree in the background, so that the listing (ls-tree
// -r: 35 ms on terraform) overlaps the work done before the first List.
func (t *RevTree) Prefetch(ctx context.Context) {
	go func() { _ = t.load(ctx) }()
}

// List lists the commit's files matching git pathspec wildcards.
func (t *RevTree) List(ctx context.Context, pathspecs ...string) ([]string, error) {
	if err := t.load(ctx); err != nil {
		return nil, err
	}
	if len(pathspecs) == 0 {
		return append([]string(nil), t.list...), nil
	}
	var out []string
	for _, p := range t.list {
		for _, ps := range pathspecs {
			if MatchPathspec(ps, p) {
				out = append(out, p)
				break
			}
		}
	}
	return out, nil
}

// matchSpecs reports whether p may be selected by pathspecs: by one of
// the plain ones (MatchPathspec) or one of another magic, and by none of
// the exclusions (":(exclude)PATTERN", ":(exclude,glob)PATTERN", where
// '*' crossing '/' matches what "**" does).
func matchSpecs(pathspecs []string, p string) bool {
	in := false
	for _, ps := range pathspecs {
		if rest, ok := strings.CutPrefix(ps, ":("); ok {
			magic, pat, _ := strings.Cut(rest, ")")
			switch {
			case magic != "exclude" && magic != "exclude,glob":
				in = true // magic not known here: the search in the commit decides
			case MatchPathspec(pat, p):
				return false
			}
			continue
		}
		in = in || MatchPathspec(ps, p)
	}
	return in
}

// MatchPathspec matches a path against a git pathspec with the default
// (non-glob) magic: a pattern without wildcards matches the path or a
// directory prefix of it; '*' and '?' match any characters, '/' included.
func MatchPathspec(pattern, p string) bool {
	if !strings.ContainsAny(pattern, "*?[") {
		return p == pattern || strings.HasPrefix(p, strings.TrimSuffix(pattern, "/")+"/")
	}
	return wildmatch(pattern, p)
}

// wildmatch is fnmatch without FNM_PATHNAME: '*' crosses '/'.
func wildmatch(pat, s string) bool {
	for len(pat) > 0 {
		switch pat[0] {
		case '*':
			for len(pat) > 0 && pat[0] == '*' {
				pat = pat[1:]
			}
			if pat == "" {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if wildmatch(pat, s[i:]) {
					return true
				}
			}
			return false
		case '?':
			if s == "" {
				return false
			}
			pat, s = pat[1:], s[1:]
		case '[':
			end := strings.IndexByte(pat[1:], ']')
			if end < 0 || s == "" {
				return false
			}
			class := pat[1 : end+1]
			neg := strings.HasPrefix(class, "!") || strings.HasPrefix(class, "^")
			if neg {
				class = class[1:]
			}
			ok := false
			for i := 0; i < len(class); i++ {
				if i+2 < len(class) && class[i+1] == '-' {
					if class[i] <= s[0] && s[0] <= class[i+2] {
						ok = true
					}
					i += 2
				} else if class[i] == s[0] {
					ok = true
				}
			}
			if ok == neg {
				return false
			}
			pat, s = pat[end+2:], s[1:]
		default:
			if s == "" || pat[0] != s[0] {
				return false
			}
			pat, s = pat[1:], s[1:]
		}
	}
	return s == ""
}

// WorkTree is the files on disk: tracked files plus untracked files that
// are not ignored.
type WorkTree struct {
	R *Repo
}

func (t *WorkTree) Rev() string { return "" }

func (t *WorkTree) ReadFile(ctx context.Context, path string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(t.R.Top, filepath.FromSlash(path)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s in the work tree: %w", path, ErrNotExist)
	}
	return b, err
}

// ReadFiles reads several files from disk.
func (t *WorkTree) ReadFiles(ctx context.Context, paths []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(paths))
	var errs []error
	for _, p := range paths {
		b, err := t.ReadFile(ctx, p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out[p] = b
	}
	return out, errors.Join(errs...)
}

// unreadable is the error of a batch read that missed some files: it
// names up to three of them and the cause, when one is known.
func unreadable(missing []string, at string, cause error) error {
	if len(missing) == 0 {
		return nil
	}
	names := strings.Join(missing[:min(3, len(missing))], ", ")
	if len(missing) > 3 {
		names += fmt.Sprintf(" and %d more", len(missing)-3)
	}
	if cause != nil {
		return fmt.Errorf("cannot read %s at %s: %w", names, at, cause)
	}
	return fmt.Errorf("cannot read %s at %s", names, at)
}

func (t *WorkTree) List(ctx context.Context, pathspecs ...string) ([]string, error) {
	out, err := t.R.Git(ctx, append([]string{"ls-files", "-z", "--cached", "--others", "--exclude-standard", "--deduplicate", "--"}, pathspecs...)...)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range splitZ(out) {
		// a tracked file deleted in the work tree is still listed by --cached
		if _, err := os.Lstat(filepath.Join(t.R.Top, filepath.FromSlash(p))); err == nil {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// grep runs git grep -l -F for any of words in a commit (rev) or, with
// rev "", the work tree with its untracked files; whole adds -w. It is
// the search for pathspecs whose magic only git knows, and the fixed-string
// narrowing of a commit not checked out (search.go).
func grep(ctx context.Context, r *Repo, words []string, rev string, pathspecs []string, whole bool) ([]string, error) {
	if len(words) == 0 {
		return nil, nil
	}
	if whole {
		// git grep -w -F with several patterns slows down by orders of
		// magnitude when one of them is a short, frequent word: each
		// place the word occurs inside another word restarts the search
		// (psf/black 6305bf1ae6: "a" among 52 words, 80 s against 0.1 s
		// without it). Short words are grepped one by one, beside the
		// others.
		var short, long []string
		for _, w := range words {
			if len(w) <= shortWord {
				short = append(short, w)
			} else {
				long = append(long, w)
			}
		}
		if len(short) > 0 && len(words) > 1 {
			groups := [][]string{}
			if len(long) > 0 {
				groups = append(groups, long)
			}
			for _, w := range short {
				groups = append(groups, []string{w})
			}
			res := make([][]string, len(groups))
			errs := make([]error, len(groups))
			var wg sync.WaitGroup
			for i, g := range groups {
				wg.Add(1)
				go func() {
					defer wg.Done()
					res[i], errs[i] = grepOnce(ctx, r, g, rev, pathspecs, true)
				}()
			}
			wg.Wait()
			seen := map[string]bool{}
			var out []string
			for i := range groups {
				if errs[i] != nil {
					return nil, errs[i]
				}
				for _, p := range res[i] {
					if !seen[p] {
						seen[p] = true
						out = append(out, p)
					}
				}
			}
			sort.Strings(out)
			return out, nil
		}
	}
	return grepOnce(ctx, r, words, rev, pathspecs, whole)
}

// shortWord is the length up to which a word is grepped on its own.
const shortWord = 3

// grepOnce is one git grep for words; paths are relative to the top,
// without the rev's prefix.
func grepOnce(ctx context.Context, r *Repo, words []string, rev string, pathspecs []string, whole bool) ([]string, error) {
	args := []string{"grep", "-l", "-z", "-F", "-I", "--no-color"}
	if whole {
		args = append(args, "-w")
	}
	if rev == "" {
		args = append(args, "--untracked")
	}
	args = append(args, "-f", "-")
	if rev != "" {
		args = append(args, rev)
	}
	args = append(append(args, "--"), pathspecs...)
	var pat bytes.Buffer
	for _, w := range words {
		pat.WriteString(w)
		pat.WriteByte('\n')
	}
	out, err := r.GitIn(ctx, pat.Bytes(), args...)
	if err != nil {
		var ee *ExitError
		if errors.As(err, &ee) && ee.Code == 1 && ee.Stderr == "" {
			return nil, nil // nothing found
		}
		return nil, err
	}
	paths := splitZ(out)
	if rev != "" {
		for i, p := range paths {
			paths[i] = strings.TrimPrefix(p, rev+":")
		}
	}
	return paths, nil
}

func splitZ(b []byte) []string {
	var out []string
	for _, p := range bytes.Split(b, []byte{0}) {
		if len(p) > 0 {
			out = append(out, string(p))
		}
	}
	return out
}
