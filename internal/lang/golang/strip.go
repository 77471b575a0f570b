package golang

// stripBodies returns src with the contents of every top-level function
// body replaced by spaces (newlines kept), so that offsets and lines are
// unchanged and go/parser skips the work. Imported packages are checked
// without bodies (types.Config.IgnoreFuncBodies), so parsing them is
// waste: this makes loading a package about twice as fast.
//
// It is a byte walk that knows only what decides where a top-level
// function body starts and ends (comments, string, raw-string and rune
// literals, brackets, the keywords func, struct and interface, and the
// newline that ends a body-less declaration): three times faster than
// tokenizing with go/scanner (BenchmarkStrip), and held to the tokenizing
// walk (stripTokens, in the tests) on every file of the standard library.
func stripBodies(src []byte) []byte {
	out, _ := stripBodiesExcept(src, nil)
	return out
}

// stripBodiesExcept is stripBodies keeping the bodies of the functions
// whose declaration (from the func keyword to the closing brace) keep
// accepts; keep nil accepts none. blanked are the offsets of the
// opening braces of the bodies it blanked.
func stripBodiesExcept(src []byte, keep func(decl []byte) bool) (out []byte, blanked []int) {
	s := &stripper{src: src, out: append([]byte(nil), src...), n: len(src), keep: keep}
	n := s.n
	braces := 0
	for s.i < n {
		c := src[s.i]
		if c == '/' || c == '"' || c == '\'' || c == '`' {
			if ok, _ := s.skip(); ok {
				continue
			}
		}
		switch {
		case c == '{':
			braces++
			s.i++
			continue
		case c == '}':
			braces--
			s.i++
			continue
		case identByte(c):
			if w := s.word(); string(w) != "func" || braces != 0 {
				continue
			}
		default:
			s.i++
			continue
		}
		if !s.funcDecl(s.i - len("func")) {
			break
		}
	}
	return s.out, s.blanked
}

// stripper is the state of stripBodiesExcept's byte walk: the source, its
// copy with bodies blanked, the offset reached, and the bodies blanked.
type stripper struct {
	src, out []byte
	n, i     int
	keep     func(decl []byte) bool
	blanked  []int
}

// skip moves past a comment or literal starting at i, reporting
// whether there was one and whether it held a newline.
func (s *stripper) skip() (bool, bool) {
	src, n := s.src, s.n
	c := src[s.i]
	switch {
	case c == '/' && s.i+1 < n && src[s.i+1] == '/':
		for s.i < n && src[s.i] != '\n' {
			s.i++
		}
		return true, false // the newline itself is seen next
	case c == '/' && s.i+1 < n && src[s.i+1] == '*':
		nl := false
		s.i += 2
		for s.i+1 < n && !(src[s.i] == '*' && src[s.i+1] == '/') {
			nl = nl || src[s.i] == '\n'
			s.i++
		}
		s.i += 2
		return true, nl
	case c == '"' || c == '\'':
		s.i++
		for s.i < n && src[s.i] != c && src[s.i] != '\n' {
			if src[s.i] == '\\' {
				s.i++
			}
			s.i++
		}
		s.i++
		return true, false
	case c == '`':
		s.i++
		for s.i < n && src[s.i] != '`' {
			s.i++
		}
		s.i++
		return true, false
	}
	return false, false
}

// word returns the identifier or keyword at i and moves past it.
func (s *stripper) word() []byte {
	j := s.i
	for s.i < s.n && identByte(s.src[s.i]) {
		s.i++
	}
	return s.src[j:s.i]
}

// group moves past the brackets opened at i (a '{'), returning the
// offset of the closing one, or -1 (the loop every body's bytes go
// through: skip is called only where a comment or literal may start).
func (s *stripper) group() int {
	src, n := s.src, s.n
	depth := 0
	j := s.i
	for {
		for j < n && !groupByte[src[j]] {
			j++
		}
		if j >= n {
			s.i = j
			return -1
		}
		switch src[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				s.i = j + 1
				return j
			}
		default:
			s.i = j
			if ok, _ := s.skip(); ok {
				j = s.i
				continue
			}
		}
		j++
	}
}

// funcDecl walks the signature of a top-level func declared at start up
// to its body's opening brace, blanks the body unless keep accepts the
// declaration, and moves past it. A declaration without a body (assembly)
// ends at the newline or semicolon after its signature. It reports false
// when the source ends inside a bracket group, where the walk stops.
func (s *stripper) funcDecl(start int) bool {
	src, n := s.src, s.n
	parens := 0
	last := byte(0) // the last significant byte on the line
	for s.i < n {
		ok, nl := s.skip()
		if ok {
			if nl && parens == 0 && endsStatement(last) {
				return true
			}
			continue
		}
		c := src[s.i]
		switch {
		case c == '(' || c == '[':
			parens++
		case c == ')' || c == ']':
			parens--
		case c == '\n':
			if parens == 0 && endsStatement(last) {
				return true // no body (assembly)
			}
		case identByte(c):
			w := s.word()
			last = 'a'
			if parens == 0 && (string(w) == "struct" || string(w) == "interface") {
				for s.i < n && (src[s.i] == ' ' || src[s.i] == '\t') {
					s.i++
				}
				if s.i < n && src[s.i] == '{' {
					if s.group() < 0 {
						return false
					}
					last = '}'
				}
			}
			continue
		case c == '{':
			if parens != 0 {
				break
			}
			open := s.i
			end := s.group()
			if end < 0 {
				return false
			}
			if s.keep != nil && s.keep(src[start:end+1]) {
				return true
			}
			for k := open + 1; k < end; k++ {
				if s.out[k] != '\n' {
					s.out[k] = ' '
				}
			}
			s.blanked = append(s.blanked, open)
			return true
		case c == ';' && parens == 0:
			return true
		}
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			last = c
		}
		s.i++
	}
	return true
}

// groupByte marks the bytes a walk through a body stops at: brackets,
// and where a comment or literal may start.
var groupByte = [256]bool{'{': true, '}': true, '/': true, '"': true, '\'': true, '`': true}

// endsStatement reports whether a line whose last token ends with c gets
// a semicolon at its newline (the Go specification's rule, for what may
// end a function signature).
func endsStatement(c byte) bool {
	return c == 'a' || c == ')' || c == ']' || c == '}'
}
