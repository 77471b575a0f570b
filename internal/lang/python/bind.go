package python

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// callArgs is the shape of a call's arguments.
type callArgs struct {
	pos     int      // plain positional arguments
	posStar bool     // *iterable: any number more
	kws     []string // keyword names, in order
	kwStar  bool     // **mapping: any keywords
	// names are the plain positional arguments' names where they are a
	// name or an attribute (x, self.x: "x"), else ""
	names []string
}

// argsOf reads the arguments of a call node. A decorator application
// (@f) is one positional argument.
func argsOf(call *treesit.Node) callArgs {
	var a callArgs
	if call == nil {
		return a
	}
	if call.Kind == "decorator" {
		a.pos = 1
		return a
	}
	args := call.Child("arguments")
	if args == nil {
		return a
	}
	if args.Kind == "generator_expression" {
		a.pos = 1
		return a
	}
	for _, k := range args.NamedKids() {
		switch k.Kind {
		case "list_splat", "parenthesized_list_splat":
			a.posStar = true
		case "dictionary_splat":
			a.kwStar = true
		case "keyword_argument":
			a.kws = append(a.kws, k.Child("name").Text())
		default:
			a.pos++
			n := ""
			switch k.Kind {
			case "identifier":
				n = k.Text()
			case "attribute":
				n = k.Child("attribute").Text()
			}
			a.names = append(a.names, n)
		}
	}
	return a
}

// bindResult is how a call's arguments bind to a parameter list.
type bindResult struct {
	err string // "" when they bind
	// filled maps each parameter filled by a plain positional argument to
	// the argument's index.
	positional map[string]int
	// defaulted lists the parameters left to their defaults.
	defaulted []string
	// missing names the required parameters the call leaves unfilled
	// (when that is why it does not bind)
	missing []string
}

// newlyMissing returns the required parameters a call misses under the
// new binding that it did not miss under the old one, when the old
// binding failed for missing parameters too: a call already broken at
// the base that the change breaks once more.
func newlyMissing(ob, nb bindResult) []string {
	if len(ob.missing) == 0 {
		return nil
	}
	before := map[string]bool{}
	for _, m := range ob.missing {
		before[m] = true
	}
	var out []string
	for _, m := range nb.missing {
		if !before[m] {
			out = append(out, m)
		}
	}
	return out
}

// bind applies Python's rules for binding arguments to parameters.
func bind(ps []param, a callArgs, name string) bindResult {
	res := bindResult{positional: map[string]int{}}
	var positional []param
	var hasVarArgs, hasVarKw bool
	byName := map[string]param{}
	for _, p := range ps {
		switch p.kind {
		case posOnly, posKw:
			positional = append(positional, p)
		case varArgs:
			hasVarArgs = true
		case varKw:
			hasVarKw = true
		}
		if p.kind == posKw || p.kind == kwOnly {
			byName[p.name] = p
		}
	}
	if a.pos > len(positional) && !hasVarArgs {
		res.err = fmt.Sprintf("passes %d positional arguments; %s now takes %s", a.pos, name, atMost(positional))
		return res
	}
	filled := map[string]bool{}
	for i := 0; i < a.pos && i < len(positional); i++ {
		filled[positional[i].name] = true
		res.positional[positional[i].name] = i
	}
	for _, k := range a.kws {
		p, ok := byName[k]
		switch {
		case !ok && hasVarKw:
		case !ok:
			res.err = fmt.Sprintf("passes keyword argument %s=, which %s no longer accepts", k, name)
			for _, q := range ps {
				if q.name == k && q.kind == posOnly {
					res.err = fmt.Sprintf("passes %s= as a keyword, but it is now positional-only in %s", k, name)
				}
			}
			return res
		case filled[k]:
			res.err = fmt.Sprintf("passes %s both positionally and as %s=; %s now takes it at position %d", k, k, name, paramIndex(positional, k)+1)
			return res
		default:
			filled[p.name] = true
		}
	}
	var missing []string
	for _, p := range ps {
		if filled[p.name] {
			continue
		}
		if p.hasDef {
			if p.kind != varArgs && p.kind != varKw {
				res.defaulted = append(res.defaulted, p.name)
			}
			continue
		}
		switch p.kind {
		case posOnly:
			if !a.posStar {
				missing = append(missing, p.name)
				res.missing = append(res.missing, p.name)
			}
		case posKw:
			if !a.posStar && !a.kwStar {
				missing = append(missing, p.name)
				res.missing = append(res.missing, p.name)
			}
		case kwOnly:
			if !a.kwStar {
				missing = append(missing, p.name+" (keyword-only)")
				res.missing = append(res.missing, p.name)
			}
		}
	}
	if len(missing) > 0 {
		s := "argument"
		if len(missing) > 1 {
			s = "arguments"
		}
		res.err = fmt.Sprintf("misses required %s %s of %s", s, strings.Join(missing, ", "), name)
	}
	return res
}

func atMost(ps []param) string {
	req := 0
	for _, p := range ps {
		if !p.hasDef {
			req++
		}
	}
	if req == len(ps) {
		return fmt.Sprintf("%d", len(ps))
	}
	return fmt.Sprintf("%d to %d", req, len(ps))
}

func paramIndex(ps []param, name string) int {
	for i, p := range ps {
		if p.name == name {
			return i
		}
	}
	return -1
}

// shifted explains how a call that binds to both lists means something
// else now. broken: a positional argument written for one parameter now
// fills a parameter that did not exist, or one whose own parameter was
// removed (the value lands where it was never meant to go). moved: a
// positional argument now lands on another existing parameter (reordered
// parameters), or the call relies on a default that changed.
func shifted(old, new []param, a callArgs, name string) (broken, moved string) {
	ob, nb := bind(old, a, name), bind(new, a, name)
	if ob.err != "" || nb.err != "" {
		return "", ""
	}
	inOld, inNew := map[string]bool{}, map[string]bool{}
	for _, p := range old {
		inOld[p.name] = true
	}
	for _, p := range new {
		inNew[p.name] = true
	}
	onames := map[int]string{}
	for n, i := range ob.positional {
		onames[i] = n
	}
	var bad, warn []string
	for n, i := range nb.positional {
		on, ok := onames[i]
		if !ok {
			if !inOld[n] {
				// often *args formalized (the function read args[0]): moved,
				// not broken
				warn = append(warn, fmt.Sprintf("argument %d, once taken by *args, now fills the new parameter %s", i+1, n))
			}
			continue
		}
		if on == n {
			continue
		}
		switch {
		case !inOld[n] && !inNew[on]:
			// renamed in place
		case i < len(a.names) && a.names[i] == n:
			// the argument is named for the parameter it now fills
			// (run_task(host, port, debug, ca_certs, ...) once
			// use_reloader was removed): written for this order
		case !inOld[n] || !inNew[on]:
			bad = append(bad, fmt.Sprintf("argument %d, written for %s, now fills %s", i+1, on, n))
		default:
			warn = append(warn, fmt.Sprintf("argument %d now binds to %s (was %s)", i+1, n, on))
		}
	}
	// a keyword written for a named parameter that is gone, now swallowed
	// by **kwargs
	oNamed, nNamed := map[string]bool{}, map[string]bool{}
	for _, p := range old {
		if p.kind == posKw || p.kind == kwOnly {
			oNamed[p.name] = true
		}
	}
	for _, p := range new {
		if p.kind == posKw || p.kind == kwOnly {
			nNamed[p.name] = true
		}
	}
	// a parameter renamed in place: same position and kind, old name gone
	renamed := map[string]string{}
	for i := 0; i < len(old) && i < len(new); i++ {
		if old[i].kind == new[i].kind && old[i].name != new[i].name && !inNew[old[i].name] && !inOld[new[i].name] {
			renamed[old[i].name] = new[i].name
		}
	}
	for _, k := range a.kws {
		if oNamed[k] && !nNamed[k] {
			if r, ok := renamed[k]; ok {
				bad = append(bad, fmt.Sprintf("keyword %s=, written for parameter %s (now %s), goes to **kwargs", k, k, r))
			} else {
				warn = append(warn, fmt.Sprintf("keyword %s= now goes to **kwargs (parameter %s removed)", k, k))
			}
		}
	}
	odef := map[string]string{}
	for _, p := range old {
		if p.hasDef {
			odef[p.name] = p.def
		}
	}
	for _, n := range nb.defaulted {
		for _, p := range new {
			if p.name == n {
				if d, ok := odef[n]; ok && d != p.def {
					warn = append(warn, fmt.Sprintf("relies on the default of %s, now %s (was %s)", n, p.def, d))
				}
			}
		}
	}
	sort.Strings(bad)
	sort.Strings(warn)
	return strings.Join(bad, "; "), strings.Join(warn, "; ")
}

// accepts reports whether a function with parameters impl accepts every
// call that binds to parameters base (an override that honours its
// base's contract).
func accepts(impl, base []param) bool {
	var ipos, bpos []param
	ibyName := map[string]param{}
	iVarArgs, iVarKw := false, false
	for _, p := range impl {
		switch p.kind {
		case posOnly, posKw:
			ipos = append(ipos, p)
		case varArgs:
			iVarArgs = true
		case varKw:
			iVarKw = true
		}
		if p.kind == posKw || p.kind == kwOnly {
			ibyName[p.name] = p
		}
	}
	for _, p := range base {
		if p.kind == posOnly || p.kind == posKw {
			bpos = append(bpos, p)
		}
	}
	for i, bp := range bpos {
		if i >= len(ipos) {
			if !iVarArgs {
				return false
			}
			if bp.kind == posKw && !iVarKw {
				if _, ok := ibyName[bp.name]; !ok {
					return false
				}
			}
			continue
		}
		ip := ipos[i]
		if bp.kind == posKw && (ip.name != bp.name || ip.kind == posOnly) {
			return false // a keyword call would not reach it
		}
		if bp.hasDef && !ip.hasDef {
			return false
		}
	}
	for _, bp := range base {
		switch bp.kind {
		case kwOnly:
			ip, ok := ibyName[bp.name]
			if !ok && !iVarKw || ok && bp.hasDef && !ip.hasDef {
				return false
			}
		case varArgs:
			if !iVarArgs {
				return false
			}
		case varKw:
			if !iVarKw {
				return false
			}
		}
	}
	// parameters the base does not have must be optional, except those
	// the base's positional arguments fill
	bnames := map[string]bool{}
	for _, p := range base {
		bnames[p.name] = true
	}
	for i, ip := range ipos {
		if i >= len(bpos) && !ip.hasDef && !bnames[ip.name] {
			return false
		}
	}
	for _, ip := range impl {
		if ip.kind == kwOnly && !ip.hasDef && !bnames[ip.name] {
			return false
		}
	}
	return true
}
