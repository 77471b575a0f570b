package config

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"
)

// Ignored reports whether the repository-relative slash path is matched
// by the ignore globs: such files are never analysed nor reported.
func (c *Config) Ignored(p string) bool { return matchList(c.Ignore, p) }

// IsGeneratedPath reports whether the repository-relative slash path is
// matched by the generated globs.
func (c *Config) IsGeneratedPath(p string) bool { return matchList(c.Generated, p) }

// IsGenerated reports whether the file at p with content src (nil if
// unknown) is generated: matched by the generated globs, or carrying the
// Go generated-code header.
func (c *Config) IsGenerated(p string, src []byte) bool {
	return c.IsGeneratedPath(p) || IsGeneratedSource(src)
}

// Glob syntax (gitignore-style, matched against repository-relative
// slash paths):
//
//   - '*' matches any run of characters within a path segment, '?' one
//     character, "[a-z]" / "[!a-z]" (or "[^a-z]") a class; '\' escapes.
//   - "**" as a whole segment matches any number of directories: zero as
//     "**/x" or "a/**/b", one or more as a trailing "a/**".
//   - A pattern without '/' (other than a trailing one) matches the base
//     name at any depth: "*.pb.go" is "**/*.pb.go". A pattern with a '/'
//     is anchored at the top; a leading '/' only anchors.
//   - A pattern matching a directory matches everything beneath it:
//     "vendor" matches vendor/a/b.go. A trailing '/' matches directories
//     only.
//   - A leading '!' re-includes what earlier patterns matched; the last
//     matching pattern decides. Unlike git, a file can be re-included
//     inside an excluded directory. "\!" starts a literal '!'.

// glob is one compiled pattern.
type glob struct {
	neg     bool     // "!pattern"
	dirOnly bool     // "pattern/"
	segs    []string // path.Match patterns, or "**"
}

// checkGlob reports whether pattern compiles.
func checkGlob(pattern string) error {
	_, err := compileGlob(pattern)
	return err
}

func compileGlob(pattern string) (glob, error) {
	var g glob
	p := pattern
	switch {
	case strings.HasPrefix(p, "!"):
		g.neg, p = true, p[1:]
	case strings.HasPrefix(p, `\!`):
		p = p[1:]
	}
	if strings.HasSuffix(p, "/") {
		g.dirOnly, p = true, strings.TrimRight(p, "/")
	}
	anchored := strings.HasPrefix(p, "/")
	p = strings.TrimLeft(p, "/")
	if p == "" {
		return g, fmt.Errorf("empty glob %q", pattern)
	}
	if !anchored && !strings.Contains(p, "/") {
		p = "**/" + p
	}
	for _, s := range strings.Split(p, "/") {
		switch s {
		case "":
			continue // "a//b"
		case ".", "..":
			return g, fmt.Errorf("bad glob %q: %q segments never match", pattern, s)
		case "**":
			if n := len(g.segs); n > 0 && g.segs[n-1] == "**" {
				continue
			}
		default:
			s = bangClass(s)
			if _, err := path.Match(s, ""); err != nil {
				return g, fmt.Errorf("bad glob %q: %v", pattern, err)
			}
		}
		g.segs = append(g.segs, s)
	}
	return g, nil
}

// bangClass turns gitignore's negated class "[!...]" into path.Match's
// "[^...]".
func bangClass(s string) string {
	if !strings.Contains(s, "[!") {
		return s
	}
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '\\':
			i++
		case b[i] == '[' && i+1 < len(b) && b[i+1] == '!':
			b[i+1] = '^'
		}
	}
	return string(b)
}

// matchList applies patterns in order to p; the last one matching
// decides. Invalid patterns are skipped (Validate reports them).
func matchList(patterns []string, p string) bool {
	p = path.Clean("/" + p)[1:]
	if p == "" {
		return false
	}
	parts := strings.Split(p, "/")
	matched := false
	for _, pat := range patterns {
		g, err := compileGlob(pat)
		if err != nil || matched != g.neg {
			continue // cannot change the outcome
		}
		if g.match(parts) {
			matched = !g.neg
		}
	}
	return matched
}

// match reports whether g matches the path parts or one of its
// directories.
func (g glob) match(parts []string) bool {
	for i := 1; i <= len(parts); i++ {
		if i == len(parts) && g.dirOnly {
			break
		}
		if matchSegs(g.segs, parts[:i]) {
			return true
		}
	}
	return false
}

func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			if len(rest) == 0 {
				return len(name) > 0
			}
			for i := range len(name) + 1 {
				if matchSegs(rest, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// generatedRE is the Go generated-code header, https://go.dev/s/generatedcode.
var generatedRE = regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.$`)

// IsGeneratedSource reports whether Go source src carries the
// generated-code header: a line matching ^// Code generated .* DO NOT
// EDIT\.$ before the package clause, after any comments, blank lines and
// build constraints (as go/ast.IsGenerated, lines inside /* */ comments
// count too). It reads no further than the first line of code.
func IsGeneratedSource(src []byte) bool {
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	inBlock := false
	for len(src) > 0 {
		var line []byte
		line, src, _ = bytes.Cut(src, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if generatedRE.Match(line) {
			return true
		}
		rest := line
		for {
			if inBlock {
				_, after, ok := bytes.Cut(rest, []byte("*/"))
				if !ok {
					break
				}
				rest, inBlock = after, false
				continue
			}
			rest = bytes.TrimSpace(rest)
			switch {
			case len(rest) == 0 || bytes.HasPrefix(rest, []byte("//")):
			case bytes.HasPrefix(rest, []byte("/*")):
				rest, inBlock = rest[2:], true
				continue
			default:
				return false // the package clause, or any other code
			}
			break
		}
	}
	return false
}
