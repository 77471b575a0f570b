package python

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// annotation evaluates a type annotation to the value it describes: an
// instance of a class for a class, the class for type[C].
func (r *resolver) annotation(a *treesit.Node, s *scope) value {
	if a == nil {
		return unknown
	}
	if a.Kind == "type" {
		if ks := a.NamedKids(); len(ks) == 1 {
			a = ks[0]
		} else {
			return unknown
		}
	}
	switch a.Kind {
	case "string":
		str, ok := stringLit(a.Tree, a)
		if !ok {
			return unknown
		}
		t, ok := r.frag[str]
		if !ok {
			t = grammar.Parse([]byte(str))
			r.frag[str] = t
		}
		if t.Errors > 0 || len(t.Root.NamedKids()) != 1 {
			return unknown
		}
		st := t.Root.NamedKids()[0]
		if st.Kind != "expression_statement" || len(st.NamedKids()) != 1 {
			return unknown
		}
		return r.annotation(st.NamedKids()[0], s)
	case "none":
		return value{k: vNone}
	case "identifier", "attribute":
		v := r.expr(a, s)
		switch v.k {
		case vClass:
			return value{k: vInstance, cls: v.cls}
		case vExternal:
			return v // typing.Self and friends are told apart by the caller
		}
		return unknown
	case "binary_operator":
		if op := a.Child("operator"); op != nil && op.Kind == "|" {
			return unionOf(r.annotation(a.Child("left"), s), r.annotation(a.Child("right"), s))
		}
	case "subscript", "generic_type":
		var head *treesit.Node
		var args []*treesit.Node
		if a.Kind == "subscript" {
			head = a.Child("value")
			args = a.Children("subscript")
		} else {
			ks := a.NamedKids()
			if len(ks) != 2 {
				return unknown
			}
			head = ks[0]
			args = append(args, ks[1].NamedKids()...)
		}
		hv := r.expr(head, s)
		hn := ""
		if hv.k == vExternal {
			hn = lastPart(hv.name)
		} else if hv.k == vUnknown {
			hn = lastPart(head.Text())
		}
		switch hn {
		case "Optional", "ClassVar", "Final", "Annotated", "Required", "NotRequired", "ReadOnly", "InitVar":
			if len(args) > 0 {
				return r.annotation(args[0], s)
			}
		case "Union":
			var out value
			for i, x := range args {
				v := r.annotation(x, s)
				if i == 0 {
					out = v
				} else {
					out = unionOf(out, v)
				}
			}
			return out
		case "Type", "type":
			if len(args) == 1 {
				if v := r.annotation(args[0], s); v.k == vInstance {
					return value{k: vClass, cls: v.cls}
				}
			}
		}
		if hv.k == vClass {
			return value{k: vInstance, cls: hv.cls} // a generic class of the repository
		}
	}
	return unknown
}

// unionOf keeps the one class a union with None names.
func unionOf(a, b value) value {
	switch {
	case a.k == vNone:
		return b
	case b.k == vNone:
		return a
	case sameValue(a, b):
		return a
	}
	return unknown
}

// builtins are the names of the builtins module.
var builtins = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr
	classmethod compile complex copyright credits delattr dict dir divmod enumerate eval exec exit filter float
	format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len license
	list locals map max memoryview min next object oct open ord pow print property quit range repr reversed
	round set setattr slice sorted staticmethod str sum super tuple type vars zip __import__ __build_class__
	__debug__ __doc__ __name__ __file__ __loader__ __package__ __spec__ __builtins__ __path__ __annotations__
	NotImplemented Ellipsis None True False reveal_type reveal_locals unicode basestring long xrange raw_input
	unichr reduce file execfile cmp buffer apply intern coerce
	ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError
	BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError
	ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError EncodingWarning EnvironmentError
	Exception ExceptionGroup FileExistsError FileNotFoundError FloatingPointError FutureWarning GeneratorExit
	IOError ImportError ImportWarning IndentationError IndexError InterruptedError IsADirectoryError KeyError
	KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError NotADirectoryError
	NotImplementedError OSError OverflowError PendingDeprecationWarning PermissionError ProcessLookupError
	PythonFinalizationError RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning
	StandardError StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError SystemExit TabError
	TimeoutError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError
	UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning WindowsError ZeroDivisionError`) {
		m[n] = true
	}
	return m
}()

// returnsSelf reports a method whose every return statement returns its
// first parameter (fluent methods, __enter__).
func returnsSelf(fn *funcInfo) bool {
	if len(fn.params) == 0 || fn.static {
		return false
	}
	self := fn.params[0].name
	n, ok := 0, true
	treesit.Walk(fn.node.Child("body"), func(x *treesit.Node) bool {
		switch x.Kind {
		case "function_definition", "class_definition", "lambda":
			return false
		case "return_statement":
			ks := x.NamedKids()
			if len(ks) != 1 || ks[0].Kind != "identifier" || ks[0].Text() != self {
				ok = false
			}
			n++
		}
		return true
	})
	return ok && n > 0
}
