package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// tref names a declared type: its package key and name.
type tref struct {
	pkg, name string
}

// typeSym is what the syntactic tier knows of a named type.
type typeSym struct {
	file    *pfile
	spec    *ast.TypeSpec
	fields  map[string]fieldSym
	embeds  []fieldSym
	methods map[string]*funcSym
	iface   map[string]*ast.Field // interface methods
	ifaceEm []fieldSym            // embedded interfaces
}

type fieldSym struct {
	file *pfile
	expr ast.Expr
}

type funcSym struct {
	file *pfile
	decl *ast.FuncDecl
}

// pkgSyms are the package-level declarations of one package, read from
// the files parsed so far.
type pkgSyms struct {
	name  string // package name
	types map[string]*typeSym
	funcs map[string]*funcSym
	vars  map[string]fieldSym // type expression, or value when untyped
	vals  map[string]bool     // vars whose fieldSym is a value, not a type
}

// symbols indexes the parsed files by package key.
type symbols struct {
	pkgs map[string]*pkgSyms
	// std holds the standard library packages read for their members
	// (stdPkg): a type the repository embeds (fmt.Stringer) is known
	std map[string]*pkgSyms
}

func newSymbols() *symbols { return &symbols{pkgs: map[string]*pkgSyms{}, std: map[string]*pkgSyms{}} }

// stdPkg returns the declarations of a standard library package, read
// from GOROOT's sources once (non-test files, bodies skipped, every
// build configuration's files together: a union of members), or nil
// for a path that is not the standard library's.
func (s *symbols) stdPkg(path string) *pkgSyms {
	if p, ok := s.std[path]; ok {
		return p
	}
	s.std[path] = nil
	first, _, _ := strings.Cut(path, "/")
	root := toolchainEnv().goroot
	if strings.Contains(first, ".") || root == "" || strings.Contains(path, "internal") {
		return nil
	}
	dir := filepath.Join(root, "src", filepath.FromSlash(path))
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	tmp := &symbols{pkgs: map[string]*pkgSyms{}}
	fset := token.NewFileSet()
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil || af.Name == nil || af.Name.Name == "main" || af.Name.Name == "documentation" {
			continue
		}
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				fd.Body = nil
			}
		}
		f := &pfile{path: path + "/" + n, dir: path, ast: af, pkgName: af.Name.Name, pkgKey: path, imports: map[string]string{}}
		for _, im := range af.Imports {
			ip, _ := strconv.Unquote(im.Path.Value)
			switch {
			case im.Name == nil:
				f.imports[defaultImportName(ip)] = ip
			case im.Name.Name != "_" && im.Name.Name != ".":
				f.imports[im.Name.Name] = ip
			}
		}
		tmp.add(f)
	}
	p := tmp.pkgs[path]
	s.std[path] = p
	return p
}

// lookupAny is lookupType, falling back to the standard library.
func (s *symbols) lookupAny(t *tref) *typeSym {
	if ts := s.lookupType(t); ts != nil || t == nil || s.pkgs[t.pkg] != nil {
		return ts
	}
	if p := s.stdPkg(t.pkg); p != nil {
		if ts := p.types[t.name]; ts != nil && ts.spec != nil {
			return ts
		}
	}
	return nil
}

func (s *symbols) pkg(key string) *pkgSyms {
	p := s.pkgs[key]
	if p == nil {
		p = &pkgSyms{types: map[string]*typeSym{}, funcs: map[string]*funcSym{}, vars: map[string]fieldSym{}, vals: map[string]bool{}}
		s.pkgs[key] = p
	}
	return p
}

func (p *pkgSyms) typ(name string) *typeSym {
	t := p.types[name]
	if t == nil {
		t = &typeSym{fields: map[string]fieldSym{}, methods: map[string]*funcSym{}, iface: map[string]*ast.Field{}}
		p.types[name] = t
	}
	return t
}

// add records a file's package-level declarations.
func (s *symbols) add(f *pfile) {
	p := s.pkg(f.pkgKey)
	p.name = f.pkgName
	for _, d := range f.ast.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) > 0 {
				base, _ := recvBase(d.Recv.List[0].Type)
				if base != "" {
					p.typ(base).methods[d.Name.Name] = &funcSym{f, d}
				}
				continue
			}
			p.funcs[d.Name.Name] = &funcSym{f, d}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch sp := spec.(type) {
				case *ast.TypeSpec:
					t := p.typ(sp.Name.Name)
					t.file, t.spec = f, sp
					switch st := sp.Type.(type) {
					case *ast.StructType:
						for _, fl := range st.Fields.List {
							if len(fl.Names) == 0 {
								t.embeds = append(t.embeds, fieldSym{f, fl.Type})
								if n := embeddedName(fl.Type); n != "" {
									t.fields[n] = fieldSym{f, fl.Type}
								}
							}
							for _, n := range fl.Names {
								t.fields[n.Name] = fieldSym{f, fl.Type}
							}
						}
					case *ast.InterfaceType:
						for _, m := range st.Methods.List {
							if len(m.Names) == 0 {
								t.ifaceEm = append(t.ifaceEm, fieldSym{f, m.Type})
							}
							for _, n := range m.Names {
								t.iface[n.Name] = m
							}
						}
					}
				case *ast.ValueSpec:
					for i, n := range sp.Names {
						switch {
						case sp.Type != nil:
							p.vars[n.Name] = fieldSym{f, sp.Type}
						case i < len(sp.Values):
							p.vars[n.Name] = fieldSym{f, sp.Values[i]}
							p.vals[n.Name] = true
						}
					}
				}
			}
		}
	}
}

func embeddedName(e ast.Expr) string {
	e = unstar(e)
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		return t.Sel.Name
	case *ast.IndexExpr:
		return embeddedName(t.X)
	case *ast.IndexListExpr:
		return embeddedName(t.X)
	}
	return ""
}

// lookupType returns the symbol of a named type, if its package was
// indexed.
func (s *symbols) lookupType(t *tref) *typeSym {
	if t == nil {
		return nil
	}
	p := s.pkgs[t.pkg]
	if p == nil {
		return nil
	}
	ts := p.types[t.name]
	if ts == nil || ts.spec == nil {
		return nil
	}
	return ts
}

// sameStruct reports whether t has the fields of container because it
// is an alias of it (type B = A, type BoolFlag = FlagBase[bool, ...]) or
// a type defined on it (type B A), through up to four such steps: its
// fields are container's, and so are its literals' keys and its
// selectors.
func (s *symbols) sameStruct(t *tref, container tref) bool {
	for range 4 {
		ts := s.lookupType(t)
		if ts == nil || ts.file == nil {
			return false
		}
		switch ts.spec.Type.(type) {
		case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr:
		default:
			return false // a type of its own (struct, interface, ...)
		}
		t = s.typeRef(ts.spec.Type, ts.file)
		if t == nil {
			return false
		}
		if *t == container {
			return true
		}
	}
	return false
}

// typeRef resolves a type expression written in file f to a named type.
func (s *symbols) typeRef(e ast.Expr, f *pfile) *tref {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
			continue
		case *ast.ParenExpr:
			e = t.X
			continue
		case *ast.IndexExpr:
			e = t.X
			continue
		case *ast.IndexListExpr:
			e = t.X
			continue
		case *ast.Ident:
			if f.scopes.local(t) {
				return nil // a type parameter or local type
			}
			if f.scopes.unresolved(t) && types.Universe.Lookup(t.Name) != nil {
				return nil
			}
			return &tref{f.pkgKey, t.Name}
		case *ast.SelectorExpr:
			if x, ok := t.X.(*ast.Ident); ok && f.scopes.unresolved(x) {
				if ip, ok := f.imports[x.Name]; ok {
					return &tref{ip, t.Sel.Name}
				}
			}
		}
		return nil
	}
}

// exprType infers the named type of an expression, syntactically: locals
// declared with a type or from a literal, parameters and receivers,
// package variables, fields and results of indexed packages. nil when it
// cannot tell.
func (s *symbols) exprType(e ast.Expr, f *pfile, depth int) *tref {
	if depth > 6 || e == nil {
		return nil
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return s.exprType(x.X, f, depth+1)
	case *ast.StarExpr:
		return s.exprType(x.X, f, depth+1)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return s.exprType(x.X, f, depth+1)
		}
	case *ast.CompositeLit:
		return s.typeRef(x.Type, f)
	case *ast.TypeAssertExpr:
		return s.typeRef(x.Type, f)
	case *ast.Ident:
		if f.scopes.local(x) {
			return s.localType(x, f, depth)
		}
		if p := s.pkgs[f.pkgKey]; p != nil {
			if v, ok := p.vars[x.Name]; ok {
				if p.vals[x.Name] {
					return s.exprType(v.expr, v.file, depth+1)
				}
				return s.typeRef(v.expr, v.file)
			}
		}
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok && f.scopes.unresolved(id) {
			if ip, ok := f.imports[id.Name]; ok {
				if p := s.pkgs[ip]; p != nil {
					if v, ok := p.vars[x.Sel.Name]; ok {
						if p.vals[x.Sel.Name] {
							return s.exprType(v.expr, v.file, depth+1)
						}
						return s.typeRef(v.expr, v.file)
					}
				}
				return nil
			}
		}
		recv := s.exprType(x.X, f, depth+1)
		if fs, ok := s.fieldOf(recv, x.Sel.Name, 0); ok {
			return s.typeRef(fs.expr, fs.file)
		}
	case *ast.CallExpr:
		return s.callResult(x, f, 0, depth)
	}
	return nil
}

// callResult infers the type of result i of a call.
func (s *symbols) callResult(c *ast.CallExpr, f *pfile, i, depth int) *tref {
	var fn *funcSym
	fun := c.Fun
	for {
		p, ok := fun.(*ast.ParenExpr)
		if !ok {
			break
		}
		fun = p.X
	}
	if st, ok := fun.(*ast.StarExpr); ok {
		return s.typeRef(st.X, f) // a conversion to a pointer type: (*T)(nil)
	}
	switch fun := fun.(type) {
	case *ast.Ident:
		if fun.Name == "new" && f.scopes.unresolved(fun) && len(c.Args) == 1 {
			return s.typeRef(c.Args[0], f)
		}
		if f.scopes.local(fun) {
			return nil
		}
		if p := s.pkgs[f.pkgKey]; p != nil {
			if ts := p.types[fun.Name]; ts != nil && ts.spec != nil {
				return &tref{f.pkgKey, fun.Name} // conversion
			}
			fn = p.funcs[fun.Name]
		}
	case *ast.SelectorExpr:
		if id, ok := fun.X.(*ast.Ident); ok && f.scopes.unresolved(id) {
			if ip, ok := f.imports[id.Name]; ok {
				p := s.pkgs[ip]
				if p == nil {
					return nil
				}
				if ts := p.types[fun.Sel.Name]; ts != nil && ts.spec != nil {
					return &tref{ip, fun.Sel.Name}
				}
				fn = p.funcs[fun.Sel.Name]
				break
			}
		}
		recv := s.exprType(fun.X, f, depth+1)
		fn = s.methodOf(recv, fun.Sel.Name, 0)
	}
	if fn == nil || fn.decl.Type.Results == nil {
		return nil
	}
	n := 0
	for _, r := range fn.decl.Type.Results.List {
		k := max(1, len(r.Names))
		if i < n+k {
			return s.typeRef(r.Type, fn.file)
		}
		n += k
	}
	return nil
}

func (s *symbols) localType(id *ast.Ident, f *pfile, depth int) *tref {
	switch d := f.scopes.lookup(id).decl.(type) {
	case *ast.Field:
		return s.typeRef(d.Type, f)
	case *ast.ValueSpec:
		if d.Type != nil {
			return s.typeRef(d.Type, f)
		}
		for i, n := range d.Names {
			if n.Name == id.Name && i < len(d.Values) {
				return s.exprType(d.Values[i], f, depth+1)
			}
		}
	case *ast.AssignStmt:
		for i, l := range d.Lhs {
			if lid, ok := l.(*ast.Ident); ok && lid.Name == id.Name {
				if len(d.Rhs) == len(d.Lhs) {
					return s.exprType(d.Rhs[i], f, depth+1)
				}
				if len(d.Rhs) == 1 {
					if c, ok := d.Rhs[0].(*ast.CallExpr); ok {
						return s.callResult(c, f, i, depth+1)
					}
					if ta, ok := d.Rhs[0].(*ast.TypeAssertExpr); ok && i == 0 {
						return s.typeRef(ta.Type, f)
					}
				}
			}
		}
	}
	return nil
}

// fieldOf finds field name of type t, through embedded fields.
func (s *symbols) fieldOf(t *tref, name string, depth int) (fieldSym, bool) {
	ts := s.lookupType(t)
	if ts == nil || depth > 4 {
		return fieldSym{}, false
	}
	if fs, ok := ts.fields[name]; ok {
		return fs, true
	}
	for _, em := range ts.embeds {
		if fs, ok := s.fieldOf(s.typeRef(em.expr, em.file), name, depth+1); ok {
			return fs, true
		}
	}
	return fieldSym{}, false
}

// methodOf finds method name of type t, through embedded fields.
func (s *symbols) methodOf(t *tref, name string, depth int) *funcSym {
	ts := s.lookupType(t)
	if ts == nil || depth > 4 {
		return nil
	}
	if m := ts.methods[name]; m != nil {
		return m
	}
	for _, em := range ts.embeds {
		if m := s.methodOf(s.typeRef(em.expr, em.file), name, depth+1); m != nil {
			return m
		}
	}
	return nil
}

// embeds reports whether type t embeds target (directly or through other
// embedded types), so that target's members are promoted to t.
func (s *symbols) embeds(t *tref, target tref, depth int) bool {
	ts := s.lookupType(t)
	if ts == nil || depth > 4 {
		return false
	}
	for _, em := range append(append([]fieldSym{}, ts.embeds...), ts.ifaceEm...) {
		r := s.typeRef(em.expr, em.file)
		if r == nil {
			continue
		}
		if *r == target || s.embeds(r, target, depth+1) {
			return true
		}
	}
	return false
}

// hasMember reports whether the head state's type t has a field or
// method named name, its own or promoted through embedding (up to a few
// levels), as the syntactic tier sees it.
func (s *symbols) hasMember(t *tref, name string, depth int) bool {
	return s.memberKind(t, name, depth) != 0
}

// memberKind is what the head state's type t has under name, its own or
// promoted: 'f' a field (an embedded one included), 'm' a method
// (interface methods included), 0 nothing the syntax sees.
func (s *symbols) memberKind(t *tref, name string, depth int) byte {
	ts := s.lookupAny(t)
	if ts == nil || depth > 4 {
		return 0
	}
	if _, ok := ts.fields[name]; ok {
		return 'f'
	}
	if _, ok := ts.methods[name]; ok {
		return 'm'
	}
	if _, ok := ts.iface[name]; ok {
		return 'm'
	}
	for _, em := range append(append([]fieldSym{}, ts.embeds...), ts.ifaceEm...) {
		r := s.typeRef(em.expr, em.file)
		if r == nil {
			continue
		}
		if r.name == name {
			return 'f' // the embedded field itself
		}
		if k := s.memberKind(r, name, depth+1); k != 0 {
			return k
		}
	}
	return 0
}

// embedsUnknown reports whether the head state's type t embeds, at some
// depth, a type the index does not hold (another module's, the standard
// library's: fmt.Stringer): a member of any name may come from it.
func (s *symbols) embedsUnknown(t *tref, depth int) bool {
	ts := s.lookupAny(t)
	if ts == nil || depth > 4 {
		return false
	}
	for _, em := range append(append([]fieldSym{}, ts.embeds...), ts.ifaceEm...) {
		r := s.typeRef(em.expr, em.file)
		if r == nil || s.pkgs[r.pkg] == nil && s.stdPkg(r.pkg) == nil {
			return true // a package the index holds nothing of
		}
		// a type an indexed package lacks is gone (dc_embedded), not
		// unknown
		if s.embedsUnknown(r, depth+1) {
			return true
		}
	}
	return false
}

// embedderHas reports whether an indexed interface that embeds target
// (directly or deeper) has a method named name: a method moved from an
// embedded interface into one embedding it (terraform 660d029178) is
// still required of the types implementing that one.
func (s *symbols) embedderHas(target tref, name string) bool {
	for key, p := range s.pkgs {
		for tn, ts := range p.types {
			if ts.iface == nil && len(ts.ifaceEm) == 0 {
				continue
			}
			r := &tref{key, tn}
			if *r != target && s.embeds(r, target, 0) && s.hasMember(r, name, 0) {
				return true
			}
		}
	}
	return false
}

// candidates returns the indexed packages that may declare a type
// printed as qual.typ by the checker in a file of package from: with no
// qualifier, from's own package.
func (s *symbols) candidates(qual string, from *pfile) []string {
	var out []string
	// the checker prints a package by its path, quoted, where two
	// packages of one name meet ("github.com/x/plugin".Provider)
	if path, err := strconv.Unquote(qual); err == nil {
		if s.pkgs[path] != nil {
			out = append(out, path)
		}
		return out
	}
	for k, p := range s.pkgs {
		switch {
		case qual == "" && from != nil:
			if k == from.pkgKey {
				out = append(out, k)
			}
		case qual != "":
			if p.name == qual {
				out = append(out, k)
			}
		default:
			out = append(out, k)
		}
	}
	return out
}

// findMember finds the declaring identifier of method (or, for
// interfaces, interface method) name of type qual.typ; ambiguous names
// give nil.
func (s *symbols) findMember(typ, qual string, from *pfile, name string, iface bool) *ast.Ident {
	var found *ast.Ident
	n := 0
	for _, k := range s.candidates(qual, from) {
		ts := s.pkgs[k].types[typ]
		if ts == nil {
			continue
		}
		if iface {
			if f := ts.iface[name]; f != nil {
				for _, id := range f.Names {
					if id.Name == name {
						found = id
						n++
					}
				}
			}
		} else if m := ts.methods[name]; m != nil {
			found = m.decl.Name
			n++
		}
	}
	if n != 1 {
		return nil
	}
	return found
}

// findPromoted finds the method name that type qual.typ has promoted
// from an indexed type it embeds (a struct's embedded field, up to a few
// levels), when the type does not declare it itself: the shallowest one,
// nil when that depth has two (an ambiguous selector) or none.
func (s *symbols) findPromoted(typ, qual string, from *pfile, name string) *ast.Ident {
	var found *ast.Ident
	n := 0
	for _, k := range s.candidates(qual, from) {
		if ts := s.pkgs[k].types[typ]; ts == nil || ts.methods[name] != nil {
			continue
		}
		if id := s.promotedMethod(&tref{k, typ}, name); id != nil {
			found = id
			n++
		}
	}
	if n != 1 {
		return nil
	}
	return found
}

func (s *symbols) promotedMethod(t *tref, name string) *ast.Ident {
	level := []*tref{t}
	for depth := 0; depth < 4 && len(level) > 0; depth++ {
		var next []*tref
		var found *ast.Ident
		n := 0
		for _, r := range level {
			ts := s.lookupType(r)
			if ts == nil {
				continue
			}
			for _, em := range ts.embeds {
				er := s.typeRef(em.expr, em.file)
				if er == nil {
					continue
				}
				ets := s.lookupType(er)
				if ets == nil {
					continue
				}
				if _, ok := ets.fields[name]; ok {
					n++ // a field of that name at this depth: not a method
					continue
				}
				if m := ets.methods[name]; m != nil {
					found = m.decl.Name
					n++
					continue
				}
				if _, ok := ets.iface[name]; ok {
					n++ // an embedded interface's method: no declaration to blame
					continue
				}
				next = append(next, er)
			}
		}
		if n > 0 {
			if n == 1 {
				return found
			}
			return nil
		}
		level = next
	}
	return nil
}

// findType finds the declaring identifier of type qual.typ; ambiguous
// names give nil.
func (s *symbols) findType(typ, qual string, from *pfile) *ast.Ident {
	var found *ast.Ident
	n := 0
	for _, k := range s.candidates(qual, from) {
		if ts := s.pkgs[k].types[typ]; ts != nil && ts.spec != nil {
			found = ts.spec.Name
			n++
		}
	}
	if n != 1 {
		return nil
	}
	return found
}
