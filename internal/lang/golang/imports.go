package golang

import (
	"context"
	"fmt"
	"go/ast"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// importers answers the changes that impact importers rather than named
// declarations (importFinder): it searches and parses through the index,
// and reports what it could not search through the environment.
type importers struct {
	ix  *index
	env *lang.Env
}

// importFindings answers the changes that impact importers rather than
// named declarations:
//
//   - an import removed from a file (DI), or re-aliased (MI), whose old
//     name the file still uses: inconsistent, unless another import now
//     binds the name (then the uses refer to another package: may be
//     impacted);
//   - a package whose files were all deleted: every import of it is
//     inconsistent (ImportedBy).
func (ir *importers) importFindings(ctx context.Context, changes []*model.Change) []*lang.Ref {
	var out []*lang.Ref
	removedPkgs := map[string]*model.Change{}
	for _, c := range changes {
		switch c.Label {
		case model.DI, model.MI:
			if _, ext := externalImportPath(c.Old.Package); ext {
				// a package a dependency's major version moved (bump.go)
				removedPkgs[c.Old.Name] = c
				continue
			}
			out = append(out, ir.importUses(ctx, c)...)
		case model.DM, model.DC, model.DF:
			if c.New == nil && ir.packageGone(c.Old.Package) {
				ip := ir.ix.mods.importPath(c.Old.Package)
				if _, ok := removedPkgs[ip]; !ok {
					removedPkgs[ip] = c
				}
			}
		}
	}
	for ip, c := range removedPkgs {
		out = append(out, ir.importersOf(ctx, ip, c)...)
	}
	return out
}

// packageGone reports whether the package of directory dir has no
// files in the head state: a directory of the repository, or the
// package of a dependency a bump read (bump.go), which is gone when the
// module version the head requires lacks it.
func (ir *importers) packageGone(dir string) bool {
	ip, ext := externalImportPath(dir)
	if !ext {
		return len(ir.ix.byDir[dir]) == 0
	}
	cache := toolchainEnv().modcache
	for modDir, reqs := range ir.ix.mods.requires {
		for _, r := range reqs {
			if ip != r.Path && !strings.HasPrefix(ip, r.Path+"/") {
				continue
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(ip, r.Path), "/")
			mv := r
			if rep, ok := ir.ix.mods.replaces[modDir][r.Path]; ok {
				if rep.Version == "" {
					return false // a directory: the repository's own
				}
				mv = rep
			}
			d := cacheDir(cache, mv.Path+"@"+mv.Version)
			if d == "" || !isDir(d) {
				return false // the version is not on disk: unknown
			}
			return len(packageFiles(filepath.Join(d, filepath.FromSlash(rel)))) == 0
		}
	}
	return false // not required: the build says so, not a deletion
}

// importUses reports the uses of an import's old name in its file.
func (ir *importers) importUses(ctx context.Context, c *model.Change) []*lang.Ref {
	file := c.Old.Unit // imports are per file: Unit is the file's path
	ip := c.Old.Name
	d := c.Old
	spec, _ := d.Data.(*ast.ImportSpec)
	oldName := ""
	if spec != nil && spec.Name != nil {
		oldName = spec.Name.Name
	}
	if oldName == "" {
		oldName = ir.ix.importName(ctx, ip, dirOf(file))
	}
	if oldName == "_" || oldName == "." {
		return nil
	}
	if !ir.ix.exists(file) {
		return nil // the file is deleted: no use of the import is left
	}
	fs := ir.ix.parse(ctx, []string{file})
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
		out = append(out, ir.ix.finding(r, v, prec))
		return true
	})
	return out
}

// importersOf reports the imports of a package that no longer exists.
func (ir *importers) importersOf(ctx context.Context, ip string, c *model.Change) []*lang.Ref {
	keep, err := ir.ix.Search(ctx, []string{strconv.Quote(ip)})
	if err != nil {
		ir.env.Diag(model.Diagnostic{Message: "importers of " + ip + " not searched: " + err.Error()})
		return nil
	}
	var out []*lang.Ref
	for _, f := range ir.ix.parse(ctx, keep) {
		for _, im := range f.ast.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p != ip {
				continue
			}
			r := &ref{t: &target{ch: c}, f: f, stack: stackAt(f.ast, im.Path.Pos()), prec: model.PrecisionSyntax}
			v := verdict{rel: model.ImportedBy, v: model.Inconsistent,
				msg: fmt.Sprintf("imports %q, whose last file this change deletes", ip)}
			if c.Label == model.DI && c.New != nil {
				v.msg = fmt.Sprintf("imports %q, which the new version moved to %q", ip, c.New.Name)
			}
			fd := ir.ix.finding(r, v, model.PrecisionSyntax)
			fd.Site.Line, fd.Site.Col, fd.Site.Text = ir.ix.lineText(f, im.Path.Pos())
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
func tagFindings(ctx context.Context, env *lang.Env, changes []*model.Change) []*lang.Ref {
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
			out = append(out, fixtureUses(ctx, env, c, k, old, now)...)
		}
	}
	return out
}

// fixtureUses reports the lines of the head's test files and testdata
// that spell old, the field's former name for encoding key (quoted, or
// as a YAML key), at most maxTagSites of them.
func fixtureUses(ctx context.Context, env *lang.Env, c *model.Change, key, old, now string) []*lang.Ref {
	files, err := env.Head.Grep(ctx, []string{old}, "*_test.go", "*testdata/*")
	if err != nil {
		return nil
	}
	quoted := regexp.MustCompile(`"` + regexp.QuoteMeta(old) + `"`)
	yamlKey := regexp.MustCompile(`^\s*-?\s*` + regexp.QuoteMeta(old) + `\s*:`)
	data, err := env.Head.ReadFiles(ctx, files)
	if err != nil {
		env.Diag(model.Diagnostic{Message: err.Error()})
	}
	var out []*lang.Ref
	for _, p := range files {
		if env.Ignored != nil && env.Ignored(p) {
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
