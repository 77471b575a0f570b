package typescript

import (
	"bytes"
)

// Following an import to the declaration it binds (exportOf) parses
// every module on the way, and a test importing its fixtures often
// reaches a package's generated declaration file that way (playwright's
// types.d.ts, 1.1 MB: 150 ms of a check that needed none of it). An
// import can bind a target's declaration only when the target's file is
// at the end of a chain of modules that pass exports on. mayReach
// decides that from the modules' import specifiers, read from their
// text when they are not parsed yet, before anything is parsed.

// mayReach reports whether module p may pass on an export of the module
// target: p is target, or a module p forwards exports of (its `export
// ... from` clauses; every module it imports when it also exports names
// of its own list, `export default x` or CommonJS, which may be
// imported ones) may, at any depth. It over-approximates what exportOf
// and starReaches follow: false means neither can end in target.
func (a *analyzer) mayReach(p, target string) bool {
	if p == "" || target == "" {
		return false
	}
	if p == target {
		return true
	}
	k := p + "\x00" + target
	if v, ok := a.reach[k]; ok {
		return v
	}
	seen := map[string]bool{p: true}
	queue := []string{p}
	found := false
	for len(queue) > 0 && !found {
		q := queue[0]
		queue = queue[1:]
		for _, spec := range a.forwards(q) {
			m := a.resolve(q, spec)
			if m == target {
				found = true
				break
			}
			if m != "" && !seen[m] {
				seen[m] = true
				queue = append(queue, m)
			}
		}
	}
	if a.reach == nil {
		a.reach = map[string]bool{}
	}
	a.reach[k] = found
	return found
}

// forwards returns the specifiers of the modules p may pass exports of
// on, memoized: from the parsed file when it is parsed, else from its
// text (forwardSpecs).
func (a *analyzer) forwards(p string) []string {
	if s, ok := a.fwd[p]; ok {
		return s
	}
	var out []string
	if f, ok := a.c.Get(p); ok && f != nil {
		seen := map[string]bool{}
		add := func(s string) {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		for _, r := range f.reexports {
			add(r.spec)
		}
		for _, local := range f.exports {
			if b := f.imports[local]; b != nil {
				add(b.spec)
			}
		}
		if f.cjs {
			for _, b := range f.imports {
				add(b.spec)
			}
		}
	} else if a.files[p] {
		if src, err := a.env.Head.ReadFile(a.ctx, p); err == nil {
			out = forwardSpecs(src)
		}
	} else if src, ok := a.fe.virtualSrc(p); ok {
		out = forwardSpecs(src)
	}
	if a.fwd == nil {
		a.fwd = map[string][]string{}
	}
	a.fwd[p] = out
	return out
}

// forwardSpecs reads, without parsing, the module specifiers a source
// may forward exports of: those of its `export ... from` statements, and
// when it may export imported names (an `export {` list, `export
// default`, `export =`, CommonJS exports) every specifier it names
// (specifiers). Comments and strings are not
// told apart from code: a specifier too many only costs a look.
func forwardSpecs(src []byte) []string {
	all := bytes.Contains(src, []byte("module.exports")) || bytes.Contains(src, []byte("exports."))
	if !all {
		for i := 0; ; {
			j := bytes.Index(src[i:], []byte("export"))
			if j < 0 {
				break
			}
			k := skipSpace(src, i+j+len("export"))
			if bytes.HasPrefix(src[k:], []byte("type")) {
				k = skipSpace(src, k+len("type"))
			}
			if k < len(src) && (src[k] == '{' || src[k] == '=' || bytes.HasPrefix(src[k:], []byte("default")) || bytes.HasPrefix(src[k:], []byte("import"))) {
				all = true
				break
			}
			i = i + j + len("export")
		}
	}
	if all {
		return specifiers(src, nil)
	}
	// the specifier after each `from` whose statement begins with
	// `export`: the nearest `export` or `import` keyword before it
	var out []string
	exps, imps, froms := words(src, "export"), words(src, "import"), words(src, "from")
	e, m := 0, 0
	for _, at := range froms {
		for e < len(exps) && exps[e] < at {
			e++
		}
		for m < len(imps) && imps[m] < at {
			m++
		}
		if e == 0 || m > 0 && imps[m-1] > exps[e-1] {
			continue
		}
		if s, ok := quoted(src, skipSpace(src, at+len("from"))); ok {
			out = append(out, s)
		}
	}
	return out
}

// words returns the offsets of w in src as a whole word, in order.
func words(src []byte, w string) []int {
	var out []int
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte(w))
		if j < 0 {
			return out
		}
		at := i + j
		i = at + len(w)
		if (at == 0 || !identByte(src[at-1])) && (i >= len(src) || !identByte(src[i])) {
			out = append(out, at)
		}
	}
}

// skipSpace skips white space and comments from offset i.
func skipSpace(src []byte, i int) int {
	for i < len(src) {
		switch c := src[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			n := bytes.IndexByte(src[i:], '\n')
			if n < 0 {
				return len(src)
			}
			i += n + 1
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			n := bytes.Index(src[i+2:], []byte("*/"))
			if n < 0 {
				return len(src)
			}
			i += n + 4
		default:
			return i
		}
	}
	return i
}

// quoted reads a string literal starting at offset i.
func quoted(src []byte, i int) (string, bool) {
	if i >= len(src) || src[i] != '\'' && src[i] != '"' && src[i] != '`' {
		return "", false
	}
	q := src[i]
	for k := i + 1; k < len(src) && k-i < 400; k++ {
		switch src[k] {
		case q:
			return string(src[i+1 : k]), true
		case '\\', '\n':
			return "", false
		}
	}
	return "", false
}
