package golang

import (
	"context"
	"fmt"
	"go/ast"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// importFindings answers the changes that impact importers rather than
// named declarations:
//
//   - an import removed from a file (DI), or re-aliased (MI), whose old
//     name the file still uses: inconsistent, unless another import now
//     binds the name (then the uses refer to another package: may be
//     impacted);
//   - a package whose files were all deleted: every import of it is
//     inconsistent (ImportedBy).
func (a *analyzer) importFindings(ctx context.Context, changes []*model.Change) []*lang.Ref {
	var out []*lang.Ref
	removedPkgs := map[string]*model.Change{}
	for _, c := range changes {
		switch c.Label {
		case model.DI, model.MI:
			out = append(out, a.importUses(ctx, c)...)
		case model.DM, model.DC, model.DF:
			if c.New == nil && len(a.ix.byDir[c.Old.Package]) == 0 {
				ip := a.ix.mods.importPath(c.Old.Package)
				if _, ok := removedPkgs[ip]; !ok {
					removedPkgs[ip] = c
				}
			}
		}
	}
	for ip, c := range removedPkgs {
		out = append(out, a.importersOf(ctx, ip, c)...)
	}
	return out
}

// importUses reports the uses of an import's old name in its file.
func (a *analyzer) importUses(ctx context.Context, c *model.Change) []*lang.Ref {
	file := c.Old.Unit // imports are per file: Unit is the file's path
	ip := c.Old.Name
	d := c.Old
	spec, _ := d.Data.(*ast.ImportSpec)
	oldName := ""
	if spec != nil && spec.Name != nil {
		oldName = spec.Name.Name
	}
	if oldName == "" {
		oldName = a.ix.importName(ctx, ip, dirOf(file))
	}
	if oldName == "_" || oldName == "." {
		return nil
	}
	if !a.ix.exists(file) {
		return nil // the file is deleted: no use of the import is left
	}
	fs := a.ix.parse(ctx, []string{file})
	if len(fs) == 0 {
		return nil
	}
	f := fs[0]
	if now, ok := f.imports[oldName]; ok && now == ip {
		return nil // still imported under that name (moved within the file)
	}
	rebound, isRebound := f.imports[oldName]
	var out []*lang.Ref
	var stack []ast.Node
	ast.Inspect(f.ast, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		stack = append(stack, n)
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok || x.Name != oldName || !f.scopes.unresolved(x) {
			return true
		}
		v := verdict{rel: model.ImportedBy, v: model.Inconsistent,
			msg: fmt.Sprintf("uses %s.%s, but the file no longer imports %q as %s", oldName, sel.Sel.Name, ip, oldName)}
		prec := model.PrecisionSyntax
		if isRebound {
			v = verdict{rel: model.ImportedBy, v: model.MayBeImpacted,
				msg: fmt.Sprintf("%s.%s now refers to %q instead of %q", oldName, sel.Sel.Name, rebound, ip)}
		}
		r := &ref{t: &target{ch: c}, f: f, id: x, stack: append([]ast.Node(nil), stack...), prec: prec}
		out = append(out, a.finding(r, v, prec))
		return true
	})
	return out
}

// importersOf reports the imports of a package that no longer exists.
func (a *analyzer) importersOf(ctx context.Context, ip string, c *model.Change) []*lang.Ref {
	keep, err := a.ix.Search(ctx, []string{strconv.Quote(ip)})
	if err != nil {
		a.env.Diag(model.Diagnostic{Message: "importers of " + ip + " not searched: " + err.Error()})
		return nil
	}
	var out []*lang.Ref
	for _, f := range a.ix.parse(ctx, keep) {
		for _, im := range f.ast.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p != ip {
				continue
			}
			r := &ref{t: &target{ch: c}, f: f, stack: stackAt(f.ast, im.Path.Pos()), prec: model.PrecisionSyntax}
			v := verdict{rel: model.ImportedBy, v: model.Inconsistent,
				msg: fmt.Sprintf("imports %q, whose last file this change deletes", ip)}
			fd := a.finding(r, v, model.PrecisionSyntax)
			fd.Site.Line, fd.Site.Col, fd.Site.Text = a.ix.lineText(f, im.Path.Pos())
			out = append(out, fd)
		}
	}
	return out
}

// maxTagSites bounds the fixture lines reported for one renamed tag.
const maxTagSites = 20

// tagFindings reports test fixtures that still spell a field's old
// serialized name (a json, yaml, ... tag renamed): Go code compiles, but
// data written with the old name no longer decodes into the field. Only
// test files and testdata are searched, where serialized fixtures live,
// and only for names long enough to be specific.
func (a *analyzer) tagFindings(ctx context.Context, changes []*model.Change) []*lang.Ref {
	var out []*lang.Ref
	for _, c := range changes {
		if c.Label != model.MF && c.Label != model.DF {
			continue
		}
		od, nd := c.Old, c.New
		if od == nil {
			continue
		}
		of, _ := od.Data.(*fieldInfo)
		if of == nil {
			continue
		}
		var nf *fieldInfo
		if nd != nil {
			nf, _ = nd.Data.(*fieldInfo)
		}
		for _, k := range encodingKeys {
			old := of.Names[k]
			if len(old) < 4 || old == "-" || nf != nil && nf.Names[k] == old {
				continue
			}
			now := "removed"
			if nf != nil && nf.Names[k] != "" {
				now = strconv.Quote(nf.Names[k])
			}
			out = append(out, a.fixtureUses(ctx, c, k, old, now)...)
		}
	}
	return out
}

func (a *analyzer) fixtureUses(ctx context.Context, c *model.Change, key, old, now string) []*lang.Ref {
	files, err := a.env.Head.Grep(ctx, []string{old}, "*_test.go", "*testdata/*")
	if err != nil {
		return nil
	}
	quoted := regexp.MustCompile(`"` + regexp.QuoteMeta(old) + `"`)
	yamlKey := regexp.MustCompile(`^\s*-?\s*` + regexp.QuoteMeta(old) + `\s*:`)
	data, err := a.env.Head.ReadFiles(ctx, files)
	if err != nil {
		a.env.Diag(model.Diagnostic{Message: err.Error()})
	}
	var out []*lang.Ref
	for _, p := range files {
		if a.env.Ignored != nil && a.env.Ignored(p) {
			continue
		}
		ext := path.Ext(p)
		for i, line := range strings.Split(string(data[p]), "\n") {
			hit := quoted.MatchString(line)
			if !hit && (ext == ".yaml" || ext == ".yml") {
				hit = yamlKey.MatchString(line)
			}
			if !hit {
				continue
			}
			out = append(out, &lang.Ref{
				Change: c, Relation: model.UsedBy, Verdict: model.MayBeImpacted, Precision: model.PrecisionName,
				Site:    model.Site{Path: p, Line: i + 1, Col: strings.Index(line, old) + 1, Text: line},
				Message: fmt.Sprintf("spells the old %s name %q of %s (now %s)", key, old, c.Block().Display, now),
			})
			if len(out) >= maxTagSites {
				return out
			}
		}
	}
	return out
}
