package lang

import "github.com/ripple-dev/ripple/internal/model"

// EditBytes is the edit that replaces src[start:end] of the file at path
// with text, in model.TextEdit's terms (1-based lines, 1-based byte
// columns): what a front-end whose parser gives byte offsets (the
// tree-sitter ones) suggests as a fix.
func EditBytes(path string, src []byte, start, end int, text string) model.TextEdit {
	sl, sc := LineCol(src, start)
	el, ec := LineCol(src, end)
	return model.TextEdit{Path: path, StartLine: sl, StartCol: sc, EndLine: el, EndCol: ec, NewText: text}
}

// LineCol is the 1-based line and byte column of offset off in src.
func LineCol(src []byte, off int) (int, int) {
	line, start := 1, 0
	for i := 0; i < off && i < len(src); i++ {
		if src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, off - start + 1
}
