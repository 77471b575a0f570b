package typescript

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// Object literals passed for a parameter typed by an inline object type
// (`predicate(args: { url: URL; parsedResult: R })`). tsc checks such a
// literal against the type where it is written: a key the new type does
// not declare is an excess property (TS2353), and a member the new type
// requires and the literal lacks is missing (TS2741). The syntax reads
// both from the type's text when the literal spreads nothing.

// inlineMembers reads the members of an inline object type's text: each
// name, and whether it is required. ok is false for anything but one
// object type literal (a union, an intersection, a named type), or a
// member it cannot read (an index signature, a computed key).
func inlineMembers(typ string) (members map[string]bool, ok bool) {
	typ = strings.TrimSpace(typ)
	if len(typ) < 2 || typ[0] != '{' || typ[len(typ)-1] != '}' {
		return nil, false
	}
	d := 0
	for i := 0; i < len(typ); i++ {
		switch typ[i] {
		case '{', '(', '[', '<':
			d++
		case '}', ')', ']', '>':
			if typ[i] == '>' && i > 0 && typ[i-1] == '=' {
				continue // an arrow
			}
			d--
			if d == 0 && i != len(typ)-1 {
				return nil, false // `{ a } | { b }`: more than one type
			}
		}
	}
	body := typ[1 : len(typ)-1]
	members = map[string]bool{}
	depth := 0
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch c {
		case '{', '(', '[', '<':
			depth++
			if c == '[' && depth == 1 {
				return nil, false // an index signature or a computed key
			}
			continue
		case '}', ')', ']', '>':
			if c == '>' && i > 0 && body[i-1] == '=' {
				continue // an arrow
			}
			depth--
			continue
		}
		if depth != 0 || !isIdentStart(c) || i > 0 && isIdentPart(body[i-1]) {
			continue
		}
		j := i
		for j < len(body) && isIdentPart(body[j]) {
			j++
		}
		name := body[i:j]
		k := j // the name's colon follows it directly (in `A extends B ? X : Y` it does not)
		optional := false
		if k < len(body) && body[k] == '?' {
			optional = true
			k++
		}
		if k < len(body) && (body[k] == ':' || body[k] == '(') && (i == 0 || startsMember(body[:i])) {
			if name == "readonly" && body[k] != ':' {
				continue
			}
			members[name] = !optional
		}
		i = j - 1
	}
	return members, len(members) > 0
}

// startsMember reports whether what precedes a name at depth 0 of an
// object type ends a member or opens the type: a separator, or
// `readonly`.
func startsMember(before string) bool {
	b := strings.TrimRight(before, " ")
	if b == "" || strings.HasSuffix(b, "readonly") {
		return true
	}
	switch b[len(b)-1] {
	case ';', ',':
		return true
	}
	// Compact writes a newline-separated member list with spaces only:
	// the previous member's type ends where this name begins
	return before[len(before)-1] == ' '
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentPart(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9'
}

// literalGap says what an object literal written for a parameter whose
// inline object type changed from oldTyp to newTyp no longer fits: keys
// only the old type declared, members only the new one requires. ""
// when it fits, spreads another object, or a type is not one inline
// object type.
func literalGap(o *treesit.Node, oldTyp, newTyp string) string {
	o = treesit.Unparen(o)
	if o == nil || o.Kind != "object" || oldTyp == newTyp {
		return ""
	}
	om, ok1 := inlineMembers(oldTyp)
	nm, ok2 := inlineMembers(newTyp)
	if !ok1 || !ok2 {
		return ""
	}
	var excess, lacks []string
	for name := range om {
		if _, still := nm[name]; still {
			continue
		}
		has, spread := objectKey(o, name)
		if spread {
			return ""
		}
		if has {
			excess = append(excess, name)
		}
	}
	for name, req := range nm {
		if !req {
			continue
		}
		if oreq, was := om[name]; was && oreq {
			continue
		}
		if has, spread := objectKey(o, name); !has && !spread {
			lacks = append(lacks, name)
		}
	}
	sort.Strings(excess)
	sort.Strings(lacks)
	var parts []string
	if len(excess) > 0 {
		parts = append(parts, fmt.Sprintf("writes %s, which the parameter's new type does not declare", strings.Join(excess, ", ")))
	}
	if len(lacks) > 0 {
		parts = append(parts, fmt.Sprintf("lacks %s, which it requires", strings.Join(lacks, ", ")))
	}
	return strings.Join(parts, ", and ")
}

// literalGaps says, for each argument that is an object literal bound to
// the same parameter before and after, what it no longer fits of that
// parameter's new inline object type (literalGap).
func literalGaps(as []*treesit.Node, of, nf *sig) []string {
	newOf := paramMap(of, nf)
	var out []string
	for i, arg := range as {
		oi, ni := paramAt(of, i), paramAt(nf, i)
		if oi < 0 || ni < 0 || of.params[oi].rest || nf.params[ni].rest {
			continue
		}
		if k, ok := newOf[oi]; !ok || k != ni {
			continue
		}
		if g := literalGap(arg, of.params[oi].typ, nf.params[ni].typ); g != "" {
			out = append(out, fmt.Sprintf("argument %d %s", i+1, g))
		}
	}
	return out
}
