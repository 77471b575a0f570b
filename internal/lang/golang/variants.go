package golang

import (
	"context"
	"fmt"
	"go/ast"
	"path"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// variants finds the other build variants of a changed function
// (variantFindings): it reads the index and the environment's head
// tree, and nothing else of the analyzer.
type variants struct {
	ix  *index
	env *lang.Env
}

// variantFindings reports the other build variants of a changed function:
// the same function (or method) declared in other files of the package
// under other build constraints (foo_amd64.go, foo_other.go). A variant
// left with the old name or the old signature is a sibling that must
// follow the change (a warning): while the code around it still uses the
// old form, the builds that select it compile, and the error stands at
// the callers, for the builds that select the changed file. Once code
// those builds compile uses the new form (the new name, a call binding
// the new parameters and not the variant's), they are broken, and the
// variant is an error: a developer's compiler does not build them. A
// rename's fix renames the variant and its assembly symbol
// (TEXT ·name(SB)) in the package's .s files. refs are the references
// the check found.
func (vs *variants) variantFindings(ctx context.Context, ts []*target, refs []*ref) []*lang.Ref {
	var out []*lang.Ref
	for _, t := range ts {
		if t.kind != model.KindFunc && t.kind != model.KindMethod && t.kind != model.KindConstructor {
			continue
		}
		renamed := t.ch.Label == model.DM && t.ch.Renamed()
		sig := t.ch.Label == model.MMS || t.ch.Label == model.MCC
		if !renamed && !sig || t.new == nil {
			continue
		}
		nf, _ := t.new.Data.(*funcInfo)
		if nf == nil {
			continue
		}
		dir := t.new.Package
		for _, f := range vs.ix.parseDecls(ctx, vs.ix.byDir[dir]) { // signatures only
			if f.pkgName != t.new.Unit || f.path == t.new.Path || t.old != nil && f.path == t.old.Path {
				continue
			}
			for _, d := range f.ast.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Name.Name != t.name || recvName(fd) != t.container {
					continue
				}
				if fd := vs.variantFinding(ctx, t, f, fd, nf, renamed, refs); fd != nil {
					out = append(out, fd)
				}
			}
		}
	}
	return out
}

func recvName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	n, _ := recvBase(fd.Recv.List[0].Type)
	return n
}

func (vs *variants) variantFinding(ctx context.Context, t *target, f *pfile, fd *ast.FuncDecl, nf *funcInfo, renamed bool, refs []*ref) *lang.Ref {
	vf := &funcInfo{}
	vf.Params, vf.Variadic = fieldList(fd.Type.Params)
	vf.Results, _ = fieldList(fd.Type.Results)
	var msg, used string
	var fix *model.Fix
	switch {
	case renamed:
		msg = fmt.Sprintf("declares %s for the builds that select %s; the variant in %s was renamed to %s", t.name, path.Base(f.path), path.Base(t.new.Path), t.new.Name)
		fix = &model.Fix{Description: fmt.Sprintf("rename %s to %s", t.name, t.new.Name),
			Edits: append([]model.TextEdit{vs.ix.replace(f, fd.Name.Pos(), fd.Name.End(), t.new.Name)}, vs.asmRenames(ctx, f.dir, t.name, t.new.Name)...)}
		used = vs.newNameUse(ctx, t, f)
	case typesOf(vf.Params) != typesOf(nf.Params) || typesOf(vf.Results) != typesOf(nf.Results):
		msg = fmt.Sprintf("declares %s with another signature for the builds that select %s; the variant in %s changed: %s", t.name, path.Base(f.path), path.Base(t.new.Path), strings.Join(t.ch.Details, "; "))
		used = vs.newCallUse(t, f, nf, vf, refs)
	default:
		return nil
	}
	v := verdict{rel: model.VariantOf, v: model.MayBeImpacted, msg: msg + "; it must follow"}
	if used != "" {
		v = verdict{rel: model.VariantOf, v: model.Inconsistent, msg: msg + "; those builds break at " + used}
	}
	r := &ref{t: t, f: f, id: fd.Name, stack: []ast.Node{f.ast, fd}, prec: model.PrecisionSyntax}
	fnd := vs.ix.finding(r, v, model.PrecisionSyntax)
	fnd.Fix = fix
	return fnd
}

// newNameUse returns the place ("p.go:12") of a use of a renamed
// function's new name in code the builds selecting the variant file vf
// compile (the package's other files), "" when there is none.
func (vs *variants) newNameUse(ctx context.Context, t *target, vf *pfile) string {
	paths, err := vs.ix.Search(ctx, []string{t.new.Name})
	if err != nil {
		return ""
	}
	var in []string
	for _, p := range paths {
		if dirOf(p) == vf.dir && p != t.new.Path && p != vf.path {
			in = append(in, p)
		}
	}
	for _, f := range vs.ix.parse(ctx, in) {
		if f.pkgName != vf.pkgName || !sameBuilds(f, vf) {
			continue
		}
		at := ""
		ast.Inspect(f.ast, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && at == "" && id.Name == t.new.Name {
				at = fmt.Sprintf("%s:%d", path.Base(f.path), vs.ix.fset.Position(id.Pos()).Line)
			}
			return at == ""
		})
		if at != "" {
			return at
		}
	}
	return ""
}

// newCallUse returns the place of a call of a function whose signature
// changed that binds its new parameters but not those of the variant
// file vf's declaration, in code the builds selecting vf compile; "" when
// there is none.
func (vs *variants) newCallUse(t *target, vf *pfile, nf, vfn *funcInfo, refs []*ref) string {
	for _, r := range refs {
		if r.t != t || r.kind != rkCall || r.call == nil || r.f.path == t.new.Path || r.f.path == vf.path || !sameBuilds(r.f, vf) {
			continue
		}
		if bindError(r.call, nf, t.name) == "" && bindError(r.call, vfn, t.name) != "" {
			return fmt.Sprintf("%s:%d", path.Base(r.f.path), vs.ix.fset.Position(r.call.Pos()).Line)
		}
	}
	return ""
}

// sameBuilds reports whether one of the platforms the check knows
// compiles both files (tags aside).
func sameBuilds(f, vf *pfile) bool {
	for _, bc := range platforms {
		if matchFile(bc, f) && matchFile(bc, vf) {
			return true
		}
	}
	return false
}

// asmRenames renames an assembly function's symbol and its Go-signature
// comment in the .s files of a directory.
func (vs *variants) asmRenames(ctx context.Context, dir, old, new string) []model.TextEdit {
	files, err := vs.env.Head.List(ctx, path.Join(dir, "*.s"))
	if err != nil {
		return nil
	}
	var edits []model.TextEdit
	data, err := vs.env.Head.ReadFiles(ctx, files)
	if err != nil {
		vs.env.Diag(model.Diagnostic{Message: err.Error()})
	}
	for _, p := range files {
		if dirOf(p) != dir {
			continue
		}
		for i, line := range strings.Split(string(data[p]), "\n") {
			for _, pat := range []string{"·" + old + "(", "func " + old + "("} {
				col := strings.Index(line, pat)
				if col < 0 {
					continue
				}
				start := col + strings.Index(pat, old)
				edits = append(edits, model.TextEdit{Path: p, StartLine: i + 1, StartCol: start + 1, EndLine: i + 1, EndCol: start + len(old) + 1, NewText: new})
			}
		}
	}
	return edits
}
