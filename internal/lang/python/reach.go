package python

import (
	"bytes"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// Which files can hold a value of a target's class, and which receivers
// may denote a module: the search's reach for name-matched uses.

// reaches reports whether a file can plausibly hold a value of a member
// target's class: it is the declaring file, names the class, or imports
// the declaring module. A name match on an unknown receiver elsewhere is
// another class's member of the same name.
func (j *judge) reaches(f *pfile, t *target) bool {
	k := f.path + "\x00" + t.path + "\x00" + t.cqual
	if v, ok := j.reach[k]; ok {
		return v
	}
	v := f.path == t.path || containsWord(f.t.Src, lastPart(t.cqual))
	if !v {
		for _, sc := range f.scopes {
			for _, bs := range sc.names {
				for _, b := range bs {
					if b.kind != bImport && b.kind != bFrom {
						continue
					}
					if p := j.a.ix.mods.resolve(b.module, f.path); p == t.path {
						v = true
					} else if b.kind == bFrom && j.a.ix.mods.submodule(p, b.member) == t.path {
						v = true
					}
				}
			}
		}
	}
	j.reach[k] = v
	return v
}

// containsWord reports whether src holds w as a whole identifier.
func containsWord(src []byte, w string) bool {
	isID := func(c byte) bool {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	for i := 0; ; {
		k := bytes.Index(src[i:], []byte(w))
		if k < 0 {
			return false
		}
		s, e := i+k, i+k+len(w)
		if (s == 0 || !isID(src[s-1])) && (e == len(src) || !isID(src[e])) {
			return true
		}
		i = s + 1
	}
}

// starImports reports whether file f star-imports the module at p.
func (j *judge) starImports(f *pfile, p string) bool {
	for _, st := range f.stars {
		m := j.r.module(st.Child("module_name").Text(), f.path)
		if m.k == vModule && m.file != nil && m.file.path == p {
			return true
		}
	}
	return false
}

// importedRoot reports whether an attribute's receiver chain starts at a
// name bound by an import: a module-level function reached through a
// module the resolver could not follow. A module is reached by a dotted
// name, or through importlib: a chain through any other call
// (base64.b64encode(raw).decode) holds what that function returned, not
// a module of the repository.
func importedRoot(x *ref) bool {
	root := receiverRoot(x.n.Child("object"))
	if root == nil || !moduleChain(x.n.Child("object")) {
		return false
	}
	bs, _ := lookup(x.s, root.Text())
	for _, b := range bs {
		if b.kind == bImport || b.kind == bFrom {
			return true
		}
	}
	return false
}

// moduleChain reports whether a receiver expression may denote a module:
// names and attributes, subscripts (a table of modules), and calls of
// importlib.import_module, __import__ or reload.
func moduleChain(n *treesit.Node) bool {
	for n != nil {
		switch n.Kind {
		case "identifier":
			return true
		case "attribute":
			n = n.Child("object")
		case "subscript":
			n = n.Child("value")
		case "call":
			switch lastPart(n.Child("function").Text()) {
			case "import_module", "__import__", "reload":
				return true
			}
			return false
		default:
			return false
		}
	}
	return false
}
