package gitio

import (
	"context"
	"errors"
	"fmt"
	"sort"
)

// MemTree is a state of a repository held in memory, path to content: for
// tests and fuzzing of the code that reads trees, with the same semantics
// as RevTree (pathspecs, whole-word search).
type MemTree map[string][]byte

func (t MemTree) Rev() string { return "" }

func (t MemTree) ReadFile(_ context.Context, p string) ([]byte, error) {
	if b, ok := t[p]; ok {
		return b, nil
	}
	return nil, fmt.Errorf("%s: %w", p, ErrNotExist)
}

func (t MemTree) ReadFiles(ctx context.Context, ps []string) (map[string][]byte, error) {
	out := map[string][]byte{}
	var missing []string
	for _, p := range ps {
		if b, ok := t[p]; ok {
			out[p] = b
		} else {
			missing = append(missing, p)
		}
	}
	return out, unreadable(missing, "memory", nil)
}

func (t MemTree) List(_ context.Context, pathspecs ...string) ([]string, error) {
	var out []string
	for p := range t {
		if len(pathspecs) == 0 || matchAny(pathspecs, p) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

func (t MemTree) Grep(ctx context.Context, words []string, pathspecs ...string) ([]string, error) {
	if len(words) == 0 {
		return nil, errors.New("grep: no words")
	}
	all, _ := t.List(ctx, pathspecs...)
	return newWordSet(words).search(ctx, all, func(p string) ([]byte, bool) { return t[p], true })
}

func matchAny(pathspecs []string, p string) bool {
	for _, ps := range pathspecs {
		if MatchPathspec(ps, p) {
			return true
		}
	}
	return false
}
