package golang

import (
	"context"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"sort"
	"time"

	"github.com/ripple-dev/ripple/internal/config"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// JudgeNewCode type-checks the code the diff wrote (the lines it added
// or rewrote, in the head blocks of its changes) against the declarations
// it uses as they stand at the head: push 1 adds a method to an
// interface, push 2 returns a type that lacks it as that interface, and
// push 2 changes no declaration anyone uses, so no walk reaches the
// return. The packages of the changed files are checked with only the
// bodies holding touched lines (slim), their imports from the export
// data cache, within the budget in auto. A type error on a touched line
// is reported when it is proof: an error of a kind that says the line
// does not fit a declaration (newCodeError), the checker with every
// package it needed.
func (a *analyzer) JudgeNewCode(ctx context.Context, changes []*model.Change) ([]*lang.Ref, error) {
	if a.env.Precision == config.PrecisionSyntax {
		return nil, nil
	}
	// the touched lines of each changed Go file, by the change holding
	// them; a vendored module's files are its authors' (outsideVendor)
	blocks, paths := lang.NewCode(a.env, changes, "go")
	paths = slices.DeleteFunc(paths, inVendor)
	if len(paths) == 0 {
		return nil, nil
	}
	files := a.ix.parse(ctx, paths)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	units := map[string]*checkUnit{}
	lines := map[string][]int{} // touched lines, per file
	for _, f := range files {
		tf := a.ix.fset.File(f.ast.Pos())
		if tf == nil {
			continue
		}
		k := f.dir + "\x00" + f.pkgName
		u := units[k]
		if u == nil {
			u = &checkUnit{dir: f.dir, name: f.pkgName, refFiles: map[string]bool{}, cover: map[string]bool{}, at: map[string][]token.Pos{}, whole: map[string]bool{}}
			units[k] = u
		}
		u.refFiles[f.path], u.cover[f.path] = true, true
		for _, c := range blocks[f.path] {
			for line := c.New.Span.StartLine; line <= c.New.Span.EndLine && line <= tf.LineCount(); line++ {
				if a.env.Touched(f.path, line, line) {
					lines[f.path] = append(lines[f.path], line)
					u.at[f.path] = append(u.at[f.path], tf.LineStart(line))
				}
			}
		}
	}
	keys := make([]string, 0, len(units))
	for k := range units {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if a.loader == nil {
		a.loader = newLoader(a, a.deadline())
	}
	l := a.loader
	results, checked, _ := (&unitChecker{ctx: a.ctx, ix: a.ix}).checkUnits(ctx, l, units, keys, []string{})
	a.typed += checked
	tv := &typeVerdicts{a: a, l: l, byFile: map[string][]*unitResult{}}
	for _, rs := range results {
		for _, res := range rs {
			tv.units = append(tv.units, res)
			for f := range res.files {
				tv.byFile[f] = append(tv.byFile[f], res)
			}
		}
	}
	var out []*lang.Ref
	for _, f := range files {
		touched := map[int]bool{}
		for _, line := range lines[f.path] {
			touched[line] = true
		}
		errs := tv.guessFree(f, tv.fileErrors(f.path))
		seen := map[int]bool{}
		for _, e := range errs {
			pos := a.ix.fset.PositionFor(e.Pos, false)
			if !touched[pos.Line] || seen[pos.Line] || !newCodeError(e.Msg) || tv.fromStub(f.path, e.Msg) || selfMismatch(e.Msg) || tv.stubbedAround(f, e) {
				continue
			}
			if u := unitOf(tv, f.path, e); u != nil && tv.incompleteRecv(u, f.path, e) {
				continue
			}
			c := lang.Innermost(blocks[f.path], pos.Line)
			if c == nil {
				continue
			}
			seen[pos.Line] = true
			line, col, text := a.ix.lineText(f, e.Pos)
			out = append(out, &lang.Ref{Change: c, Relation: model.Uses, Verdict: model.Inconsistent, Precision: model.PrecisionTypes,
				Site:    model.Site{Path: f.path, Line: line, Col: col, Text: text, Enclosing: c.New.Display, EnclosingSpan: c.New.Span},
				Message: "does not compile against the declarations it uses: " + cleanMsg(e.Msg)})
		}
	}
	return out, nil
}

// deadline is when the type tier stops: the budget's end in auto, none
// with precision types.
func (a *analyzer) deadline() (d time.Time) {
	if a.env.Precision == config.PrecisionTypes {
		return d
	}
	return a.env.Deadline
}

// newCodeErrorRE matches the checker's errors that say a line does not fit
// a declaration it uses: a call's arguments, a value's type against the
// type it is used as, a missing method or field, a composite literal's
// fields. Errors that may only say a declaration is not there at all
// ("undefined: X": code generated and not committed, a package not
// loaded) or that concern the line alone ("declared and not used") are
// not proof of an inconsistency with the repository's declarations, nor
// is "missing return": it concerns the function alone, and a body the
// slim check stripped (a function literal initializing a package-level
// variable) has none.
var newCodeErrorRE = regexp.MustCompile(`^(not enough arguments in call|too many arguments in call|cannot use .* as .* value|.* does not implement |.* has no field or method |unknown field .* in struct literal|too few values in struct literal|too many values in struct literal|assignment mismatch|impossible type assertion|cannot convert )`)

func newCodeError(msg string) bool { return newCodeErrorRE.MatchString(msg) }

// stubbedAround reports an error in a file that imports a package the
// loader stubbed: a value of that package's types is unknown to the
// checker, and what it says of the line may be about the stub.
func (tv *typeVerdicts) stubbedAround(f *pfile, e types.Error) bool {
	tv.l.mu.Lock()
	defer tv.l.mu.Unlock()
	for _, ip := range f.imports {
		if tv.l.stubbed[ip] {
			return true
		}
	}
	return false
}

// unitOf is the unit result an error of file came from.
func unitOf(tv *typeVerdicts, file string, e types.Error) *unitResult {
	for _, u := range tv.byFile[file] {
		for _, x := range u.errs {
			if x.Pos == e.Pos && x.Msg == e.Msg {
				return u
			}
		}
	}
	return nil
}
