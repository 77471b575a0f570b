package python

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// JudgeNewCode judges the code the diff wrote (the lines it added or
// rewrote, in the head blocks of its changes) against the repository's
// declarations as they stand at the head, whether or not this diff
// changed them: push 1 removes a function's parameter and updates every
// caller, push 2 adds a call with the old arity, and push 2 changes no
// declaration anyone calls, so no walk reaches the call. There is no type
// checker: only what the syntax proves is reported, and every step of the
// proof must be exact (one binding per name, a module of the repository,
// no decorator that may change a signature, no dynamic module):
//
//   - `from m import Name` where m is a module file of the repository
//     that neither binds Name nor has it as a submodule, and cannot
//     provide it dynamically (__getattr__, star imports, globals());
//   - a call whose callee is a module-level function or class of the
//     repository, named through its definition in the same file, an
//     import from its module or an imported module's attribute, whose
//     arguments do not bind to the head signature.
func (a *analyzer) JudgeNewCode(ctx context.Context, changes []*model.Change) ([]*lang.Ref, error) {
	blocks, paths := lang.NewCode(a.env, changes, "python")
	var out []*lang.Ref
	t0 := time.Now()
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		f := a.ix.file(p)
		if f == nil || f.t == nil || f.t.Root == nil {
			continue
		}
		out = append(out, a.newCodeIn(f, blocks[p])...)
	}
	trace("new code: %d files, %d imports and %d calls judged, %d broken, in %v", len(paths), a.newImports, a.newCalls, len(out), time.Since(t0))
	return out, nil
}

// newCodeIn judges the touched imports and calls of one file.
func (a *analyzer) newCodeIn(f *pfile, cs []*model.Change) []*lang.Ref {
	var out []*lang.Ref
	seen := map[int]bool{}
	add := func(n *treesit.Node, msg string) {
		line := int(n.Line)
		c := lang.Innermost(cs, line)
		if c == nil || seen[line] {
			return
		}
		seen[line] = true
		out = append(out, &lang.Ref{Change: c, Relation: model.Uses, Verdict: model.Inconsistent, Precision: model.PrecisionSyntax,
			Site:      model.Site{Path: f.path, Line: line, Col: int(n.Col) + 1, Text: f.t.LineText(line), Enclosing: c.New.Display, EnclosingSpan: c.New.Span},
			Message:   msg,
			Generated: generated(f.t.Src)})
	}
	treesit.Walk(f.t.Root, func(n *treesit.Node) bool {
		if n.Bad {
			return false // read nothing half-parsed
		}
		if !a.env.Touched(f.path, int(n.Line), int(n.EndLine)) {
			return false // nor any node inside it
		}
		switch n.Kind {
		case "import_from_statement":
			for _, k := range n.Children("name") {
				if !a.env.Touched(f.path, int(k.Line), int(k.EndLine)) {
					continue
				}
				if msg := a.missingImport(f, n, k); msg != "" {
					add(k, msg)
				}
			}
			return false
		case "call":
			if msg := a.unboundCall(f, n); msg != "" {
				add(n, msg)
			}
		}
		return true
	})
	return out
}

// missingImport is why `from m import name` (name being the import's
// name node k) names what module m of the repository does not define,
// or "" when that is not certain.
func (a *analyzer) missingImport(f *pfile, st, k *treesit.Node) string {
	if guarded(st, "ImportError") {
		return "" // try: from .speedups import x / except ImportError: ...
	}
	mn := st.Child("module_name")
	if mn == nil || st.FirstOf("wildcard_import") != nil {
		return ""
	}
	member := k
	if k.Kind == "aliased_import" {
		member = k.Child("name")
	}
	if member == nil || member.Kind != "dotted_name" {
		return ""
	}
	name := member.Text()
	if name == "" || strings.Contains(name, ".") || moduleAttrs[name] {
		return ""
	}
	m := a.exactImport(mn.Text(), f.path)
	if m.k != vModule || m.file == nil || !a.staticModule(m.file) {
		return ""
	}
	if m.file == f {
		return "" // a package importing from itself: its submodules may be set by their own import
	}
	a.newImports++
	if len(m.file.top.names[name]) > 0 || a.ix.mods.submodule(m.file.path, name) != "" || rebound(m.file, name) {
		return "" // bound at the top, a submodule, or assigned through global
	}
	return fmt.Sprintf("imports %s, which %s does not define", name, a.ix.mods.moduleName(m.file.path))
}

// exactImport is the module an import statement of file from names,
// when the layout leaves no doubt: a relative import, an absolute one
// found under the importer's own root, or one that a single import root
// holds (another root may sit first on sys.path: two roots each with a
// helpers.py say nothing certain of either), from an importer that does
// not edit sys.path itself.
func (a *analyzer) exactImport(spec, from string) value {
	m := a.r.module(spec, from)
	if m.k != vModule || m.file == nil || strings.HasPrefix(spec, ".") {
		return m
	}
	if f := a.ix.file(from); f == nil || f.t == nil || bytes.Contains(f.t.Src, []byte("sys.path")) {
		return unknown // the importer chooses where its imports come from
	}
	mods := a.ix.mods
	rel := strings.ReplaceAll(spec, ".", "/")
	if p := mods.moduleFile(mods.rootOf(from), rel); p == m.file.path {
		return m
	}
	n := 0
	for _, r := range mods.roots {
		if p := mods.moduleFile(r, rel); p != "" && !strings.HasSuffix(p, "/") {
			n++
		}
	}
	if n != 1 {
		return unknown
	}
	return m
}

// staticModule reports a module file whose top-level names are all
// written in it: no __getattr__ (PEP 562), no star import, no writes
// through globals(), vars(), sys.modules, setattr or exec, no import
// hook or __path__ change in it or in a package around it, and a real
// module rather than a stub of one.
func (a *analyzer) staticModule(m *pfile) bool {
	if v, ok := a.static[m]; ok {
		return v
	}
	v := a.staticModule1(m)
	if a.static == nil {
		a.static = map[*pfile]bool{}
	}
	a.static[m] = v
	return v
}

func (a *analyzer) staticModule1(m *pfile) bool {
	if m.dynamic || len(m.stars) > 0 || strings.HasSuffix(m.path, ".pyi") || m.t == nil || m.t.Errors > 0 || !fixedNames(m) {
		return false
	}
	for _, s := range []string{"vars()", "locals()", "setattr(", "__dict__", "import_module", "__import__", "lazy_loader"} {
		if bytes.Contains(m.t.Src, []byte(s)) {
			return false
		}
	}
	return !a.hooked(m)
}

// hooked reports a module whose names may come from elsewhere than its
// statements: an import hook or a __path__ change in it or in a package
// around it makes submodules (gi.repository's DynamicImporter), and a
// stub beside it (mod.pyi) declares what type checkers read.
func (a *analyzer) hooked(m *pfile) bool {
	if strings.HasSuffix(m.path, ".py") && a.ix.mods.files[strings.TrimSuffix(m.path, ".py")+".pyi"] {
		return true
	}
	hook := func(f *pfile) bool {
		return f != nil && f.t != nil && (bytes.Contains(f.t.Src, []byte("meta_path")) || bytes.Contains(f.t.Src, []byte("path_hooks")) || bytes.Contains(f.t.Src, []byte("__path__")))
	}
	if hook(m) {
		return true
	}
	for d := dirOf(m.path); d != "" && a.ix.mods.isPackage(d); d = dirOf(d) {
		for _, n := range []string{"__init__.py", "__init__.pyi"} {
			if p := join(d, n); p != m.path && hook(a.ix.file(p)) {
				return true
			}
		}
	}
	return false
}

// fixed is fixedNames, once per file.
func (a *analyzer) fixed(f *pfile) bool {
	if v, ok := a.fixedMemo[f]; ok {
		return v
	}
	if a.fixedMemo == nil {
		a.fixedMemo = map[*pfile]bool{}
	}
	v := fixedNames(f)
	a.fixedMemo[f] = v
	return v
}

// fixedNames reports a file whose top-level names keep the bindings its
// statements give them: no star import (which may rebind a name defined
// before it), no writes through globals(), sys.modules or exec, no
// enum.global_enum.
func fixedNames(f *pfile) bool {
	if len(f.stars) > 0 || f.t == nil {
		return false
	}
	for _, s := range []string{"globals()", "sys.modules", "exec(", "global_enum"} {
		if bytes.Contains(f.t.Src, []byte(s)) {
			return false // global_enum: enum members written into the module (re.IGNORECASE)
		}
	}
	return true
}

// guarded reports a node where a failure may be expected: inside the
// body of a try statement with an except clause that catches exc (any
// except clause for an ImportError: the fallback import idiom), or of a
// with statement whose context may expect or swallow it (pytest.raises,
// assertRaises, contextlib.suppress, a mock.patch).
func guarded(n *treesit.Node, exc string) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		switch p.Kind {
		case "try_statement":
			if !within(n, p.Child("body")) {
				continue
			}
			for _, k := range p.Kids {
				if k.Kind == "except_group_clause" || k.Kind == "except_clause" && (exc == "ImportError" || catchesExc(k, exc)) {
					return true
				}
			}
		case "with_statement":
			if !within(n, p.Child("body")) {
				continue
			}
			for _, v := range withCalls(p) {
				t := strings.ToLower(v.Child("function").Text())
				for _, w := range []string{"raises", "suppress", "patch", "mock", "ignore", "catch", "error", "expect"} {
					if strings.Contains(t, w) {
						return true
					}
				}
			}
		}
	}
	return false
}

// withCalls are the calls a with statement opens as its contexts
// (`with a() as x, b():` gives a() and b()).
func withCalls(w *treesit.Node) []*treesit.Node {
	var out []*treesit.Node
	for _, cl := range w.Kids {
		if cl.Kind != "with_clause" {
			continue
		}
		for _, it := range cl.NamedKids() {
			v := it.Child("value")
			if v != nil && v.Kind == "as_pattern" {
				if ks := v.NamedKids(); len(ks) > 0 {
					v = ks[0]
				}
			}
			if v != nil && v.Kind == "call" {
				out = append(out, v)
			}
		}
	}
	return out
}

// catchesExc reports an except clause that may catch exc: a bare except,
// exc or a builtin base of it, a name that is not a builtin exception.
func catchesExc(k *treesit.Node, exc string) bool {
	var e *treesit.Node
	for _, x := range k.NamedKids() {
		if x.Kind != "block" {
			e = x
		}
		break
	}
	if e == nil {
		return true // bare except
	}
	if e.Kind == "as_pattern" {
		if ks := e.NamedKids(); len(ks) > 0 {
			e = ks[0]
		}
	}
	names := []*treesit.Node{e}
	if u := treesit.Unparen(e); u != nil && (u.Kind == "tuple" || u.Kind == "expression_list") {
		names = u.NamedKids()
	}
	for _, x := range names {
		n := lastPart(x.Text())
		if contains(excBases[exc], n) || !builtins[n] {
			return true
		}
	}
	return false
}

// unboundCall is why a call does not bind to the head signature of the
// repository function or class it calls, or "" when that is not
// certain.
func (a *analyzer) unboundCall(f *pfile, call *treesit.Node) string {
	fnode := treesit.Unparen(call.Child("function"))
	args := call.Child("arguments")
	if fnode == nil || args == nil || args.Kind != "argument_list" || guarded(call, "TypeError") || expectedToFail(f, call) {
		return ""
	}
	for _, k := range args.NamedKids() {
		if k.Bad {
			return ""
		}
	}
	if a.lazyOrPatched(f, call) {
		return ""
	}
	s := f.scopeAt(call)
	fn, cls := a.exactCallee(f, s, fnode, 0)
	switch {
	case fn != nil:
		if fn.cls != nil || fn.file.t == nil || !plainDecorators(a.r, fn.decorators, fn.file.scopeAt(fn.outer)) {
			return ""
		}
		a.newCalls++
		res := bind(fn.params, argsOf(call), fn.name)
		if res.err == "" {
			return ""
		}
		return fmt.Sprintf("the call %s (%s, declared at %s:%d)", asWritten(res.err), funcDisplay(fn), fn.file.path, fn.node.Line)
	case cls != nil:
		if !a.plainClass(cls) {
			return ""
		}
		ct := a.r.constructor(cls)
		if !ct.ok || ct.weak || ct.fn != nil && (opaque(ct.fn) || !plainDecorators(a.r, ct.fn.decorators, ct.fn.file.scopeAt(ct.fn.outer))) {
			return ""
		}
		a.newCalls++
		res := bind(ct.params, argsOf(call), cls.qual+"()")
		if res.err == "" {
			return ""
		}
		return fmt.Sprintf("the call %s (class %s, declared at %s:%d)", asWritten(res.err), cls.qual, cls.file.path, cls.node.Line)
	}
	return ""
}

// lazyOrPatched reports a call that may not run as written: in an
// annotation (lazy under `from __future__ import annotations` and since
// Python 3.14), under `if TYPE_CHECKING:`, or in a top-level statement
// that patches names (mock.patch, monkeypatch.setattr): the callee may be
// a stand-in with another signature.
func (a *analyzer) lazyOrPatched(f *pfile, n *treesit.Node) bool {
	top := n
	for p := n.Parent; p != nil; p = p.Parent {
		switch p.Kind {
		case "type":
			return true
		case "if_statement":
			if strings.Contains(p.Child("condition").Text(), "TYPE_CHECKING") {
				return true
			}
		}
		if p.Parent != nil {
			top = p
		}
	}
	if v, ok := a.patched[top]; ok {
		return v
	}
	v := false
	if int(top.End) <= len(f.t.Src) && top.Start <= top.End {
		t := f.t.Src[top.Start:top.End]
		for _, w := range []string{"patch", "mock", "Mock", "setattr", "monkeypatch"} {
			v = v || bytes.Contains(t, []byte(w))
		}
	}
	if a.patched == nil {
		a.patched = map[*treesit.Node]bool{}
	}
	a.patched[top] = v
	return v
}

// asWritten words a binding error of bind, which speaks of a changed
// signature ("f now takes 2"), for a signature as it stands.
var asWritten = strings.NewReplacer(" now takes ", " takes ", " no longer accepts", " does not accept", " is now positional-only", " is positional-only").Replace

// expectedToFail reports a call in a test marked skip or xfail, where a
// broken call may be on purpose.
func expectedToFail(f *pfile, n *treesit.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		for _, d := range f.decoratorsOf(p) {
			switch lastPart(d) {
			case "skip", "skipif", "xfail", "expectedFailure":
				return true
			}
		}
	}
	return false
}

// exactCallee resolves a callee expression to the one module-level
// function or class of the repository it denotes, following only exact
// steps: a name with a single binding (a def or class at module level,
// an import from a repository module), an attribute of a repository
// module. Anything else (a name bound twice, an assignment, a parameter,
// a method) resolves to nothing.
func (a *analyzer) exactCallee(f *pfile, s *scope, e *treesit.Node, depth int) (*funcInfo, *classInfo) {
	if depth > 8 || e == nil {
		return nil, nil
	}
	switch e.Kind {
	case "identifier":
		name := e.Text()
		bs, sc := lookup(s, name)
		if len(bs) != 1 || sc == nil {
			return nil, nil
		}
		return a.bindingTarget(sc, bs[0], depth)
	case "attribute":
		obj := treesit.Unparen(e.Child("object"))
		attr := e.Child("attribute")
		if obj == nil || attr == nil {
			return nil, nil
		}
		m := a.exactModule(f, s, obj, depth+1)
		if m == nil || !a.staticModule(m) {
			return nil, nil
		}
		return a.memberTarget(m, attr.Text(), depth+1)
	}
	return nil, nil
}

// bindingTarget is the function or class one binding of scope sc denotes.
func (a *analyzer) bindingTarget(sc *scope, b *binding, depth int) (*funcInfo, *classInfo) {
	if rebound(sc.file, b.name) || !a.fixed(sc.file) {
		return nil, nil
	}
	switch b.kind {
	case bDef:
		if sc.kind == scModule && b.fn != nil && b.fn.cls == nil && b.fn.parentFn == nil {
			return b.fn, nil
		}
	case bClass:
		if sc.kind == scModule && b.cls != nil && b.cls.parentCls == nil {
			return nil, b.cls
		}
	case bFrom:
		m := a.exactImport(b.module, sc.file.path)
		if m.k != vModule || m.file == nil || m.file == sc.file || !a.staticModule(m.file) {
			return nil, nil
		}
		return a.memberTarget(m.file, b.member, depth+1)
	}
	return nil, nil
}

// memberTarget is the function or class a module's top-level name
// denotes, through re-exports.
func (a *analyzer) memberTarget(m *pfile, name string, depth int) (*funcInfo, *classInfo) {
	if depth > 8 {
		return nil, nil
	}
	bs := m.top.names[name]
	if len(bs) != 1 {
		return nil, nil
	}
	if bs[0].kind == bFrom && a.ix.mods.submodule(m.path, name) != "" {
		return nil, nil // a package's name that may also be a submodule
	}
	return a.bindingTarget(m.top, bs[0], depth+1)
}

// exactModule is the repository module file an expression denotes: a
// name bound once by `import pkg.mod as mod` or `from pkg import mod`,
// or a module's attribute that is a submodule.
func (a *analyzer) exactModule(f *pfile, s *scope, e *treesit.Node, depth int) *pfile {
	if depth > 8 || e == nil {
		return nil
	}
	switch e.Kind {
	case "identifier":
		bs, sc := lookup(s, e.Text())
		if len(bs) != 1 || sc == nil || rebound(sc.file, e.Text()) {
			return nil
		}
		b := bs[0]
		switch b.kind {
		case bImport:
			m := a.exactImport(b.module, sc.file.path)
			if m.k == vModule && m.file != nil {
				return m.file
			}
		case bFrom:
			m := a.exactImport(b.module, sc.file.path)
			if m.k != vModule {
				return nil
			}
			var p string
			if m.file != nil {
				if len(m.file.top.names[b.member]) > 0 {
					return nil // a name of the package, not (only) a submodule
				}
				p = a.ix.mods.submodule(m.file.path, b.member)
			} else {
				p = a.ix.mods.submodule(m.dir, b.member)
			}
			if p != "" && !strings.HasSuffix(p, "/") {
				return a.ix.file(p)
			}
		}
	case "attribute":
		obj := a.exactModule(f, s, treesit.Unparen(e.Child("object")), depth+1)
		attr := e.Child("attribute")
		if obj == nil || attr == nil || len(obj.top.names[attr.Text()]) > 0 {
			return nil
		}
		if p := a.ix.mods.submodule(obj.path, attr.Text()); p != "" && !strings.HasSuffix(p, "/") {
			return a.ix.file(p)
		}
	}
	return nil
}

// rebound reports a name that a function of the file declares global: it
// may be rebound at run time.
func rebound(f *pfile, name string) bool {
	for _, s := range f.scopes {
		if s.globals[name] {
			return true
		}
	}
	return false
}

// newCodeDecorators are the decorators, from the standard library, that
// keep calls binding to the decorated function's own parameters.
var newCodeDecorators = map[string]bool{
	"functools.lru_cache": true, "functools.cache": true,
	"contextlib.contextmanager": true, "contextlib.asynccontextmanager": true,
	"typing.final": true, "typing.override": true, "typing_extensions.final": true, "typing_extensions.override": true,
	"typing.no_type_check": true, "abc.abstractmethod": true,
}

// plainDecorators reports decorators that all keep the signature: known
// ones of the standard library, resolved as such in scope s.
func plainDecorators(r *resolver, decos []*treesit.Node, s *scope) bool {
	for _, d := range decos {
		if d.Kind == "call" {
			d = d.Child("function")
		}
		v := r.expr(d, s)
		if v.k != vExternal || !newCodeDecorators[v.name] {
			return false
		}
	}
	return true
}

// plainClass reports a class whose call is its constructor: no
// decorator but the dataclass-like ones, no metaclass or class keywords
// anywhere in its bases, not a pydantic-style model, a TypedDict or an
// Enum, a static module around it.
func (a *analyzer) plainClass(c *classInfo) bool {
	if !a.staticModule(c.file) {
		return false
	}
	m := a.r.mro(c)
	if m.unknown {
		return false
	}
	switch a.r.classKind(c) {
	case ckModel, ckTypedDict, ckEnum:
		// a model's aliases, populate_by_name and before-validators
		// decide which keywords fill a field; a settings model reads the
		// environment
		return false
	}
	for _, k := range m.list {
		if len(k.keywords) > 0 {
			return false
		}
		if _, ok := k.methods["__new__"]; ok {
			return false
		}
		for _, at := range k.attrOrder {
			switch at.name {
			case "__init__", "__new__", "__call__", "__signature__":
				return false // a constructor assigned, not defined
			}
		}
		for _, d := range k.decorators {
			if kindFromText([]*treesit.Node{d}, nil) == ckPlain {
				return false
			}
		}
	}
	return true
}
