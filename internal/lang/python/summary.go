package python

import "github.com/ripple-dev/ripple/internal/lang/treesit"

// pfile is one parsed Python file with its scopes, classes and functions.
// Both front-end jobs read it: Decls turns it into declarations, the
// analyzer resolves names through it.
type pfile struct {
	path    string
	t       *treesit.Tree
	top     *scope
	scopes  map[*treesit.Node]*scope // function, lambda, class or comprehension node -> its scope
	classes []*classInfo             // every class, nested ones included, in source order
	funcs   []*funcInfo              // every function and method, in source order
	classAt map[*treesit.Node]*classInfo
	funcAt  map[*treesit.Node]*funcInfo
	// all is the literal value of __all__ (hasAll when it is one).
	all    []string
	hasAll bool
	// stars are the module-level `from x import *` statements.
	stars []*treesit.Node
	// dynamic is set when the module defines __getattr__ (PEP 562): a
	// missing attribute may still be found at run time.
	dynamic bool
}

// scopeKind is what introduces a scope.
type scopeKind int

const (
	scModule scopeKind = iota
	scClass
	scFunc
	scComp // lambda or comprehension
)

// scope is one Python namespace. Names are looked up LEGB: a function
// scope's parent chain skips class scopes, as in Python.
type scope struct {
	kind      scopeKind
	node      *treesit.Node
	parent    *scope
	names     map[string][]*binding
	globals   map[string]bool
	nonlocals map[string]bool
	cls       *classInfo // class scopes
	fn        *funcInfo  // function scopes
	file      *pfile
}

// bindKind is what binds a name.
type bindKind int

const (
	bDef    bindKind = iota // def
	bClass                  // class
	bImport                 // import a.b.c (binds a) / import a.b as x (binds x)
	bFrom                   // from m import n [as x]
	bAssign                 // x = value / x: T = value
	bParam                  // a function parameter
	bWith                   // with cm as x: what cm.__enter__ returns
	bOther                  // for targets, except ... as, match captures: type unknown
	bFor                    // for x in it: an element of it (value; idx >= 0: position in an unpacked element)
)

// binding is one place that binds a name in a scope.
type binding struct {
	kind  bindKind
	name  string
	at    *treesit.Node // the identifier bound (or the statement)
	fn    *funcInfo
	cls   *classInfo
	value *treesit.Node // bAssign: the assigned expression
	annot *treesit.Node // bAssign, bParam: the annotation
	param int           // bParam: index in fn.params
	// imports: module is the dotted module as written (relative imports
	// keep their dots; `import a.b` binds a, `import a.b as x` binds x to
	// a.b), member the imported name ("" for import statements).
	module, member string
	stmt           *treesit.Node
	async          bool // bWith: async with
	idx            int  // bFor: position of the name in an unpacked element, -1 for the element
}

// pkind is a parameter's kind, as in inspect.Parameter.
type pkind int

const (
	posOnly pkind = iota
	posKw
	varArgs
	kwOnly
	varKw
)

func (k pkind) String() string {
	switch k {
	case posOnly:
		return "positional-only"
	case posKw:
		return "positional-or-keyword"
	case varArgs:
		return "*args"
	case kwOnly:
		return "keyword-only"
	}
	return "**kwargs"
}

// param is one parameter of a function, with texts only (no syntax), so
// that signatures of the base and head states compare directly.
type param struct {
	name    string
	kind    pkind
	hasDef  bool
	def     string        // default value source, canonical tokens
	annot   string        // annotation source, canonical tokens
	annotAt *treesit.Node // annotation node (in the file the function was read from)
}

// funcInfo is one def.
type funcInfo struct {
	file       *pfile
	node       *treesit.Node // function_definition
	outer      *treesit.Node // decorated_definition when decorated, else node
	name, qual string
	cls        *classInfo      // enclosing class, for methods
	parentFn   *funcInfo       // enclosing function, for nested functions
	decorators []*treesit.Node // decorator expressions
	decoNames  []string        // their callee texts without arguments ("functools.wraps")
	params     []param
	returns    *treesit.Node
	async      bool
	static     bool
	classm     bool
	property   bool // property, cached_property, or a setter/deleter of one
	overload   bool
	fixture    bool // a pytest fixture
	scope      *scope
	typeParams string
}

// classInfo is one class statement.
type classInfo struct {
	file       *pfile
	node       *treesit.Node
	outer      *treesit.Node
	name, qual string
	parentCls  *classInfo
	bases      []*treesit.Node // positional superclass expressions
	keywords   []*treesit.Node // keyword_argument nodes of the class header (metaclass=...)
	decorators []*treesit.Node
	decoNames  []string
	methods    map[string]*funcInfo
	attrs      map[string]*attrInfo
	attrOrder  []*attrInfo // class-level annotated or assigned names, in order
	scope      *scope
	typeParams string
	// dynamicAttrs: the methods set attributes by computed names
	// (setattr(self, ...), self.__dict__): any attribute may exist.
	dynamicAttrs bool
}

// attrInfo is a class attribute: a class-level assignment or annotation,
// or an attribute assigned through self in a method.
type attrInfo struct {
	name     string
	at       *treesit.Node // the name (identifier, or the attribute's name)
	stmt     *treesit.Node // the assignment or expression statement
	annot    *treesit.Node
	value    *treesit.Node
	instance bool // assigned through self in a method
	scope    *scope
	order    int
}

// summarize builds the summary of a parsed file.
func summarize(path string, t *treesit.Tree) *pfile {
	f := &pfile{path: path, t: t, scopes: map[*treesit.Node]*scope{}, classAt: map[*treesit.Node]*classInfo{}, funcAt: map[*treesit.Node]*funcInfo{}}
	f.top = f.newScope(scModule, t.Root, nil)
	b := &builder{f: f, t: t}
	b.block(f.top, t.Root)
	for _, c := range f.classes {
		b.selfAttrs(c)
	}
	return f
}

func (f *pfile) newScope(k scopeKind, n *treesit.Node, parent *scope) *scope {
	s := &scope{kind: k, node: n, parent: parent, names: map[string][]*binding{}, file: f}
	f.scopes[n] = s
	return s
}

func (s *scope) bind(b *binding) {
	s.names[b.name] = append(s.names[b.name], b)
}

type builder struct {
	f *pfile
	t *treesit.Tree
}

func (b *builder) text(n *treesit.Node) string { return b.t.Text(n) }

// scopeAt returns the innermost scope that contains node n (n itself
// excluded when it is a scope node: its header belongs outside).
func (f *pfile) scopeAt(n *treesit.Node) *scope {
	for p := n.Parent; p != nil; p = p.Parent {
		if s, ok := f.scopes[p]; ok {
			// a def's decorators, defaults and annotations belong to the
			// enclosing scope; only its body is inside
			if p.Kind == "function_definition" || p.Kind == "class_definition" {
				if !within(n, p.Child("body")) {
					continue
				}
			}
			return s
		}
	}
	return f.top
}

func within(n, anc *treesit.Node) bool {
	if anc == nil {
		return false
	}
	return n.Start >= anc.Start && n.End <= anc.End
}

// decoratorsOf is the decorator names of the function or class that
// node p defines (none for another node).
func (f *pfile) decoratorsOf(p *treesit.Node) []string {
	if fi := f.funcAt[p]; fi != nil {
		return fi.decoNames
	}
	if c := f.classAt[p]; c != nil {
		return c.decoNames
	}
	return nil
}
