package python

import (
	"fmt"
	"strings"

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
	walk(fn.node.child("body"), func(n *node) bool {
		if found {
			return false
		}
		switch n.kind {
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
func coroutineUse(call *node) (coroUse, string) {
	c := call
	p := c.parent
	for p != nil && p.kind == "parenthesized_expression" {
		c, p = p, p.parent
	}
	if p == nil {
		return cuValue, ""
	}
	switch p.kind {
	case "await":
		return cuAwaited, ""
	case "expression_statement":
		return cuDiscarded, ""
	case "return_statement", "yield", "lambda":
		return cuHanded, ""
	case "list", "tuple", "set", "expression_list", "list_comprehension", "set_comprehension", "generator_expression", "pair", "dictionary_comprehension", "list_splat", "conditional_expression":
		if p.kind == "conditional_expression" {
			// a branch (not the condition) passes the coroutine on
			if ks := p.namedKids(); len(ks) == 3 && ks[1] == c {
				return cuValue, ""
			}
			return coroutineUse(p)
		}
		if p.kind == "pair" && c.field != "value" || strings.HasSuffix(p.kind, "comprehension") && c.field != "body" || p.kind == "generator_expression" && c.field != "body" {
			return cuValue, ""
		}
		return cuHanded, ""
	case "assignment", "augmented_assignment", "named_expression":
		if c.field == "right" || c.field == "value" {
			if laterHanded(p) {
				return cuHanded, ""
			}
			return cuStored, ""
		}
	case "keyword_argument":
		if p.parent != nil && p.parent.kind == "argument_list" {
			return argUse(p.parent)
		}
	case "argument_list":
		return argUse(p)
	}
	return cuValue, ""
}

// argUse classifies a coroutine passed to a call: a scheduler runs it,
// another function may await it.
func argUse(args *node) (coroUse, string) {
	outer := args.parent
	if outer == nil || outer.kind != "call" {
		return cuStored, ""
	}
	name := lastPart(outer.child("function").text())
	if schedulers[name] || strings.HasPrefix(name, "run_") || strings.HasSuffix(name, "_task") {
		return cuHanded, name
	}
	return cuStored, name
}

// asyncVerdict judges a call of a function that became async by what is
// done with the coroutine: discarded or used as the result is an error
// (the body never runs); stored or passed to a function that may await
// it is a warning; awaited, scheduled, collected or returned is fine.
func asyncVerdict(call *node, name string, rel model.Relation, prec model.Precision) (verdict, bool) {
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
		t := fn.returns.text()
		for _, w := range []string{"Awaitable", "Coroutine", "Future", "Task", "Deferred"} {
			if strings.Contains(t, w) {
				return true
			}
		}
		return false
	}
	found := false
	walk(fn.node.child("body"), func(n *node) bool {
		switch n.kind {
		case "function_definition", "class_definition", "lambda":
			return false
		case "return_statement":
			for _, k := range n.namedKids() {
				if unparen(k).kind == "call" {
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
func laterHanded(asg *node) bool {
	left := asg.child("left")
	if asg.kind == "named_expression" {
		left = asg.child("name")
	}
	if left == nil || left.kind != "identifier" {
		return false
	}
	name := left.text()
	body := asg
	for body.parent != nil && body.kind != "function_definition" {
		body = body.parent
	}
	found := false
	walk(body, func(n *node) bool {
		if found {
			return false
		}
		if n != body && (n.kind == "function_definition" || n.kind == "class_definition") {
			return false
		}
		if n.kind == "identifier" && n.start > asg.end && n.text() == name && !isStore(n) {
			if use, _ := coroutineUse(n); use == cuAwaited || use == cuHanded {
				found = true
			}
		}
		return true
	})
	return found
}
