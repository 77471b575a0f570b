package golang

import (
	"go/scanner"
	"go/token"
)

// stripBodies returns src with the contents of every top-level function
// body replaced by spaces (newlines kept), so that offsets and lines are
// unchanged and go/parser skips the work. Imported packages are checked
// without bodies (types.Config.IgnoreFuncBodies), so parsing them is
// waste: this makes loading a package about twice as fast.
func stripBodies(src []byte) []byte {
	out := append([]byte(nil), src...)
	var s scanner.Scanner
	fs := token.NewFileSet()
	file := fs.AddFile("", -1, len(src))
	s.Init(file, src, nil, 0)
	next := func() (int, token.Token) {
		pos, tok, _ := s.Scan()
		return file.Offset(pos), tok
	}
	// skipGroup consumes tokens up to the brace closing an opened one and
	// returns its offset.
	skipGroup := func() (int, bool) {
		depth := 1
		for {
			off, tok := next()
			switch tok {
			case token.EOF:
				return 0, false
			case token.LBRACE:
				depth++
			case token.RBRACE:
				depth--
				if depth == 0 {
					return off, true
				}
			}
		}
	}
	braces := 0
	for {
		_, tok := next()
		switch tok {
		case token.EOF:
			return out
		case token.LBRACE:
			braces++
			continue
		case token.RBRACE:
			braces--
			continue
		case token.FUNC:
			if braces != 0 {
				continue
			}
		default:
			continue
		}
		// a top-level func: find its body's opening brace
		parens := 0
	sig:
		for {
			off, tok := next()
			switch tok {
			case token.EOF:
				return out
			case token.LPAREN, token.LBRACK:
				parens++
			case token.RPAREN, token.RBRACK:
				parens--
			case token.STRUCT, token.INTERFACE:
				if parens == 0 {
					if _, t := next(); t == token.LBRACE {
						if _, ok := skipGroup(); !ok {
							return out
						}
					}
				}
			case token.SEMICOLON:
				if parens == 0 {
					break sig // no body (assembly)
				}
			case token.LBRACE:
				if parens != 0 {
					continue
				}
				end, ok := skipGroup()
				if !ok {
					return out
				}
				for i := off + 1; i < end; i++ {
					if out[i] != '\n' {
						out[i] = ' '
					}
				}
				break sig
			}
		}
	}
}
