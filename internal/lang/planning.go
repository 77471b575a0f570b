package lang

import "github.com/ripple-dev/ripple/internal/model"

// ResultReader is an optional capability of a Declarer: telling the fix
// engine which callee an oracle diagnostic blames. A developer's edit
// that now takes one more value from a helper (`a, b, rest :=
// split(s)`, `return parse(s)` from a function whose result gained an
// error) leaves the helper to follow: the diagnostic stands at the
// developer's call, which is never reverted, so the engine plans the
// callee instead of the caller.
type ResultReader interface {
	// ResultMisfit reads a diagnostic of the language's oracle at line of
	// the file path (src its source): ok when it says that what a call
	// on that line returns does not fit how the line uses it (the number
	// of values, or their type, in an assignment, a declaration or a
	// return; never an argument, whose misfit may be the parameter's).
	// The callee is named as the call writes it: Qualifier is the
	// import name or the receiver variable qualifying it ("" for a name
	// of the file's own scope), Name the function or method, Type
	// empty.
	ResultMisfit(path string, src []byte, line int, message string) (callee Missing, ok bool)
}

// TopLevel is an optional capability of a BlockEditor: letting the fix
// engine's model edit code outside any declaration (a Python module's
// statements, a call under `if __name__ == "__main__":`, a TypeScript
// module's top-level statements). A finding there is planned as one
// block per top-level statement.
type TopLevel interface {
	// Statement is the span of the top-level statement of src holding
	// line, and a short name for it ("if __name__ == \"__main__\"", the
	// statement's first line, trimmed): ok is false when line lies in a
	// declaration, in no statement, or src does not parse.
	Statement(path string, src []byte, line int) (span model.Span, name string, ok bool)
	// CheckStatement judges a replacement of a top-level statement:
	// src (the whole file after it) parses, and lines [from, to] hold
	// top-level statements only, no declaration that Decls would give.
	CheckStatement(path string, src []byte, from, to int) error
}
