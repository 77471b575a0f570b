package corpus

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
)

// Parser parses one file of the head state. ok is false when the file is
// not usable at all (binary content, not this language); diag, when not
// nil, is reported (a syntax error: the file may still be usable).
type Parser[F any] func(path string, src []byte) (f F, ok bool, diag *model.Diagnostic)

// Config describes one language's files.
type Config[F any] struct {
	Tree gitio.Tree
	// Pathspecs select the language's files ("*.go").
	Pathspecs []string
	// Unsearched are folders whose files Search never names, passed to
	// git grep as exclusions so that it does not read them: vendored
	// third-party code, which cannot depend on the repository's own
	// declarations (lazygit's vendor/ made one grep take 6 s). Listed and
	// parsed files are unaffected.
	Unsearched []string
	// Usable reports whether a path may be analysed at all: the
	// configuration's ignore globs and the front-end's own exclusions.
	Usable func(path string) bool
	Parse  Parser[F]
	// Diag records what lowers precision (unreadable and unparsable
	// files); nil drops them.
	Diag func(model.Diagnostic)
}

// Corpus is one language's files of the head state for one check.
type Corpus[F any] struct {
	c Config[F]

	listOnce sync.Once
	all      []string
	listErr  error

	mu     sync.Mutex
	parsed map[string]F
	order  []string // parsed paths, in parse order
}

// New returns an empty corpus; nothing is read until asked.
func New[F any](c Config[F]) *Corpus[F] {
	if c.Usable == nil {
		c.Usable = func(string) bool { return true }
	}
	return &Corpus[F]{c: c, parsed: map[string]F{}}
}

// All lists every usable file of the language, once.
func (c *Corpus[F]) All(ctx context.Context) ([]string, error) {
	c.listOnce.Do(func() {
		all, err := c.c.Tree.List(ctx, c.c.Pathspecs...)
		if err != nil {
			c.listErr = fmt.Errorf("list files: %w", err)
			return
		}
		for _, p := range all {
			if c.c.Usable(p) {
				c.all = append(c.all, p)
			}
		}
	})
	return c.all, c.listErr
}

// Search returns the usable files that contain at least one of the words
// as a whole word, sorted.
func (c *Corpus[F]) Search(ctx context.Context, words []string) ([]string, error) {
	var ws []string
	for _, w := range words {
		if w != "" && !slices.Contains(ws, w) {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 {
		return nil, nil
	}
	sort.Strings(ws)
	specs := c.c.Pathspecs
	for _, d := range c.c.Unsearched {
		specs = append(specs[:len(specs):len(specs)], ":(exclude,glob)"+d+"/**", ":(exclude,glob)**/"+d+"/**")
	}
	paths, err := c.c.Tree.Grep(ctx, ws, specs...)
	if err != nil {
		return nil, fmt.Errorf("search for %s: %w", quoteFew(ws), err)
	}
	out := paths[:0:0]
	seen := map[string]bool{}
	for _, p := range paths {
		if !seen[p] && c.c.Usable(p) {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

// Find is Search followed by Parse.
func (c *Corpus[F]) Find(ctx context.Context, words []string) ([]F, error) {
	paths, err := c.Search(ctx, words)
	if err != nil {
		return nil, err
	}
	return c.Parse(ctx, paths)
}

// Parse returns the parsed files among paths, in the order given,
// reading and parsing those not parsed yet concurrently. Files that
// cannot be read or used are left out (and reported, see the package
// documentation).
func (c *Corpus[F]) Parse(ctx context.Context, paths []string) ([]F, error) {
	return c.ParseWith(ctx, paths, c.c.Parse)
}

// ParseWith is Parse with another parser for the files not parsed yet
// (a front-end that parses some files in part, for one question, and
// completes them when asked more). What it parses is kept as Parse's.
func (c *Corpus[F]) ParseWith(ctx context.Context, paths []string, parse Parser[F]) ([]F, error) {
	var todo []string
	c.mu.Lock()
	seen := map[string]bool{}
	for _, p := range paths {
		if _, ok := c.parsed[p]; !ok && !seen[p] && c.c.Usable(p) {
			seen[p] = true
			todo = append(todo, p)
		}
	}
	c.mu.Unlock()
	if len(todo) > 0 {
		if err := c.parseAll(ctx, todo, parse); err != nil {
			return nil, err
		}
	}
	out := make([]F, 0, len(paths))
	c.mu.Lock()
	defer c.mu.Unlock()
	dup := map[string]bool{}
	for _, p := range paths {
		if f, ok := c.parsed[p]; ok && !dup[p] {
			dup[p] = true
			out = append(out, f)
		}
	}
	return out, nil
}

func (c *Corpus[F]) parseAll(ctx context.Context, todo []string, parse Parser[F]) error {
	data, rerr := c.c.Tree.ReadFiles(ctx, todo)
	if err := ctx.Err(); err != nil {
		return err
	}
	if rerr != nil {
		c.diag(model.Diagnostic{Message: rerr.Error() + "; their dependents are not analysed"})
	}
	type result struct {
		path string
		f    F
		ok   bool
	}
	work := make(chan string)
	results := make(chan result, len(todo))
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(todo)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				f, ok, d := parse(p, data[p])
				if d != nil {
					c.diag(*d)
				}
				results <- result{p, f, ok}
			}
		}()
	}
feed:
	for _, p := range todo {
		if _, ok := data[p]; !ok {
			continue
		}
		select {
		case work <- p:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	close(results)
	if err := ctx.Err(); err != nil {
		return err
	}
	got := map[string]result{}
	for r := range results {
		got[r.path] = r
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range todo { // deterministic order of Files
		if r, ok := got[p]; ok && r.ok {
			if _, dup := c.parsed[p]; !dup {
				c.parsed[p] = r.f
				c.order = append(c.order, p)
			}
		}
	}
	return nil
}

// Get returns a file parsed earlier.
func (c *Corpus[F]) Get(path string) (F, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.parsed[path]
	return f, ok
}

// Files returns every file parsed so far, in the order they were parsed.
func (c *Corpus[F]) Files() []F {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]F, 0, len(c.order))
	for _, p := range c.order {
		out = append(out, c.parsed[p])
	}
	return out
}

// Count is the number of files parsed so far.
func (c *Corpus[F]) Count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.parsed)
}

func (c *Corpus[F]) diag(d model.Diagnostic) {
	if c.c.Diag != nil {
		c.c.Diag(d)
	}
}

func quoteFew(ws []string) string {
	s := fmt.Sprintf("%q", ws[:min(3, len(ws))])
	if len(ws) > 3 {
		s += fmt.Sprintf(" and %d more words", len(ws)-3)
	}
	return s
}
