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
	out = append([]byte(nil), src...)
	n := len(src)
	i := 0
	isIdent := func(c byte) bool {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
	}
	// skip moves past a comment or literal starting at i, reporting
	// whether there was one and whether it held a newline
	skip := func() (bool, bool) {
		c := src[i]
		switch {
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
			return true, false // the newline itself is seen next
		case c == '/' && i+1 < n && src[i+1] == '*':
			nl := false
			i += 2
			for i+1 < n && !(src[i] == '*' && src[i+1] == '/') {
				nl = nl || src[i] == '\n'
				i++
			}
			i += 2
			return true, nl
		case c == '"' || c == '\'':
			i++
			for i < n && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			i++
			return true, false
		case c == '`':
			i++
			for i < n && src[i] != '`' {
				i++
			}
			i++
			return true, false
		}
		return false, false
	}
	// word returns the identifier or keyword at i and moves past it
	word := func() []byte {
		j := i
		for i < n && isIdent(src[i]) {
			i++
		}
		return src[j:i]
	}
	// group moves past the brackets opened at i (a '{'), returning the
	// offset of the closing one, or -1 (the loop every body's bytes go
	// through: skip is called only where a comment or literal may start)
	group := func() int {
		depth := 0
		j := i
		for {
			for j < n && !groupByte[src[j]] {
				j++
			}
			if j >= n {
				i = j
				return -1
			}
			switch src[j] {
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					i = j + 1
					return j
				}
			default:
				i = j
				if ok, _ := skip(); ok {
					j = i
					continue
				}
			}
			j++
		}
	}
	braces := 0
	for i < n {
		c := src[i]
		if c == '/' || c == '"' || c == '\'' || c == '`' {
			if ok, _ := skip(); ok {
				continue
			}
		}
		switch {
		case c == '{':
			braces++
			i++
			continue
		case c == '}':
			braces--
			i++
			continue
		case isIdent(c):
			if w := word(); string(w) != "func" || braces != 0 {
				continue
			}
		default:
			i++
			continue
		}
		start := i - len("func")
		// a top-level func: find its body's opening brace
		parens := 0
		last := byte(0) // the last significant byte on the line
	sig:
		for i < n {
			ok, nl := skip()
			if ok {
				if nl && parens == 0 && endsStatement(last) {
					break sig
				}
				continue
			}
			c := src[i]
			switch {
			case c == '(' || c == '[':
				parens++
			case c == ')' || c == ']':
				parens--
			case c == '\n':
				if parens == 0 && endsStatement(last) {
					break sig // no body (assembly)
				}
			case isIdent(c):
				w := word()
				last = 'a'
				if parens == 0 && (string(w) == "struct" || string(w) == "interface") {
					for i < n && (src[i] == ' ' || src[i] == '\t') {
						i++
					}
					if i < n && src[i] == '{' {
						if group() < 0 {
							return out, blanked
						}
						last = '}'
					}
				}
				continue
			case c == '{':
				if parens != 0 {
					break
				}
				open := i
				end := group()
				if end < 0 {
					return out, blanked
				}
				if keep != nil && keep(src[start:end+1]) {
					break sig
				}
				for k := open + 1; k < end; k++ {
					if out[k] != '\n' {
						out[k] = ' '
					}
				}
				blanked = append(blanked, open)
				break sig
			case c == ';' && parens == 0:
				break sig
			}
			if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
				last = c
			}
			i++
		}
	}
	return out, blanked
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
