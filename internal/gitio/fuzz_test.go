package gitio

import (
	"bytes"
	"strings"
	"testing"
)

// nsEntry is one record of `git diff --name-status -z` and the FileChange
// it must parse into.
type nsEntry struct {
	status   string // as git prints it: "M", "A", "D", "T", "R087", "C100"
	old, new string
}

// nsStatuses are the status fields git prints, chosen by a fuzzed byte.
var nsStatuses = []string{"M", "A", "D", "T", "U", "X", "R100", "R087", "C100", "C050"}

// nsEntries builds records from fuzzed data: paths are the non-empty
// NUL-free lines of paths, statuses are picked by the bytes of sel.
func nsEntries(sel []byte, paths string) []nsEntry {
	var ps []string
	for _, p := range strings.Split(paths, "\n") {
		if p != "" && !strings.Contains(p, "\x00") {
			ps = append(ps, p)
		}
	}
	var out []nsEntry
	for i := 0; len(ps) > 0; i++ {
		st := nsStatuses[0]
		if i < len(sel) {
			st = nsStatuses[int(sel[i])%len(nsStatuses)]
		}
		e := nsEntry{status: st}
		switch st[0] {
		case 'R', 'C':
			if len(ps) < 2 {
				e.status = "M"
				e.old, e.new = ps[0], ps[0]
				ps = ps[1:]
				break
			}
			e.old, e.new = ps[0], ps[1]
			ps = ps[2:]
		case 'A':
			e.new, ps = ps[0], ps[1:]
		case 'D':
			e.old, ps = ps[0], ps[1:]
		default:
			e.old, e.new = ps[0], ps[0]
			ps = ps[1:]
		}
		out = append(out, e)
	}
	return out
}

func (e nsEntry) encode(b *bytes.Buffer) {
	b.WriteString(e.status)
	b.WriteByte(0)
	switch e.status[0] {
	case 'R', 'C':
		b.WriteString(e.old)
		b.WriteByte(0)
		b.WriteString(e.new)
	case 'A':
		b.WriteString(e.new)
	default:
		b.WriteString(e.old)
	}
	b.WriteByte(0)
}

// want is the FileChange the entry must parse into.
func (e nsEntry) want() FileChange {
	switch e.status[0] {
	case 'R':
		return FileChange{Status: Renamed, OldPath: e.old, NewPath: e.new}
	case 'C':
		// a copy is an added file as far as dependents are concerned
		return FileChange{Status: Added, NewPath: e.new, Whole: true}
	case 'A':
		return FileChange{Status: Added, NewPath: e.new}
	case 'D':
		return FileChange{Status: Deleted, OldPath: e.old}
	}
	return FileChange{Status: Modified, OldPath: e.old, NewPath: e.old}
}

// FuzzParseNameStatus: parseNameStatus never panics on arbitrary bytes,
// and output built from random paths parses back into the records it
// was built from.
func FuzzParseNameStatus(f *testing.F) {
	f.Add([]byte("M\x00a.go\x00"), []byte{0}, "a.go")
	f.Add([]byte("R100\x00old.go\x00new.go\x00A\x00x/y.go\x00"), []byte{6, 1}, "old.go\nnew.go\nx/y.go")
	f.Add([]byte("C075\x00a.go\x00b.go\x00D\x00c.go\x00T\x00d.go"), []byte{8, 2, 3}, "a.go\nb.go\nc.go\nd.go")
	f.Add([]byte("R100\x00only-one"), []byte{7}, "dir with space/ü.go\n-leading.go\nR100")
	f.Add([]byte("\x00\x00M"), []byte{}, "M\nA\nD")
	f.Fuzz(func(t *testing.T, raw, sel []byte, paths string) {
		// 1. arbitrary bytes: an error is fine, a panic is not; a
		// success yields well-formed changes.
		files, err := parseNameStatus(raw)
		if err == nil {
			for _, fc := range files {
				if fc == nil {
					t.Fatalf("nil FileChange from %q", raw)
				}
				switch fc.Status {
				case Added, Deleted, Modified, Renamed:
				default:
					t.Errorf("status %q from %q", fc.Status, raw)
				}
				if fc.Path() == "" && (fc.OldPath != "" || fc.NewPath != "") {
					t.Errorf("Path() empty for %+v", fc)
				}
			}
		}

		// 2. round trip
		entries := nsEntries(sel, paths)
		var b bytes.Buffer
		for _, e := range entries {
			e.encode(&b)
		}
		files, err = parseNameStatus(b.Bytes())
		if err != nil {
			t.Fatalf("parseNameStatus(%q): %v", b.Bytes(), err)
		}
		if len(files) != len(entries) {
			t.Fatalf("parseNameStatus(%q): %d changes, want %d", b.Bytes(), len(files), len(entries))
		}
		for i, e := range entries {
			got, want := *files[i], e.want()
			if got.Status != want.Status || got.OldPath != want.OldPath || got.NewPath != want.NewPath || got.Whole != want.Whole || got.Binary || got.Hunks != nil {
				t.Errorf("record %d %q: got %+v, want %+v", i, e.status, got, want)
			}
		}
	})
}

// refMatch is a plain reference for MatchPathspec on patterns without
// brackets or backslashes: a pattern without wildcards matches the path
// or a leading directory of it; otherwise '*' matches any run of bytes
// ('/' included) and '?' any one byte, over the whole path.
func refMatch(pat, p string) bool {
	if !strings.ContainsAny(pat, "*?") {
		if p == pat {
			return true
		}
		d := strings.TrimSuffix(pat, "/")
		return len(p) > len(d) && p[:len(d)] == d && p[len(d)] == '/'
	}
	// m[j]: pat[:i] matches p[:j]
	m := make([]bool, len(p)+1)
	m[0] = true
	for i := 0; i < len(pat); i++ {
		next := make([]bool, len(p)+1)
		switch pat[i] {
		case '*':
			for j := 0; j <= len(p); j++ {
				next[j] = m[j] || j > 0 && next[j-1]
			}
		case '?':
			for j := 1; j <= len(p); j++ {
				next[j] = m[j-1]
			}
		default:
			for j := 1; j <= len(p); j++ {
				next[j] = m[j-1] && p[j-1] == pat[i]
			}
		}
		m = next
	}
	return m[len(p)]
}

// FuzzMatchPathspec: MatchPathspec never panics, and agrees with
// refMatch on patterns without brackets (and backslashes, which git
// treats as escapes and MatchPathspec does not).
func FuzzMatchPathspec(f *testing.F) {
	for _, s := range [][2]string{
		{"*.go", "internal/gitio/tree.go"},
		{"*/go.mod", "go.mod"},
		{"*/go.mod", "tools/go.mod"},
		{"go.mod", "go.mod"},
		{"internal", "internal/x.go"},
		{"internal/", "internal/x.go"},
		{"intern", "internal/x.go"},
		{"a?c", "abc"},
		{"a**b", "ab"},
		{"*", ""},
		{"[a-c]*.go", "b.go"},
		{"[!a]", "b"},
		{"[", "["},
		{"x[]y", "x]y"},
		{"é?", "éa"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pat, p string) {
		if len(pat) > 64 || len(p) > 256 {
			return // '*' backtracking is exponential in the number of stars
		}
		got := MatchPathspec(pat, p)
		if pat == "" || strings.ContainsAny(pat, "[\\") {
			return
		}
		if want := refMatch(pat, p); got != want {
			t.Errorf("MatchPathspec(%q, %q) = %v, want %v", pat, p, got, want)
		}
	})
}
