package bump

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/diffclassify"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// Pathspecs are the manifests every Bumper of fes reads, for the diff
// that selects the changed files.
func Pathspecs(fes lang.Set) []string {
	var out []string
	for _, fe := range fes {
		if b, ok := fe.(lang.Bumper); ok {
			out = append(out, b.Manifests()...)
		}
	}
	return out
}

// Input is what Seeds reads: the check's front-ends, its two trees and
// its changed files (those no front-end owns as source are offered to
// the Bumpers as manifests).
type Input struct {
	Frontends  lang.Set
	Base, Head gitio.Tree
	Files      []*gitio.FileChange
	Deadline   time.Time
}

// Output is the seed changes of the bumps and what was said about them.
type Output struct {
	Changes     []*model.Change
	Diagnostics []model.Diagnostic
	Notes       []string
	Bumps       []*model.Bump
	Parsed      int
}

// Seeds reads every bump of the changed manifests into changes.
func Seeds(ctx context.Context, in Input) (*Output, error) {
	out := &Output{}
	for _, fe := range in.Frontends {
		bp, ok := fe.(lang.Bumper)
		if !ok {
			continue
		}
		var manifests []*gitio.FileChange
		for _, fc := range in.Files {
			if in.Frontends.For(fc.Path()) == nil && matches(bp.Manifests(), fc.Path()) {
				manifests = append(manifests, fc)
			}
		}
		if len(manifests) == 0 {
			continue
		}
		bumps, err := bp.Bumps(ctx, lang.BumpInput{Base: in.Base, Head: in.Head, Manifests: manifests, Deadline: in.Deadline,
			Diag: func(d model.Diagnostic) { out.Diagnostics = append(out.Diagnostics, d) }})
		if err != nil {
			return nil, fmt.Errorf("reading the dependency bumps: %w", err)
		}
		for _, b := range bumps {
			if err := out.read(ctx, fe, bp, b); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func matches(specs []string, p string) bool {
	for _, s := range specs {
		if gitio.MatchPathspec(s, p) {
			return true
		}
	}
	return false
}

// read classifies one bump's two states and keeps its API changes.
func (out *Output) read(ctx context.Context, fe lang.Frontend, bp lang.Bumper, b *lang.Bump) error {
	mb := b.Bump
	out.Bumps = append(out.Bumps, &mb)
	if len(b.Imported) == 0 {
		out.Notes = append(out.Notes, mb.String()+": the repository imports none of its packages (an indirect dependency): no use to judge")
		return nil
	}
	n := 0
	for _, m := range b.Moved {
		// an import path the bump moved: a rename of the import
		c := &model.Change{Label: model.DI, Old: m[0], New: m[1], Bump: &mb, Details: []string{"moved to " + m[1].Name}}
		out.Changes = append(out.Changes, c)
		n++ // known without reading the versions
	}
	if b.InDiff != "" {
		out.Notes = append(out.Notes, fmt.Sprintf("%s: the module is vendored: its changes are the diff's own in %s/", mb.String(), b.InDiff))
		return nil
	}
	if b.Unread != "" {
		out.Diagnostics = append(out.Diagnostics, model.Diagnostic{Path: mb.Manifest, Line: mb.Line,
			Message: fmt.Sprintf("%s: the uses of %s the repository imports (%s) are not judged: its source could not be read (%s)",
				mb.String(), model.Plural(len(b.Imported), "package", "packages"), strings.Join(b.Imported, ", "), b.Unread)})
		return nil
	}
	if b.Fetched > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%s: fetching its versions took %v, past the budget: a dependency's bump is read whatever the budget, as the diff's own declarations are", mb.String(), b.Fetched.Round(100*time.Millisecond)))
	}
	cl, err := diffclassify.Classify(ctx, diffclassify.Input{Files: b.Files, Base: b.Base, Head: b.Head, Frontends: lang.Set{fe}})
	if err != nil {
		return err
	}
	out.Parsed += cl.Parsed
	for _, d := range cl.Diagnostics {
		// a dependency's file that does not parse: its path is the
		// version's, and the line is the manifest's
		out.Diagnostics = append(out.Diagnostics, model.Diagnostic{Path: mb.Manifest, Line: mb.Line,
			Message: mb.String() + ": " + versioned(d.Path, b) + ": " + d.Message, Partial: d.Partial})
	}
	forwarded(ctx, fe, bp, b, cl.Changes)
	for _, c := range cl.Changes {
		if !kept(bp, c) {
			continue
		}
		if c.Old != nil {
			c.Old.Path = strings.Replace(c.Old.Path, b.Root, b.OldRoot, 1)
		}
		if c.New != nil {
			c.New.Path = strings.Replace(c.New.Path, b.Root, b.NewRoot, 1)
		}
		c.Bump = &mb
		c.Details = append(c.Details, declarations(c)...)
		out.Changes = append(out.Changes, c)
		n++
	}
	if len(b.Directives) > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%s: the new version marks %s %s (%s), its own migration: hook fix applies it where the repository uses them",
			mb.String(), model.Plural(len(b.Directives), "name", "names"), b.Directive, strings.Join(b.Directives, ", ")))
	}
	out.Notes = append(out.Notes, fmt.Sprintf("%s: compared %s the repository imports (%s): %s of their API",
		mb.String(), model.Plural(len(b.Imported), "package", "packages"), strings.Join(b.Imported, ", "), model.Plural(n, "change", "changes")))
	return nil
}

// kept reports whether a change of a dependency is one of its API that
// dependents may depend on: a body change is the dependency's
// behaviour, which is not judged; imports (but re-exports) and
// unexported names are invisible from outside; an added function, type or method reaches no
// code that compiled before (an added interface method reaches its
// implementers, an added field the struct's unkeyed literals).
func kept(bp lang.Bumper, c *model.Change) bool {
	switch c.Label {
	case model.MMB, model.AI:
		return false
	case model.DI, model.MI:
		// an import is the dependency's own business, unless it is
		// how its package exports the name (lang.ReExporter)
		re, ok := bp.(lang.ReExporter)
		return ok && c.Old != nil && re.ReExport(c.Old)
	case model.AC, model.ACC:
		return false // code that compiled before cannot name it
	case model.AM:
		if c.New.Kind != model.KindIfaceMethod {
			return false // a new method breaks nothing; an interface's, its implementers
		}
	case model.AF:
		if c.New.Kind != model.KindField {
			return false // a new variable or constant breaks nothing
		}
	}
	return c.Old != nil && bp.API(c.Old) || c.New != nil && bp.API(c.New)
}

func versioned(p string, b *lang.Bump) string {
	return strings.Replace(p, b.Root, b.NewRoot, 1)
}

// Summarize says, per bump, how many of its changes the repository uses
// (have a finding) and at how many sites: "github.com/x/y v1.4.0 ->
// v1.6.2: 3 of 5 API changes are used by the repository, at 7 sites".
func Summarize(bumps []*model.Bump, changes []*model.Change, findings []*model.Finding) []string {
	if len(bumps) == 0 {
		return nil
	}
	type count struct {
		changes int
		used    map[*model.Change]bool
		sites   map[string]bool
	}
	by := map[model.Bump]*count{}
	for _, b := range bumps {
		by[*b] = &count{used: map[*model.Change]bool{}, sites: map[string]bool{}}
	}
	for _, c := range changes {
		if c.Bump != nil && by[*c.Bump] != nil {
			by[*c.Bump].changes++
		}
	}
	for _, f := range findings {
		seed := f.Change
		for seed != nil && seed.Cause != nil {
			seed = seed.Cause
		}
		if seed == nil || seed.Bump == nil || by[*seed.Bump] == nil {
			continue
		}
		k := by[*seed.Bump]
		k.used[seed] = true
		k.sites[fmt.Sprintf("%s:%d", f.Site.Path, f.Site.Line)] = true
	}
	var out []string
	for _, b := range bumps {
		k := by[*b]
		if k.changes == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("%s: %d of %s used by the repository, at %s", b.String(), len(k.used), model.Plural(k.changes, "API change", "API changes"), model.Plural(len(k.sites), "site", "sites")))
	}
	sort.Strings(out)
	return out
}

// forwarded turns the deletion of a function that only forwarded to
// another one the new version still has (a deprecated name removed)
// into a rename to it: its callers' edit is the new name.
func forwarded(ctx context.Context, fe lang.Frontend, bp lang.Bumper, b *lang.Bump, changes []*model.Change) {
	var news map[string]*lang.Decl // package and key -> declaration of the new version
	for _, c := range changes {
		if c.Label != model.DM || c.New != nil || c.Old.Kind != model.KindFunc {
			continue
		}
		to := bp.Forwards(c.Old)
		if to == "" {
			continue
		}
		if news == nil {
			news = declsOf(ctx, fe, b.Head)
		}
		d := news[c.Old.Package+"\x00"+to]
		if d == nil || d.Kind != model.KindFunc {
			continue
		}
		nb := d.Block
		c.New = &nb
		c.Details = append(fe.Details(&lang.Decl{Block: *c.Old}, d), "renamed to "+to+": "+c.Old.Name+" only called it")
	}
}

// declsOf parses every file of a tree: package and key to declaration.
func declsOf(ctx context.Context, fe lang.Frontend, t gitio.Tree) map[string]*lang.Decl {
	out := map[string]*lang.Decl{}
	paths, _ := t.List(ctx)
	srcs, _ := t.ReadFiles(ctx, paths)
	for _, p := range paths {
		ds, _ := fe.Decls(p, srcs[p])
		for _, d := range ds {
			out[d.Package+"\x00"+d.Key()] = d
		}
	}
	return out
}

// declarations are a bump's change's two declarations as written, for
// the message: the developer never saw the dependency's diff.
func declarations(c *model.Change) []string {
	var out []string
	if c.Old != nil && c.Old.Signature != "" {
		out = append(out, "was "+oneLine(c.Old.Signature))
	}
	if c.New != nil && c.New.Signature != "" {
		out = append(out, "now "+oneLine(c.New.Signature))
	}
	return out
}

// oneLine is a declaration on one line, without the semicolon that
// ends a declaration file's bodiless one (TypeScript).
func oneLine(s string) string {
	return strings.TrimSuffix(strings.Join(strings.Fields(s), " "), ";")
}
