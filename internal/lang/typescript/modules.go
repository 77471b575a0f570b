package typescript

import (
	"path"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// resolveExts are tried, in order, after a relative specifier without a
// known extension, as TypeScript's bundler and node16 resolutions do.
var resolveExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs"}

// resolve returns the repository file a module specifier of file from
// names, "" for a package or a file that is not in the repository.
// Relative specifiers resolve with the extension as written, the
// TypeScript sources of a .js specifier (TypeScript's ESM rule), inferred
// extensions, and a directory's index file; bare ones through the
// governing tsconfig.json's paths and baseUrl, then the workspace
// packages (project.go).
func (a *analyzer) resolve(from, spec string) string {
	if i := strings.IndexAny(spec, "?"); i >= 0 {
		spec = spec[:i]
	}
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") && spec != "." && spec != ".." {
		if spec == "" || strings.HasPrefix(spec, "/") || strings.Contains(spec, ":") {
			return "" // absolute, or a URL or protocol (node:fs, https://)
		}
		return a.project().resolveBare(from, spec)
	}
	if i := strings.IndexAny(spec, "#"); i >= 0 {
		spec = spec[:i]
	}
	return a.resolvePath(path.Join(path.Dir(from), spec))
}

// resolvePath resolves a repository path as a relative specifier's
// target: the file as written, the TypeScript source of a .js path,
// inferred extensions, a directory's index file. "" when none exists.
func (a *analyzer) resolvePath(base string) string {
	if a.has(base) && extOf(base) != "" {
		return base
	}
	stem := base
	switch path.Ext(base) {
	case ".js", ".jsx", ".mjs", ".cjs":
		stem = strings.TrimSuffix(base, path.Ext(base))
		for _, e := range []string{".ts", ".tsx", ".mts", ".cts", ".d.ts", ".d.mts", ".d.cts"} {
			if a.has(stem + e) {
				return stem + e
			}
		}
	}
	for _, e := range resolveExts {
		if a.has(base + e) {
			return base + e
		}
	}
	for _, e := range resolveExts {
		if a.has(base + "/index" + e) {
			return base + "/index" + e
		}
	}
	return ""
}

// origin is where an export of a module is declared: a file and its
// local name.
type origin struct {
	path, local string
}

// exportOf follows an export name of a module through `export ... from`
// and `export {x}` of an import to the declaring file. ok is false when
// the name cannot be found; then last is the last module looked into.
func (a *analyzer) exportOf(p, name string, depth int) (o origin, last string, ok bool) {
	if depth > 8 || p == "" {
		return origin{}, p, false
	}
	f := a.file(p)
	if f == nil {
		return origin{}, p, false
	}
	if local, found := f.exports[name]; found {
		if b := f.imports[local]; b != nil && !f.declares(local) {
			if b.name == "*" {
				return origin{a.resolve(p, b.spec), "*"}, p, true
			}
			return a.exportOf(a.resolve(p, b.spec), b.name, depth+1)
		}
		return origin{p, local}, p, true
	}
	for _, r := range f.reexports {
		if r.as == name && r.name != "*" {
			return a.exportOf(a.resolve(p, r.spec), r.name, depth+1)
		}
		if r.as == name && r.name == "*" { // export * as ns from
			return origin{a.resolve(p, r.spec), "*"}, p, true
		}
	}
	last = p
	if name != "default" { // export * passes no default on
		for _, r := range f.reexports {
			if r.name == "*" && r.as == "*" {
				if o, l, ok := a.exportOf(a.resolve(p, r.spec), name, depth+1); ok {
					return o, l, true
				} else if l != "" {
					last = l
				}
			}
		}
	}
	return origin{}, last, false
}

// starReaches reports whether module p is target or re-exports all of
// it through `export * from` chains.
func (a *analyzer) starReaches(p, target string, depth int) bool {
	if p == target {
		return true
	}
	if depth > 8 || p == "" {
		return false
	}
	f := a.file(p)
	if f == nil {
		return false
	}
	for _, r := range f.reexports {
		if r.name == "*" && r.as == "*" && a.starReaches(a.resolve(p, r.spec), target, depth+1) {
			return true
		}
	}
	return false
}

// declares reports a top-level declaration of name in the file.
func (f *tsfile) declares(name string) bool {
	for _, d := range f.decls {
		if n, c := d.names(); c == "" && n == name {
			return true
		}
	}
	if _, ok := f.classes[name]; ok {
		return true
	}
	return f.topLevelVar(name)
}

// topLevelVar reports a top-level variable, function or class of name,
// exported or not.
func (f *tsfile) topLevelVar(name string) bool {
	for _, st := range f.t.Root.Kids {
		s := st
		if s.Kind == "export_statement" {
			if d := s.Child("declaration"); d != nil {
				s = d
			}
		}
		switch s.Kind {
		case "function_declaration", "generator_function_declaration", "class_declaration", "abstract_class_declaration", "enum_declaration", "interface_declaration", "type_alias_declaration":
			if s.Child("name").Text() == name {
				return true
			}
		case "lexical_declaration", "variable_declaration":
			for _, vd := range s.NamedKids() {
				if vd.Kind == "variable_declarator" && patternBinds(vd.Child("name"), name) {
					return true
				}
			}
		}
	}
	return false
}

// patternBinds reports whether a binding pattern declares name.
func patternBinds(pat *treesit.Node, name string) bool {
	found := false
	treesit.Walk(pat, func(n *treesit.Node) bool {
		switch n.Kind {
		case "identifier", "shorthand_property_identifier_pattern":
			if n.Text() == name && n.Field != "key" {
				found = true
			}
		case "pair_pattern":
			patternBinds(n.Child("value"), name)
			if patternBinds(n.Child("value"), name) {
				found = true
			}
			return false
		case "object", "arrow_function", "function_expression", "call_expression":
			return false // a default value
		}
		return !found
	})
	return found
}
