package corpus

import (
	"fmt"
	"sync"

	"github.com/ripple-dev/ripple/internal/model"
)

// Memo keeps the files a front-end parsed in one check by path and
// content, so that the classifier's parse of a changed file serves the
// analyzer's corpus too: a file with the same path and content is parsed
// once per check. It is safe for concurrent use.
type Memo[F any] struct {
	parse func(path string, src []byte) (F, *model.Diagnostic)
	mu    sync.Mutex
	m     map[string]F
}

// NewMemo returns an empty memo of parse's results.
func NewMemo[F any](parse func(path string, src []byte) (F, *model.Diagnostic)) *Memo[F] {
	return &Memo[F]{parse: parse, m: map[string]F{}}
}

// Get returns the file parsed from src at path, parsing it the first
// time. The parse's diagnostic is returned that first time only: the
// caller that parsed the file reports it, a later caller who wants it
// again asks the file.
func (m *Memo[F]) Get(path string, src []byte) (F, *model.Diagnostic) {
	key := fmt.Sprintf("%s\x00%d\x00%x", path, len(src), fnv(src))
	m.mu.Lock()
	f, ok := m.m[key]
	m.mu.Unlock()
	if ok {
		return f, nil
	}
	f, diag := m.parse(path, src)
	m.mu.Lock()
	m.m[key] = f
	m.mu.Unlock()
	return f, diag
}

// fnv is the 64-bit FNV-1a hash.
func fnv(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}
