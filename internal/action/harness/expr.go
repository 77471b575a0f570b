package harness

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/rhysd/actionlint"
)

// Contexts are the values expressions read: inputs, github, env, runner,
// steps (each a map[string]any of decoded-JSON-like values: nil, bool,
// float64, string, map[string]any, []any).
type Contexts map[string]any

// evaluator evaluates expressions of one step.
type evaluator struct {
	ctx       Contexts
	workspace string // hashFiles' root
	failed    bool   // an earlier step failed (success(), failure())
}

// parse parses an expression written without ${{ }}.
func parse(src string) (actionlint.ExprNode, error) {
	n, err := actionlint.NewExprParser().Parse(actionlint.NewExprLexer(src + "}}"))
	if err != nil {
		return nil, fmt.Errorf("expression %q: %s", src, err.Message)
	}
	return n, nil
}

// interpolate replaces each ${{ expr }} of s by its value as a string.
func (e *evaluator) interpolate(s string) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "${{")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:i])
		rest := s[i+3:]
		l := actionlint.NewExprLexer(rest)
		n, perr := actionlint.NewExprParser().Parse(l)
		if perr != nil {
			return "", fmt.Errorf("expression in %q: %s", s, perr.Message)
		}
		v, err := e.eval(n)
		if err != nil {
			return "", err
		}
		b.WriteString(str(v))
		s = rest[l.Offset():]
	}
}

// condition evaluates an if: as the runner does: with or without ${{ }},
// and under an implicit success() unless it calls a status function.
func (e *evaluator) condition(cond string) (bool, error) {
	c := strings.TrimSpace(cond)
	if c == "" {
		return !e.failed, nil
	}
	if strings.HasPrefix(c, "${{") && strings.HasSuffix(c, "}}") && strings.Count(c, "${{") == 1 {
		c = strings.TrimSpace(c[3 : len(c)-2])
	}
	n, err := parse(c)
	if err != nil {
		return false, err
	}
	status := false
	actionlint.VisitExprNode(n, func(n, _ actionlint.ExprNode, enter bool) {
		if f, ok := n.(*actionlint.FuncCallNode); ok && enter {
			switch strings.ToLower(f.Callee) {
			case "success", "failure", "always", "cancelled":
				status = true
			}
		}
	})
	v, err := e.eval(n)
	if err != nil {
		return false, err
	}
	if !status && e.failed {
		return false, nil
	}
	return truthy(v), nil
}

func (e *evaluator) eval(n actionlint.ExprNode) (any, error) {
	switch n := n.(type) {
	case *actionlint.VariableNode:
		v, ok := lookup(map[string]any(e.ctx), n.Name)
		if !ok {
			return nil, fmt.Errorf("unknown context %q", n.Name)
		}
		return v, nil
	case *actionlint.NullNode:
		return nil, nil
	case *actionlint.BoolNode:
		return n.Value, nil
	case *actionlint.IntNode:
		return float64(n.Value), nil
	case *actionlint.FloatNode:
		return n.Value, nil
	case *actionlint.StringNode:
		return n.Value, nil
	case *actionlint.ObjectDerefNode:
		r, err := e.eval(n.Receiver)
		if err != nil {
			return nil, err
		}
		return prop(r, n.Property), nil
	case *actionlint.ArrayDerefNode:
		r, err := e.eval(n.Receiver)
		if err != nil {
			return nil, err
		}
		switch r := r.(type) {
		case map[string]any:
			keys := sortedKeys(r)
			out := make([]any, 0, len(keys))
			for _, k := range keys {
				out = append(out, r[k])
			}
			return out, nil
		case []any:
			return r, nil
		}
		return nil, nil
	case *actionlint.IndexAccessNode:
		o, err := e.eval(n.Operand)
		if err != nil {
			return nil, err
		}
		i, err := e.eval(n.Index)
		if err != nil {
			return nil, err
		}
		switch o := o.(type) {
		case []any:
			f := num(i)
			if f >= 0 && int(f) < len(o) && f == math.Trunc(f) {
				return o[int(f)], nil
			}
			return nil, nil
		default:
			return prop(o, str(i)), nil
		}
	case *actionlint.NotOpNode:
		v, err := e.eval(n.Operand)
		if err != nil {
			return nil, err
		}
		return !truthy(v), nil
	case *actionlint.CompareOpNode:
		l, err := e.eval(n.Left)
		if err != nil {
			return nil, err
		}
		r, err := e.eval(n.Right)
		if err != nil {
			return nil, err
		}
		return compare(n.Kind, l, r), nil
	case *actionlint.LogicalOpNode:
		l, err := e.eval(n.Left)
		if err != nil {
			return nil, err
		}
		if (n.Kind == actionlint.LogicalOpNodeKindAnd) != truthy(l) {
			return l, nil
		}
		return e.eval(n.Right)
	case *actionlint.FuncCallNode:
		args := make([]any, len(n.Args))
		for i, a := range n.Args {
			v, err := e.eval(a)
			if err != nil {
				return nil, err
			}
			args[i] = v
		}
		return e.call(n.Callee, args)
	}
	return nil, fmt.Errorf("expression node %T not supported", n)
}

func (e *evaluator) call(name string, args []any) (any, error) {
	arg := func(i int) any {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	switch strings.ToLower(name) {
	case "success":
		return !e.failed, nil
	case "failure":
		return e.failed, nil
	case "always":
		return true, nil
	case "cancelled":
		return false, nil
	case "contains":
		switch h := arg(0).(type) {
		case []any:
			for _, x := range h {
				if equal(x, arg(1)) {
					return true, nil
				}
			}
			return false, nil
		default:
			return strings.Contains(strings.ToLower(str(h)), strings.ToLower(str(arg(1)))), nil
		}
	case "startswith":
		return strings.HasPrefix(strings.ToLower(str(arg(0))), strings.ToLower(str(arg(1)))), nil
	case "endswith":
		return strings.HasSuffix(strings.ToLower(str(arg(0))), strings.ToLower(str(arg(1)))), nil
	case "format":
		s := str(arg(0))
		for i := 1; i < len(args); i++ {
			s = strings.ReplaceAll(s, "{"+strconv.Itoa(i-1)+"}", str(args[i]))
		}
		return strings.NewReplacer("{{", "{", "}}", "}").Replace(s), nil
	case "join":
		sep := ","
		if len(args) > 1 {
			sep = str(args[1])
		}
		if a, ok := arg(0).([]any); ok {
			parts := make([]string, len(a))
			for i, x := range a {
				parts[i] = str(x)
			}
			return strings.Join(parts, sep), nil
		}
		return str(arg(0)), nil
	case "tojson":
		b, err := json.MarshalIndent(arg(0), "", "  ")
		return string(b), err
	case "fromjson":
		var v any
		if err := json.Unmarshal([]byte(str(arg(0))), &v); err != nil {
			return nil, fmt.Errorf("fromJSON: %v", err)
		}
		return v, nil
	case "hashfiles":
		pats := make([]string, len(args))
		for i, a := range args {
			pats[i] = str(a)
		}
		return hashFiles(e.workspace, pats)
	}
	return nil, fmt.Errorf("function %s() not supported", name)
}

// hashFiles is the runner's: the SHA-256 of the SHA-256s of the files
// under root matching any pattern, in path order; "" when none matches.
func hashFiles(root string, patterns []string) (string, error) {
	var res []*regexp.Regexp
	for _, p := range patterns {
		res = append(res, globRE(p))
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		for _, re := range res {
			if re.MatchString(rel) {
				files = append(files, p)
				break
			}
		}
		return nil
	})
	if err != nil || len(files) == 0 {
		return "", err
	}
	sort.Strings(files)
	all := sha256.New()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		h := sha256.Sum256(data)
		all.Write(h[:])
	}
	return fmt.Sprintf("%x", all.Sum(nil)), nil
}

// globRE translates a glob (**, *, ?) to a regular expression on slash
// paths.
func globRE(g string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(g); i++ {
		switch c := g[i]; {
		case strings.HasPrefix(g[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(g[i:], "**"):
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// lookup is a case-insensitive property access, as GitHub's.
func lookup(m map[string]any, k string) (any, bool) {
	if v, ok := m[k]; ok {
		return v, true
	}
	for kk, v := range m {
		if strings.EqualFold(kk, k) {
			return v, true
		}
	}
	return nil, false
}

func prop(v any, k string) any {
	switch m := v.(type) {
	case map[string]any:
		x, _ := lookup(m, k)
		return x
	case Contexts:
		x, _ := lookup(map[string]any(m), k)
		return x
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case float64:
		return v != 0 && !math.IsNaN(v)
	case string:
		return v != ""
	}
	return true
}

// str is a value as an interpolation writes it.
func str(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return v
	}
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// num is GitHub's conversion to a number.
func num(v any) float64 {
	switch v := v.(type) {
	case nil:
		return 0
	case bool:
		if v {
			return 1
		}
		return 0
	case float64:
		return v
	case string:
		s := strings.TrimSpace(v)
		if s == "" {
			return 0
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
		if i, err := strconv.ParseInt(s, 0, 64); err == nil {
			return float64(i)
		}
	}
	return math.NaN()
}

func equal(l, r any) bool {
	ls, lok := l.(string)
	rs, rok := r.(string)
	switch {
	case lok && rok:
		return strings.EqualFold(ls, rs)
	case l == nil && r == nil:
		return true
	}
	switch l.(type) {
	case map[string]any, []any:
		return false // objects compare by identity; none here are the same
	}
	return num(l) == num(r)
}

func compare(k actionlint.CompareOpNodeKind, l, r any) bool {
	switch k {
	case actionlint.CompareOpNodeKindEq:
		return equal(l, r)
	case actionlint.CompareOpNodeKindNotEq:
		return !equal(l, r)
	}
	ls, lok := l.(string)
	rs, rok := r.(string)
	var c int
	if lok && rok {
		c = strings.Compare(strings.ToLower(ls), strings.ToLower(rs))
	} else {
		a, b := num(l), num(r)
		if math.IsNaN(a) || math.IsNaN(b) {
			return false
		}
		switch {
		case a < b:
			c = -1
		case a > b:
			c = 1
		}
	}
	switch k {
	case actionlint.CompareOpNodeKindLess:
		return c < 0
	case actionlint.CompareOpNodeKindLessEq:
		return c <= 0
	case actionlint.CompareOpNodeKindGreater:
		return c > 0
	case actionlint.CompareOpNodeKindGreaterEq:
		return c >= 0
	}
	return false
}
