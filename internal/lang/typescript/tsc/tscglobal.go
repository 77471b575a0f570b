package tsc

import (
	"bytes"
)

// A declaration file that is a module and augments the global scope
// (`declare global { ... }` beside its imports and exports) is read by
// tsc with everything it imports: playwright's test.d.ts brings 2 MB of
// generated declarations into a check of four files that never name
// what its global block declares. Such a file is a root of a run only
// when a root names one of its globals (globalNames); code that uses a
// global no root names, in a file a root imports, shows it by an error
// ("Cannot find name"), which withholds consistency (tscUnresolved).

// augmentsOnly reports a source whose ambient declarations (at the start
// of a line) are all `declare global` blocks: no ambient module or
// namespace, which any importer of that module would see.
func augmentsOnly(src []byte) bool {
	other := eachLine(src, func(i int) bool {
		if k, ok := keyword(src, i, "export"); ok && k > i+len("export") {
			i = k
		}
		k, ok := keyword(src, i, "declare")
		if !ok || k == i+len("declare") {
			return false
		}
		for _, w := range []string{"module", "namespace"} {
			if e, ok := keyword(src, k, w); ok && e > k+len(w) {
				return true
			}
		}
		return false
	})
	return !other
}

// globalNames lists what the `declare global` blocks of src declare:
// the names of their declarations, and the members of the interfaces
// they declare or augment (`interface Window { playwrightMount(): ... }`
// adds playwrightMount to every window). ok is false when a block could
// not be read (its braces do not balance).
func globalNames(src []byte) (names []string, ok bool) {
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte("declare"))
		if j < 0 {
			return names, true
		}
		at := i + j
		i = at + len("declare")
		if at > 0 && wordByte(src[at-1]) {
			continue
		}
		k, ok := keyword(src, at, "declare")
		if !ok {
			continue
		}
		e, ok := keyword(src, k, "global")
		if !ok || e >= len(src) || src[e] != '{' {
			continue
		}
		end, ns := blockNames(src, e)
		if end < 0 {
			return nil, false
		}
		names = append(names, ns...)
		i = end
	}
}

// declKeywords introduce a declaration whose name follows.
var declKeywords = map[string]bool{"interface": true, "namespace": true, "module": true, "var": true, "let": true,
	"const": true, "function": true, "class": true, "type": true, "enum": true}

// blockNames reads the block whose '{' is at offset open: the names its
// declarations declare (depth 1) and the members of its interfaces
// (depth 2: a name followed by '(', '?' or ':'). It returns the offset
// after the block, -1 when it does not close.
func blockNames(src []byte, open int) (int, []string) {
	var names []string
	depth := 0
	prev := ""     // the previous word at depth 1
	iface := false // the depth-2 block is an interface's body
	for i := open; i < len(src); {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*'):
			i = skipSpaces(src, skipComment(src, i))
		case c == '\'' || c == '"' || c == '`':
			i = skipString(src, i)
		case c == '{' || c == '(' || c == '[':
			depth++
			if depth == 2 {
				iface = c == '{' && prev == "interface-body"
			}
			i++
		case c == '}' || c == ')' || c == ']':
			depth--
			i++
			if depth == 0 {
				return i, names
			}
			if depth == 1 && c == '}' {
				prev = ""
			}
		case wordByte(c) || c == '$':
			e := i
			for e < len(src) && (wordByte(src[e]) || src[e] == '$') {
				e++
			}
			w := string(src[i:e])
			n := skipSpaces(src, e)
			switch {
			case depth == 1 && declKeywords[prev]:
				names = append(names, w)
				if prev == "interface" {
					prev = "interface-body"
				} else {
					prev = w
				}
			case depth == 1 && prev == "interface-body":
				// `interface A<T> extends B, C {`: still the header
			case depth == 1:
				prev = w
			case depth == 2 && iface && n < len(src) && (src[n] == '(' || src[n] == '?' || src[n] == ':') && (i == 0 || src[i-1] != '.'):
				names = append(names, w)
			}
			i = e
		default:
			i++
		}
	}
	return -1, nil
}

// skipComment returns the offset after the comment at offset i.
func skipComment(src []byte, i int) int {
	if src[i+1] == '/' {
		n := bytes.IndexByte(src[i:], '\n')
		if n < 0 {
			return len(src)
		}
		return i + n + 1
	}
	n := bytes.Index(src[i+2:], []byte("*/"))
	if n < 0 {
		return len(src)
	}
	return i + 2 + n + 2
}

// skipString returns the offset after the string literal at offset i.
func skipString(src []byte, i int) int {
	q := src[i]
	for k := i + 1; k < len(src); k++ {
		switch src[k] {
		case '\\':
			k++
		case q:
			return k + 1
		case '\n':
			if q != '`' {
				return k + 1
			}
		}
	}
	return len(src)
}

// mentions reports whether one of the texts holds one of names as a
// whole word.
func mentions(texts [][]byte, names []string) bool {
	for _, t := range texts {
		for _, n := range names {
			for i := 0; ; {
				j := bytes.Index(t[i:], []byte(n))
				if j < 0 {
					break
				}
				at, end := i+j, i+j+len(n)
				if (at == 0 || !wordByte(t[at-1]) && t[at-1] != '$') && (end >= len(t) || !wordByte(t[end]) && t[end] != '$') {
					return true
				}
				i = at + 1
			}
		}
	}
	return false
}
