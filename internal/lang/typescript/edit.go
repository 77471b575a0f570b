package typescript

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// The fix engine's block edits (lang.BlockEditor): a model's reply
// replaces one planned block (a function, a method, a class) and may
// open with the import declarations the new block needs.

// CheckBlock judges a block replacement: the file still parses (no
// syntax error inside the block, and none the block brings to the rest
// of the file: the grammar's own gaps in untouched code are tolerated),
// no declaration crosses the block's edges, and the block's lines hold
// exactly one outermost declaration, the one named block.
func (fe *Frontend) CheckBlock(path string, src []byte, block string, from, to int) error {
	if !treesit.Available {
		return fmt.Errorf("%s", noCgo)
	}
	t := parse(path, src)
	if t.Errors > 0 {
		if l := badLineIn(t.Root, from, to); l > 0 {
			return fmt.Errorf("the file no longer parses: a syntax error at line %d, inside the block", l)
		}
		if rest := parse(path, blankLines(src, from, to)); t.Errors > rest.Errors {
			return fmt.Errorf("the file no longer parses: the block leaves a syntax error at line %d", t.ErrLine)
		}
	}
	if member, err := checkObjectMember(t.Root, block, from, to); member {
		return err
	}
	var kept []*lang.Decl
	for _, d := range decls(summarize(path, t)) {
		if d.Kind == model.KindField && d.Container != "" && d.Data.(*declData).kind != dField {
			continue // interface and enum members lie inside their type
		}
		kept = append(kept, d)
	}
	only, err := lang.OnlyDecl(kept, block, from, to, "declarations", qualName)
	if err != nil {
		return err
	}
	if l := strayLine(t.Root, from, to, only.Span); l > 0 {
		return fmt.Errorf("line %d of the new block lies outside %s", l, only.Display)
	}
	return nil
}

// strayLine is the first line of [from, to] where a statement (or a
// class member) other than the declaration spanning in stands, 0 when
// none: the block holds nothing but its declaration and comments.
func strayLine(root *treesit.Node, from, to int, in model.Span) int {
	for _, k := range root.Kids {
		s, e := int(k.Line), int(k.EndLine)
		if !k.Named || k.Kind == "comment" || e < from || s > to {
			continue
		}
		if s >= in.StartLine && e <= in.EndLine {
			continue
		}
		if s < from && e > to {
			// a class around the block: its members
			if body := classBody(k); body != nil {
				return strayLine(body, from, to, in)
			}
		}
		return max(s, from)
	}
	return 0
}

// classBody is the body of a class statement (exported or not).
func classBody(st *treesit.Node) *treesit.Node {
	if st.Kind == "export_statement" {
		if d := st.Child("declaration"); d != nil {
			st = d
		}
	}
	switch st.Kind {
	case "class_declaration", "abstract_class_declaration":
		return st.Child("body")
	}
	return nil
}

// qualName drops the kind word of a block's name: "method C.m" -> "C.m"
// (an accessor is a method to the planner and a property here).
func qualName(display string) string {
	if _, rest, ok := strings.Cut(display, " "); ok {
		return rest
	}
	return display
}

// badLineIn is the first line of [from, to] holding an ERROR or MISSING
// node, 0 when none.
func badLineIn(root *treesit.Node, from, to int) int {
	first := 0
	treesit.Walk(root, func(n *treesit.Node) bool {
		if int(n.EndLine) < from || int(n.Line) > to || first > 0 {
			return false
		}
		if n.Bad {
			first = max(int(n.Line), from)
			return false
		}
		return true
	})
	return first
}

// blankLines returns src with the lines [from, to] blanked (their bytes
// spaces, line breaks kept): the rest of the file as the block found it.
func blankLines(src []byte, from, to int) []byte {
	out := bytes.Clone(src)
	line := 1
	for i, c := range out {
		if c == '\n' {
			line++
			continue
		}
		if line >= from && line <= to {
			out[i] = ' '
		}
	}
	return out
}

// SplitImports separates the import declarations a reply opens with
// (`import { a } from 'x';`, over several lines too, `import x =
// require('x');`) from the block.
func (fe *Frontend) SplitImports(code string) ([]string, string, error) {
	lines := strings.SplitAfter(code, "\n")
	var imports []string
	i := 0
	for i < len(lines) {
		l := strings.TrimSpace(lines[i])
		if l == "" {
			i++
			continue
		}
		if !strings.HasPrefix(l, "import ") && !strings.HasPrefix(l, "import{") && !strings.HasPrefix(l, "import'") && !strings.HasPrefix(l, `import"`) {
			break
		}
		// the statement may span lines: take lines until they parse
		// as one import declaration
		end := -1
		for k := i; k < len(lines) && k < i+40; k++ {
			if isImportDecl(strings.Join(lines[i:k+1], "")) {
				end = k
				break
			}
		}
		if end < 0 {
			return nil, "", fmt.Errorf("the reply opens with an import that does not parse: %s", l)
		}
		imports = append(imports, strings.TrimSpace(strings.Join(lines[i:end+1], "")))
		i = end + 1
	}
	if len(imports) == 0 {
		return nil, code, nil
	}
	return imports, strings.Join(lines[i:], ""), nil
}

// isImportDecl reports whether code is exactly one import declaration
// that parses.
func isImportDecl(code string) bool {
	if !treesit.Available {
		return false
	}
	t := parse("import.ts", []byte(code))
	var stmts []*treesit.Node
	for _, k := range t.Root.NamedKids() {
		if k.Kind != "comment" {
			stmts = append(stmts, k)
		}
	}
	return t.Errors == 0 && len(stmts) == 1 && stmts[0].Kind == "import_statement"
}

// AddImports adds the import declarations src lacks after its last
// top-level import (else after a shebang, leading comments and
// directive prologue such as 'use client'), and returns how many lines
// it inserted. A declaration binding names the file already imports
// from the same module in the same way adds only the others; one
// binding a name the file binds otherwise is an error.
func (fe *Frontend) AddImports(src []byte, imports []string) ([]byte, int, error) {
	if len(imports) == 0 {
		return src, 0, nil
	}
	if !treesit.Available {
		return nil, 0, fmt.Errorf("%s", noCgo)
	}
	// the grammar that reads JSX also reads the imports of any file
	t := parse("file.tsx", src)
	f := summarize("file.tsx", t)
	var add []string
	for _, im := range imports {
		text, err := missingImport(f, im)
		if err != nil {
			return nil, 0, err
		}
		if text != "" && !contains(add, text) {
			add = append(add, text)
		}
	}
	if len(add) == 0 {
		return src, 0, nil
	}
	at := importLine(t)
	lines := strings.SplitAfter(string(src), "\n")
	if at > len(lines) {
		at = len(lines)
	}
	block := strings.Join(add, "\n") + "\n"
	if at > 0 && !strings.HasSuffix(lines[at-1], "\n") {
		block = "\n" + block
	}
	out := strings.Join(lines[:at], "") + block + strings.Join(lines[at:], "")
	return []byte(out), strings.Count(block, "\n"), nil
}

// importLine is the number of lines before where new imports go: after
// the last top-level import, else after the file's header (shebang,
// comments, directives).
func importLine(t *treesit.Tree) int {
	last, header := 0, 0
	inHeader := true
	for _, k := range t.Root.Kids {
		if k.Bad {
			inHeader = false
			continue
		}
		switch {
		case k.Kind == "import_statement":
			last = int(k.EndLine)
			inHeader = false
		case inHeader && (k.Kind == "comment" || k.Kind == "hash_bang_line" || k.Kind == "expression_statement" && directive(k)):
			header = int(k.EndLine)
		case k.Named:
			inHeader = false
		}
	}
	if last > 0 {
		return last
	}
	return header
}

// directive reports a directive-prologue statement ('use strict').
func directive(st *treesit.Node) bool {
	ks := st.NamedKids()
	return len(ks) == 1 && ks[0].Kind == "string"
}

// missingImport returns the part of import declaration im that file f
// does not have yet ("" for none), or an error when it binds a name f
// binds to something else.
func missingImport(f *tsfile, im string) (string, error) {
	if !isImportDecl(im) {
		return "", fmt.Errorf("not an import declaration: %s", im)
	}
	nf := summarize("import.ts", parse("import.ts", []byte(im)))
	if len(nf.imports) == 0 {
		// a side-effect import: once
		want := treesit.Compact(nf.t.Root.FirstOf("import_statement"))
		for _, k := range f.t.Root.Kids {
			if k.Kind == "import_statement" && treesit.Compact(k) == want {
				return "", nil
			}
		}
		return strings.TrimSpace(im), nil
	}
	var locals []string
	for l := range nf.imports {
		locals = append(locals, l)
	}
	sort.Strings(locals)
	var missing []*binding
	for _, l := range locals {
		b := nf.imports[l]
		have := f.imports[l]
		switch {
		case have == nil && !f.declares(l):
			missing = append(missing, b)
		case have != nil && have.spec == b.spec && have.name == b.name:
			// already there
		default:
			return "", fmt.Errorf("the import of %s from %s clashes with the file's own %s", l, b.spec, l)
		}
	}
	switch {
	case len(missing) == 0:
		return "", nil
	case len(missing) == len(nf.imports):
		return strings.TrimSpace(im), nil
	}
	// some names are there: import the others only
	var named []string
	var other []string
	typ := ""
	for _, b := range missing {
		switch b.name {
		case "default":
			other = append(other, "import "+b.local+" from '"+b.spec+"';")
		case "*":
			other = append(other, "import * as "+b.local+" from '"+b.spec+"';")
		default:
			s := b.name
			if b.local != b.name {
				s += " as " + b.local
			}
			if b.typ {
				typ = "type "
			}
			named = append(named, s)
		}
	}
	if len(named) > 0 {
		other = append(other, "import "+typ+"{ "+strings.Join(named, ", ")+" } from '"+missing[0].spec+"';")
	}
	return strings.Join(other, "\n"), nil
}

// IsComment reports a line that is a comment, or part of a block
// comment.
func (fe *Frontend) IsComment(line string) bool {
	l := strings.TrimSpace(line)
	return strings.HasPrefix(l, "//") || strings.HasPrefix(l, "/*") || strings.HasPrefix(l, "*")
}

// IsDirective reports a comment that instructs a tool: the compiler
// (@ts-ignore, @ts-expect-error, triple-slash references), a linter or
// formatter (eslint-disable, prettier-ignore, biome-ignore), coverage
// (istanbul ignore, c8 ignore), a JSX pragma.
func (fe *Frontend) IsDirective(line string) bool {
	return tsDirectiveRE.MatchString(strings.TrimSpace(line))
}

var tsDirectiveRE = regexp.MustCompile(`^(///\s*<reference|(//|/\*+)\s*(@ts-|eslint-|eslint |prettier-ignore|biome-ignore|istanbul ignore|c8 ignore|@jsx|tslint:|jshint|global |@refresh|webpackIgnore|@vite-ignore))`)
