package python

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// isAsyncGen reports an async generator: an async def whose own body
// yields. Calling one returns an async iterator, never awaited.
func isAsyncGen(fn *funcInfo) bool {
	return fn != nil && fn.async && yields(fn)
}

// yields reports whether a function's own body (not nested defs or
// lambdas) holds a yield.
func yields(fn *funcInfo) bool {
	if fn == nil || fn.node == nil {
		return false
	}
	found := false
	treesit.Walk(fn.node.Child("body"), func(n *treesit.Node) bool {
		if found {
			return false
		}
		switch n.Kind {
		case "function_definition", "class_definition", "lambda":
			return false
		case "yield":
			found = true
			return false
		}
		return true
	})
	return found
}

// coroUse is what the code around a call does with the value the call
// returns, for a function that became async.
type coroUse int

const (
	cuAwaited   coroUse = iota // await f()
	cuHanded                   // create_task(f()), gather, a list, returned: scheduled or awaited elsewhere
	cuStored                   // assigned to a name or passed to another function: may be awaited later
	cuDiscarded                // a statement of its own: never runs
	cuValue                    // used as the result (an attribute, an operand, a condition, iterated)
)

// schedulers take a coroutine and run it (or await it) themselves.
var schedulers = map[string]bool{
	"create_task": true, "ensure_future": true, "run_coroutine_threadsafe": true, "gather": true,
	"wait": true, "wait_for": true, "shield": true, "run": true, "run_until_complete": true,
	"as_completed": true, "timeout": true, "start_soon": true, "spawn": true, "create_background_task": true,
	"run_sync": true, "async_to_sync": true, "to_thread": true, "iscoroutine": true, "isawaitable": true,
	"Task": true, "Future": true,
}

// coroutineUse classifies how a call's result is used.
func coroutineUse(call *treesit.Node) (coroUse, string) {
	c := call
	p := c.Parent
	for p != nil && p.Kind == "parenthesized_expression" {
		c, p = p, p.Parent
	}
	if p == nil {
		return cuValue, ""
	}
	switch p.Kind {
	case "await":
		return cuAwaited, ""
	case "expression_statement":
		return cuDiscarded, ""
	case "return_statement", "yield", "lambda":
		return cuHanded, ""
	case "list", "tuple", "set", "expression_list", "list_comprehension", "set_comprehension", "generator_expression", "pair", "dictionary_comprehension", "list_splat", "conditional_expression":
		if p.Kind == "conditional_expression" {
			// a branch (not the condition) passes the coroutine on
			if ks := p.NamedKids(); len(ks) == 3 && ks[1] == c {
				return cuValue, ""
			}
			return coroutineUse(p)
		}
		if p.Kind == "pair" && c.Field != "value" || strings.HasSuffix(p.Kind, "comprehension") && c.Field != "body" || p.Kind == "generator_expression" && c.Field != "body" {
			return cuValue, ""
		}
		return cuHanded, ""
	case "assignment", "augmented_assignment", "named_expression":
		if c.Field == "right" || c.Field == "value" {
			if laterHanded(p) {
				return cuHanded, ""
			}
			return cuStored, ""
		}
	case "keyword_argument":
		if p.Parent != nil && p.Parent.Kind == "argument_list" {
			return argUse(p.Parent)
		}
	case "argument_list":
		return argUse(p)
	}
	return cuValue, ""
}

// argUse classifies a coroutine passed to a call: a scheduler runs it,
// another function may await it.
func argUse(args *treesit.Node) (coroUse, string) {
	outer := args.Parent
	if outer == nil || outer.Kind != "call" {
		return cuStored, ""
	}
	name := lastPart(outer.Child("function").Text())
	if schedulers[name] || strings.HasPrefix(name, "run_") || strings.HasSuffix(name, "_task") {
		return cuHanded, name
	}
	return cuStored, name
}

// asyncVerdict judges a call of a function that became async by what is
// done with the coroutine: discarded or used as the result is an error
// (the body never runs); stored or passed to a function that may await
// it is a warning; awaited, scheduled, collected or returned is fine.
func asyncVerdict(call *treesit.Node, name string, rel model.Relation, prec model.Precision) (verdict, bool) {
	use, to := coroutineUse(call)
	switch use {
	case cuDiscarded:
		return verdict{rel, model.Inconsistent, fmt.Sprintf("calls %s without await and discards the result; it is now async and returns a coroutine that never runs", name), prec, ""}, true
	case cuValue:
		return verdict{rel, model.Inconsistent, fmt.Sprintf("calls %s without await and uses the result; it is now async and returns a coroutine", name), prec, ""}, true
	case cuStored:
		if to != "" {
			return verdict{rel, model.MayBeImpacted, fmt.Sprintf("passes the result of %s to %s without await; it is now async and returns a coroutine, which %s must await", name, to, to), prec, ""}, true
		}
		return verdict{rel, model.MayBeImpacted, fmt.Sprintf("stores the result of %s without await; it is now async and returns a coroutine, which must be awaited later", name), prec, ""}, true
	}
	return verdict{}, false
}

// mayReturnAwaitable reports a function that is not async but may
// return an awaitable: annotated so, or returning a call's result.
func mayReturnAwaitable(fn *funcInfo) bool {
	if fn.returns != nil {
		t := fn.returns.Text()
		for _, w := range []string{"Awaitable", "Coroutine", "Future", "Task", "Deferred"} {
			if strings.Contains(t, w) {
				return true
			}
		}
		return false
	}
	found := false
	treesit.Walk(fn.node.Child("body"), func(n *treesit.Node) bool {
		switch n.Kind {
		case "function_definition", "class_definition", "lambda":
			return false
		case "return_statement":
			for _, k := range n.NamedKids() {
				if treesit.Unparen(k).Kind == "call" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// laterHanded reports an assignment of a coroutine to a name that the
// enclosing function (or module) later awaits, schedules, collects or
// returns: `coro = f()` ... `await coro`.
func laterHanded(asg *treesit.Node) bool {
	left := asg.Child("left")
	if asg.Kind == "named_expression" {
		left = asg.Child("name")
	}
	if left == nil || left.Kind != "identifier" {
		return false
	}
	name := left.Text()
	body := asg
	for body.Parent != nil && body.Kind != "function_definition" {
		body = body.Parent
	}
	found := false
	treesit.Walk(body, func(n *treesit.Node) bool {
		if found {
			return false
		}
		if n != body && (n.Kind == "function_definition" || n.Kind == "class_definition") {
			return false
		}
		if n.Kind == "identifier" && n.Start > asg.End && n.Text() == name && !isStore(n) {
			if use, _ := coroutineUse(n); use == cuAwaited || use == cuHanded {
				found = true
			}
		}
		return true
	})
	return found
}
