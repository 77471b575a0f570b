package golang

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// fixer makes the mechanical fixes of inconsistent references: the
// edits the seed alone determines (fixFor). It reads the index (positions,
// the names packages bind) and the developer's parameter defaults
// (param_defaults), and nothing else of the analyzer.
type fixer struct {
	ctx context.Context
	ix  *index
	env *lang.Env
}

// fixFor returns the mechanical fix of an inconsistent reference, when
// the seed alone determines it:
//
//   - a renamed declaration: the old name at the site becomes the new one;
//   - parameters removed: the matching arguments are dropped;
//   - parameters reordered: the arguments follow them;
//   - a parameter added whose value the developer gave (param_defaults):
//     that expression is passed.
//
// Anything else (a retyped parameter, a changed result) needs judgement
// and is left to the planner's model.
func (fx *fixer) fixFor(r *ref, v verdict) *model.Fix {
	if v.v != model.Inconsistent || r.t == nil || r.t.ch == nil || r.t.ch.Derived {
		return nil
	}
	c := r.t.ch
	switch {
	case c.Renamed() && r.id != nil && r.id.Name == c.Old.Name:
		return &model.Fix{
			Description: fmt.Sprintf("rename %s to %s", c.Old.Name, c.New.Name),
			Edits:       []model.TextEdit{fx.ix.replace(r.f, r.id.Pos(), r.id.End(), c.New.Name)},
		}
	case (c.Label == model.MMS || c.Label == model.MCC) && r.kind == rkCall && r.call != nil:
		return fx.argsFix(r)
	case c.Label == model.MF:
		return fx.kindFix(r)
	}
	return nil
}

// kindFix follows a member that changed kind: a read of a field that
// became a getter of its name calls it (u.Name -> u.Name()), a call
// without arguments of a method that became a field reads it.
func (fx *fixer) kindFix(r *ref) *model.Fix {
	_, om := r.t.old.Data.(*funcInfo)
	_, nm := r.t.new.Data.(*funcInfo)
	if r.id == nil || om == nm {
		return nil
	}
	if nm && r.kind == rkValue && !isAssignTarget(r) {
		return &model.Fix{Description: fmt.Sprintf("call %s(), the method that replaced the field", r.t.name),
			Edits: []model.TextEdit{fx.ix.replace(r.f, r.id.End(), r.id.End(), "()")}}
	}
	if om && r.kind == rkCall && r.call != nil && len(r.call.Args) == 0 && r.call.Fun.End() == r.id.End() {
		return &model.Fix{Description: fmt.Sprintf("read the field %s that replaced the method", r.t.name),
			Edits: []model.TextEdit{fx.ix.replace(r.f, r.id.End(), r.call.Rparen+1, "")}}
	}
	return nil
}

// argsFix rewrites a call's argument list for removed, reordered or
// defaulted added parameters.
func (fx *fixer) argsFix(r *ref) *model.Fix {
	of, _ := r.t.old.Data.(*funcInfo)
	nf, _ := r.t.new.Data.(*funcInfo)
	call := r.call
	if of == nil || nf == nil || call.Ellipsis.IsValid() || len(call.Args) != len(of.Params) || of.Variadic || nf.Variadic {
		return nil
	}
	args := make([]string, len(call.Args))
	for i, arg := range call.Args {
		args[i] = fx.ix.text(r.f, arg.Pos(), arg.End())
		if strings.Contains(args[i], "//") || strings.Contains(args[i], "/*") {
			return nil // do not lose comments
		}
	}
	var out []string
	var what []string
	if perm := permutation(of.Params, nf.Params); perm != nil {
		for _, i := range perm {
			out = append(out, args[i])
		}
		what = append(what, "reorder the arguments")
	} else {
		newToOld, removed := alignment(of.Params, nf.Params)
		for j, i := range newToOld {
			if i >= 0 {
				out = append(out, args[i])
				continue
			}
			p := nf.Params[j]
			expr, ok := fx.env.Defaults[p.Name]
			if !ok {
				return nil // an added parameter with no given value
			}
			out = append(out, expr)
			what = append(what, fmt.Sprintf("pass %s for %s", expr, p.Name))
		}
		for _, i := range removed {
			what = append(what, fmt.Sprintf("drop argument %d (%s)", i+1, describeParam(of.Params[i])))
		}
		if len(what) == 0 {
			return nil
		}
	}
	fix := &model.Fix{
		Description: strings.Join(what, "; "),
		Edits:       []model.TextEdit{fx.ix.replace(r.f, call.Lparen+1, call.Rparen, strings.Join(out, ", "))},
	}
	for _, expr := range out {
		if ed, ok := fx.importFor(r, expr); ok {
			fix.Edits = append(fix.Edits, ed)
		}
	}
	return fix
}

// importFor returns the edit importing the package a default expression
// names ("context" in context.TODO()) when the site's file lacks it; the
// path is the one the seed's file binds to that name.
func (fx *fixer) importFor(r *ref, expr string) (model.TextEdit, bool) {
	e, err := parser.ParseExpr(expr)
	if err != nil {
		return model.TextEdit{}, false
	}
	var name string
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && name == "" {
				name = id.Name
			}
		}
		return name == ""
	})
	if name == "" {
		return model.TextEdit{}, false
	}
	if _, ok := r.f.imports[name]; ok {
		return model.TextEdit{}, false
	}
	seed, _ := r.t.new.Data.(*funcInfo)
	if seed == nil || seed.File == nil {
		return model.TextEdit{}, false
	}
	ip := ""
	for _, im := range seed.File.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if im.Name != nil && im.Name.Name == name || im.Name == nil && fx.ix.importName(fx.ctx, p, r.t.new.Package) == name {
			ip = p
		}
	}
	if ip == "" {
		return model.TextEdit{}, false
	}
	spec := strconv.Quote(ip)
	for _, d := range r.f.ast.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		if gd.Rparen.IsValid() {
			return fx.ix.replace(r.f, gd.Rparen, gd.Rparen, "\t"+spec+"\n"), true
		}
		return fx.ix.replace(r.f, gd.End(), gd.End(), "\nimport "+spec), true
	}
	return fx.ix.replace(r.f, r.f.ast.Name.End(), r.f.ast.Name.End(), "\n\nimport "+spec), true
}

// text is the source between two positions of a file.
func (ix *index) text(f *pfile, from, to token.Pos) string {
	s, e := ix.fset.PositionFor(from, false).Offset, ix.fset.PositionFor(to, false).Offset
	if s < 0 || e > len(f.src) || s > e {
		return ""
	}
	return string(f.src[s:e])
}

// replace is the edit that puts text between two positions.
func (ix *index) replace(f *pfile, from, to token.Pos, text string) model.TextEdit {
	s, e := ix.fset.PositionFor(from, false), ix.fset.PositionFor(to, false)
	return model.TextEdit{Path: f.path, StartLine: s.Line, StartCol: s.Column, EndLine: e.Line, EndCol: e.Column, NewText: text}
}
