package fix

import (
	"errors"
	"fmt"
	"strings"
)

// splice replaces lines [from, to] (1-based, inclusive) of src with text.
func splice(src []byte, from, to int, text string) ([]byte, error) {
	lines := strings.SplitAfter(string(src), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if from < 1 || to > len(lines) || from > to {
		return nil, fmt.Errorf("block lines %d-%d outside the file's %d lines", from, to, len(lines))
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	var b strings.Builder
	for _, l := range lines[:from-1] {
		b.WriteString(l)
	}
	b.WriteString(text)
	for _, l := range lines[to:] {
		b.WriteString(l)
	}
	return []byte(b.String()), nil
}

// blockLines returns lines [from, to] of src.
func blockLines(src []byte, from, to int) (string, error) {
	lines := strings.SplitAfter(string(src), "\n")
	if from < 1 || to > len(lines) || from > to {
		return "", fmt.Errorf("block lines %d-%d outside the file's %d lines", from, to, len(lines))
	}
	return strings.Join(lines[from-1:to], ""), nil
}

// ErrRejected wraps the reasons a proposed block is refused.
var ErrRejected = errors.New("edit rejected")

// codeBlock extracts the first fenced code block of a model's reply; a
// reply without fences is taken whole. The block ends at the first line
// that is a fence at least as long as the opening one (CommonMark), so
// that a block holding a fence of its own (a docstring with an example,
// a template string) is sent with a longer fence and read whole; a reply
// that closes no such line ends at the first fence after the opening.
func codeBlock(reply string) (string, bool) {
	start := strings.Index(reply, "```")
	if start < 0 {
		s := strings.TrimSpace(reply)
		return s + "\n", s != ""
	}
	n := 3
	for start+n < len(reply) && reply[start+n] == '`' {
		n++
	}
	fence := reply[start : start+n]
	rest := reply[start+n:]
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[nl+1:] // drop the info string ("go")
	}
	for at := 0; at < len(rest); {
		line := rest[at:]
		if nl := strings.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl]
		}
		if t := strings.TrimSpace(line); strings.HasPrefix(t, fence) && strings.Trim(t, "`") == "" {
			return rest[:at], true
		}
		at += len(line) + 1
	}
	end := strings.Index(rest, fence)
	if end < 0 {
		return "", false
	}
	return rest[:end], true
}
