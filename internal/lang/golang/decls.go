package golang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"path"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// param is one parameter or result: its name ("" when unnamed) and type.
type param struct {
	Name string
	Type string
}

// funcInfo is the Go-specific part of a function, method or interface
// method declaration.
type funcInfo struct {
	Recv       string // receiver base type name
	RecvPtr    bool
	TypeParams string
	Params     []param
	Results    []param
	Variadic   bool
	Constructs string // for NewT-style constructors: the type constructed
	Decl       *ast.FuncDecl
	File       *ast.File
	Fset       *token.FileSet
}

// fieldInfo describes a struct field.
type fieldInfo struct {
	Type     string
	Tag      string
	Names    map[string]string // encoding key ("json") -> name
	Embedded bool
	Index    int // position among the struct's fields
}

// typeInfo describes a named type.
type typeInfo struct {
	Underlying string // "struct", "interface" or the underlying type text
	Alias      bool
	TypeParams string
	Embeds     []string // embedded types (struct or interface), as written
	Methods    []string // interface methods, in order
	Fields     []string // struct field names, in order
}

// encodingKeys are the struct tag keys whose names are part of a field's
// contract with serialized data.
var encodingKeys = []string{"json", "yaml", "xml", "toml", "db", "bson", "mapstructure", "msgpack", "protobuf", "form", "query", "env", "hcl", "cty"}

// parseMode is how a whole Go file is parsed: its identifiers are
// resolved by resolveFile, when needed, not by the parser.
const parseMode = parser.ParseComments | parser.AllErrors | parser.SkipObjectResolution

// decls parses one state of a Go file into declarations.
func decls(p string, src []byte) ([]*lang.Decl, *model.Diagnostic) {
	var diag *model.Diagnostic
	if clean, bad := validUTF8(src); bad > 0 {
		// go/parser gives up early on invalid UTF-8 (a Latin-1 byte in a
		// comment); the file is read with those bytes replaced, and says so
		src = clean
		diag = &model.Diagnostic{Path: p, Message: fmt.Sprintf("%d bytes of invalid UTF-8 read as '?'", bad)}
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, src, parseMode)
	if err != nil {
		diag = parseDiag(p, err)
		if f == nil || f.Name == nil {
			return nil, diag
		}
	}

	dir := path.Dir(p)
	if dir == "." {
		dir = ""
	}
	b := &declBuilder{fset: fset, file: f, src: src, path: p, dir: dir, unit: f.Name.Name}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			b.funcDecl(d)
		case *ast.GenDecl:
			b.genDecl(d)
		}
	}
	return b.out, diag
}

func parseDiag(p string, err error) *model.Diagnostic {
	msg := err.Error()
	line := 0
	if el, ok := err.(scanner.ErrorList); ok && len(el) > 0 {
		line = el[0].Pos.Line
		msg = el[0].Msg
		if len(el) > 1 {
			msg += " (and " + strconv.Itoa(len(el)-1) + " more errors)"
		}
	}
	return &model.Diagnostic{Path: p, Line: line, Message: "does not parse: " + msg + "; declarations after the error may be missed", Partial: true}
}

type declBuilder struct {
	fset *token.FileSet
	file *ast.File
	src  []byte
	path string
	dir  string
	unit string
	out  []*lang.Decl
}

func (b *declBuilder) line(pos token.Pos) int { return b.fset.PositionFor(pos, false).Line }

func (b *declBuilder) block(kind model.Kind, container, name, display string, node ast.Node, namePos token.Pos) model.Block {
	return model.Block{
		Lang: "go", Kind: kind, Path: b.path, Package: b.dir, Unit: b.unit,
		Container: container, Name: name, Display: display,
		Span:     model.Span{StartLine: b.line(node.Pos()), EndLine: b.line(node.End())},
		NameLine: b.line(namePos),
	}
}

// text returns the source between two positions.
func (b *declBuilder) text(from, to token.Pos) string {
	s, e := b.fset.PositionFor(from, false).Offset, b.fset.PositionFor(to, false).Offset
	if s < 0 || e > len(b.src) || s > e {
		return ""
	}
	return string(b.src[s:e])
}

// tokens is the canonical form of a stretch of source: its tokens
// separated by spaces, comments and layout dropped.
func tokens(src []byte) string { return tokensRenamed(src, nil) }

// tokensRenamed is tokens with some identifiers replaced (a function's
// parameters by their positions, so that renaming a parameter does not
// change the body's fingerprint).
func tokensRenamed(src []byte, rename map[string]string) string {
	var s scanner.Scanner
	fs := token.NewFileSet()
	file := fs.AddFile("", -1, len(src))
	s.Init(file, src, nil, 0)
	var toks []string
	var kinds []token.Token
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON {
			continue // separators: explicit or not, layout is not a change
		}
		switch {
		case tok == token.IDENT && rename[lit] != "":
			lit = rename[lit]
		case lit == "":
			lit = tok.String()
		}
		// a trailing comma before a closing bracket is layout too
		if (tok == token.RBRACK || tok == token.RPAREN || tok == token.RBRACE) && len(kinds) > 0 && kinds[len(kinds)-1] == token.COMMA {
			toks, kinds = toks[:len(toks)-1], kinds[:len(kinds)-1]
		}
		toks = append(toks, lit)
		kinds = append(kinds, tok)
	}
	if len(kinds) > 0 && kinds[len(kinds)-1] == token.COMMA {
		toks = toks[:len(toks)-1] // the end of a bracketed range
	}
	return strings.Join(toks, " ")
}

// compact makes a token stream readable again for messages: no space
// before a comma or a closing bracket, nor after an opening one.
func compact(s string) string {
	r := strings.NewReplacer(" ,", ",", " ]", "]", " )", ")", "[ ", "[", "( ", "(")
	return r.Replace(s)
}

func (b *declBuilder) tokensBetween(from, to token.Pos) string {
	s, e := b.fset.PositionFor(from, false).Offset, b.fset.PositionFor(to, false).Offset
	if s < 0 || e > len(b.src) || s > e {
		return ""
	}
	return tokens(b.src[s:e])
}

func (b *declBuilder) tokensRenamedOf(n ast.Node, rename map[string]string) string {
	s, e := b.fset.PositionFor(n.Pos(), false).Offset, b.fset.PositionFor(n.End(), false).Offset
	if s < 0 || e > len(b.src) || s > e {
		return ""
	}
	return tokensRenamed(b.src[s:e], rename)
}

func (b *declBuilder) tokensOf(n ast.Node) string {
	s, e := b.fset.PositionFor(n.Pos(), false).Offset, b.fset.PositionFor(n.End(), false).Offset
	if s < 0 || e > len(b.src) || s > e {
		return ""
	}
	return tokens(b.src[s:e])
}

func exprString(e ast.Expr) string {
	if e == nil {
		return ""
	}
	return types.ExprString(e)
}

func fieldList(fl *ast.FieldList) (ps []param, variadic bool) {
	if fl == nil {
		return nil, false
	}
	for _, f := range fl.List {
		t := f.Type
		if el, ok := t.(*ast.Ellipsis); ok {
			variadic = true
			ts := "..." + canonType(el.Elt)
			if len(f.Names) == 0 {
				ps = append(ps, param{Type: ts})
			}
			for _, n := range f.Names {
				ps = append(ps, param{Name: n.Name, Type: ts})
			}
			continue
		}
		ts := canonType(t)
		if len(f.Names) == 0 {
			ps = append(ps, param{Type: ts})
		}
		for _, n := range f.Names {
			ps = append(ps, param{Name: n.Name, Type: ts})
		}
	}
	return ps, variadic
}

func namedOf(ps []param) string {
	ts := make([]string, len(ps))
	for i, p := range ps {
		ts[i] = p.Name + " " + p.Type
	}
	return strings.Join(ts, ", ")
}

func typesOf(ps []param) string {
	ts := make([]string, len(ps))
	for i, p := range ps {
		ts[i] = p.Type
	}
	return strings.Join(ts, ", ")
}

// recvBase returns the receiver's base type name and whether it is a
// pointer: (*T[K]) -> T, true.
func recvBase(e ast.Expr) (string, bool) {
	ptr := false
	if s, ok := e.(*ast.StarExpr); ok {
		ptr, e = true, s.X
	}
	switch t := e.(type) {
	case *ast.IndexExpr:
		e = t.X
	case *ast.IndexListExpr:
		e = t.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name, ptr
	}
	return "", ptr
}

func (b *declBuilder) funcDecl(d *ast.FuncDecl) {
	fi := &funcInfo{Decl: d, File: b.file, Fset: b.fset}
	fi.Params, fi.Variadic = fieldList(d.Type.Params)
	fi.Results, _ = fieldList(d.Type.Results)
	if d.Type.TypeParams != nil {
		fi.TypeParams = canonTypeParams(d.Type.TypeParams)
	}
	kind := model.KindFunc
	display := "func " + d.Name.Name
	if d.Recv != nil && len(d.Recv.List) > 0 {
		fi.Recv, fi.RecvPtr = recvBase(d.Recv.List[0].Type)
		kind = model.KindMethod
		if fi.RecvPtr {
			display = "func (*" + fi.Recv + ")." + d.Name.Name
		} else {
			display = "func (" + fi.Recv + ")." + d.Name.Name
		}
	} else if t := constructedType(d); t != "" {
		kind = model.KindConstructor
		fi.Constructs = t
	}
	// parameter names are part of the fingerprint so that a permutation of
	// same-typed parameters is seen; a plain rename yields no details and
	// counts as no change (diffclassify)
	sig := "func" + fi.TypeParams + "(" + namedOf(fi.Params) + ")(" + typesOf(fi.Results) + ")"
	if fi.Recv != "" {
		sig = "recv " + strconv.FormatBool(fi.RecvPtr) + " " + sig
	}
	body := ""
	if d.Body != nil {
		// parameters by position: a renamed parameter is not a body change
		rename := map[string]string{}
		for i, p := range fi.Params {
			if p.Name != "" && p.Name != "_" {
				rename[p.Name] = "$" + strconv.Itoa(i)
			}
		}
		if d.Recv != nil && len(d.Recv.List) > 0 && len(d.Recv.List[0].Names) > 0 {
			rename[d.Recv.List[0].Names[0].Name] = "$recv"
		}
		body = b.tokensRenamedOf(d.Body, rename)
	}
	blk := b.block(kind, fi.Recv, d.Name.Name, display, d, d.Name.Pos())
	end := d.Type.End()
	blk.Signature = strings.TrimSpace(b.text(d.Pos(), end))
	b.out = append(b.out, &lang.Decl{Block: blk.WithData(fi), Sig: sig, Body: body})
}

// constructedType recognises constructor-like functions: NewT or New
// returning T or *T (possibly with an error), where T is a type of this
// package.
func constructedType(d *ast.FuncDecl) string {
	if !strings.HasPrefix(d.Name.Name, "New") || d.Type.Results == nil || len(d.Type.Results.List) == 0 {
		return ""
	}
	t := d.Type.Results.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	id, ok := t.(*ast.Ident)
	if !ok || !ast.IsExported(id.Name) && !token.IsIdentifier(id.Name) {
		return ""
	}
	if types.Universe.Lookup(id.Name) != nil {
		return ""
	}
	return id.Name
}

func (b *declBuilder) genDecl(d *ast.GenDecl) {
	for _, spec := range d.Specs {
		switch s := spec.(type) {
		case *ast.ImportSpec:
			p, _ := strconv.Unquote(s.Path.Value)
			name := ""
			if s.Name != nil {
				name = s.Name.Name
			}
			blk := b.block(model.KindImport, "", p, "import "+s.Path.Value, s, s.Pos())
			blk.Unit = b.path // imports are per file
			b.out = append(b.out, &lang.Decl{Block: blk.WithData(s), Sig: "name " + name})
		case *ast.TypeSpec:
			b.typeSpec(d, s)
		case *ast.ValueSpec:
			kind, word := model.KindVar, "var "
			if d.Tok == token.CONST {
				kind, word = model.KindConst, "const "
			}
			for i, n := range s.Names {
				if n.Name == "_" {
					continue
				}
				var node ast.Node = s
				if len(d.Specs) == 1 {
					node = d
				}
				blk := b.block(kind, "", n.Name, word+n.Name, node, n.Pos())
				sig := exprString(s.Type)
				body := ""
				if i < len(s.Values) {
					body = b.tokensOf(s.Values[i])
				} else if len(s.Values) == 1 && len(s.Names) > 1 {
					body = b.tokensOf(s.Values[0]) + " #" + strconv.Itoa(i)
				}
				if kind == model.KindConst && s.Type == nil && len(s.Values) == 0 {
					body = "iota-repeat" // implicit repetition in a const group
				}
				if s.Type != nil {
					blk.Signature = word + n.Name + " " + sig
				} else {
					blk.Signature = word + n.Name
				}
				b.out = append(b.out, &lang.Decl{Block: blk.WithData(s), Sig: sig, Body: body})
			}
		}
	}
}

func (b *declBuilder) typeSpec(d *ast.GenDecl, s *ast.TypeSpec) {
	ti := &typeInfo{Alias: s.Assign.IsValid()}
	if s.TypeParams != nil {
		ti.TypeParams = canonTypeParams(s.TypeParams)
	}
	var node ast.Node = s
	if len(d.Specs) == 1 {
		node = d
	}
	name := s.Name.Name
	kind := model.KindType
	display := "type " + name
	switch t := s.Type.(type) {
	case *ast.StructType:
		ti.Underlying = "struct"
		for i, f := range t.Fields.List {
			b.field(name, i, f, ti)
		}
	case *ast.InterfaceType:
		ti.Underlying = "interface"
		kind = model.KindInterface
		for _, m := range t.Methods.List {
			ft, isFunc := m.Type.(*ast.FuncType)
			if !isFunc || len(m.Names) == 0 {
				ti.Embeds = append(ti.Embeds, exprString(m.Type))
				continue
			}
			for _, n := range m.Names {
				ti.Methods = append(ti.Methods, n.Name)
				fi := &funcInfo{Recv: name, File: b.file, Fset: b.fset}
				fi.Params, fi.Variadic = fieldList(ft.Params)
				fi.Results, _ = fieldList(ft.Results)
				sig := "func(" + typesOf(fi.Params) + ")(" + typesOf(fi.Results) + ")"
				blk := b.block(model.KindIfaceMethod, name, n.Name, "method "+name+"."+n.Name, m, n.Pos())
				blk.Signature = strings.TrimSpace(b.text(m.Pos(), m.End()))
				b.out = append(b.out, &lang.Decl{Block: blk.WithData(fi), Sig: sig})
			}
		}
	default:
		ti.Underlying = exprString(s.Type)
	}
	sig := ti.Underlying + ti.TypeParams
	if ti.Alias {
		sig = "= " + sig
	}
	if len(ti.Embeds) > 0 && ti.Underlying == "interface" {
		// an interface's embeddings are part of its method set; a struct's
		// embedded fields are fields, with declarations of their own
		sig += " embeds " + strings.Join(ti.Embeds, ",")
	}
	blk := b.block(kind, "", name, display, node, s.Name.Pos())
	blk.Signature = "type " + name + ti.TypeParams + " " + headerOf(ti.Underlying)
	b.out = append(b.out, &lang.Decl{Block: blk.WithData(ti), Sig: sig})
}

func headerOf(underlying string) string {
	switch underlying {
	case "struct":
		return "struct{...}"
	case "interface":
		return "interface{...}"
	}
	return underlying
}

func (b *declBuilder) field(typeName string, index int, f *ast.Field, ti *typeInfo) {
	fi := &fieldInfo{Type: canonType(f.Type), Index: index}
	if f.Tag != nil {
		fi.Tag, _ = strconv.Unquote(f.Tag.Value)
		fi.Names = encodingNames(fi.Tag)
	}
	names := f.Names
	if len(names) == 0 {
		// embedded field: named after its type
		fi.Embedded = true
		base, _ := recvBase(f.Type)
		if sel, ok := unstar(f.Type).(*ast.SelectorExpr); ok {
			base = sel.Sel.Name
		}
		if base == "" {
			return
		}
		ti.Embeds = append(ti.Embeds, exprString(f.Type))
		names = []*ast.Ident{{Name: base, NamePos: f.Type.Pos()}}
	}
	for _, n := range names {
		ti.Fields = append(ti.Fields, n.Name)
		sig := fi.Type
		if len(fi.Names) > 0 {
			keys := make([]string, 0, len(fi.Names))
			for _, k := range encodingKeys {
				if v, ok := fi.Names[k]; ok {
					keys = append(keys, k+":"+v)
				}
			}
			sig += " `" + strings.Join(keys, " ") + "`"
		}
		if fi.Embedded {
			sig = "embedded " + sig
		}
		blk := b.block(model.KindField, typeName, n.Name, "field "+typeName+"."+n.Name, f, n.Pos())
		blk.Signature = strings.TrimSpace(b.text(f.Pos(), f.End()))
		b.out = append(b.out, &lang.Decl{Block: blk.WithData(fi), Sig: sig})
	}
}

func unstar(e ast.Expr) ast.Expr {
	if s, ok := e.(*ast.StarExpr); ok {
		return s.X
	}
	return e
}

// encodingNames extracts the serialized name of a field per encoding key
// ("json:\"name,omitempty\"" -> json: name).
func encodingNames(tag string) map[string]string {
	st := reflect.StructTag(tag)
	m := map[string]string{}
	for _, k := range encodingKeys {
		if v, ok := st.Lookup(k); ok {
			name, _, _ := strings.Cut(v, ",")
			m[k] = name
		}
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// validUTF8 returns src with every byte that is not part of a valid UTF-8
// sequence replaced by '?', one byte for one, so that offsets and lines
// are unchanged, and how many bytes were replaced.
func validUTF8(src []byte) ([]byte, int) {
	if utf8.Valid(src) {
		return src, 0
	}
	out := make([]byte, 0, len(src))
	bad := 0
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n <= 1 {
			out = append(out, '?')
			bad++
			i++
			continue
		}
		out = append(out, src[i:i+n]...)
		i += n
	}
	return out, bad
}
