package prepush

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Update is one line of the pre-push protocol: git is about to set
// RemoteRef on the remote from RemoteSHA to LocalSHA. LocalRef is the
// source as the user named it ("refs/heads/x", "HEAD", "(delete)").
// An all-zero LocalSHA deletes the remote ref; an all-zero RemoteSHA
// creates it.
type Update struct{ LocalRef, LocalSHA, RemoteRef, RemoteSHA string }

// maxLine bounds one protocol line; ref names are far shorter.
const maxLine = 64 << 10

// Parse reads the lines git writes on a pre-push hook's standard input:
// "<local ref> SP <local sha> SP <remote ref> SP <remote sha> LF". Blank
// lines are ignored and a trailing CR is tolerated. A malformed line is
// an error that names its number and content.
func Parse(r io.Reader) ([]Update, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	var ups []Update
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		u, err := parseLine(line)
		if err != nil {
			return nil, fmt.Errorf("pre-push input line %d %q: %w", n, clip(line), err)
		}
		ups = append(ups, u)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading the pre-push input at line %d: %w", n+1, err)
	}
	return ups, nil
}

func parseLine(line string) (Update, error) {
	f := strings.Fields(line)
	if len(f) != 4 {
		return Update{}, fmt.Errorf("want 4 fields \"<local ref> <local sha> <remote ref> <remote sha>\", got %d", len(f))
	}
	u := Update{LocalRef: f[0], LocalSHA: f[1], RemoteRef: f[2], RemoteSHA: f[3]}
	if !isObjectName(u.LocalSHA) {
		return Update{}, fmt.Errorf("local sha %q is not a full object name", clip(u.LocalSHA))
	}
	if !isObjectName(u.RemoteSHA) {
		return Update{}, fmt.Errorf("remote sha %q is not a full object name", clip(u.RemoteSHA))
	}
	if len(u.LocalSHA) != len(u.RemoteSHA) {
		return Update{}, fmt.Errorf("local and remote sha have different lengths (%d and %d)", len(u.LocalSHA), len(u.RemoteSHA))
	}
	return u, nil
}

// isObjectName reports whether s is a full SHA-1 or SHA-256 object name
// in lower-case hex, as git writes them.
func isObjectName(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// clip shortens text quoted in an error message.
func clip(s string) string {
	const max = 200
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}
