package typescript

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/config"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/lang/typescript/tsc"
	"github.com/ripple-dev/ripple/internal/model"
)

// The type-precise tier: TypeScript 7's compiler (tsc, native) settles
// the sites the syntax could not. It runs under `precision: types`, and
// in `auto` within the time budget when tsc is already installed (auto
// never installs it: a pre-push check does not reach the network
// unasked). The head state is written to a temporary directory (a check
// reads git objects and never checks anything out), the node_modules of
// the work tree are linked into it when there are some, and tsc runs on
// the projects that compile the files holding the sites to settle, each
// once (tsc.Compiler.Run; tscsettle.go judges the sites).

// tscTier is the analyzer's type-precise tier (this file, tscbudget.go,
// tscsettle.go): preparing tsc, deciding whether it fits the budget,
// writing the head state, running it per project and settling the
// sites. It shares the analyzer's environment, files and preparation,
// so it extends the analyzer rather than copying them; the analyzer
// starts it (startTSC) and hands it the unsure sites (typecheck).
type tscTier struct{ *analyzer }

// tscSite is a ref of the syntactic tier with the syntax it stands on.
type tscSite struct {
	ref *lang.Ref
	t   *target
	f   *tsfile
	n   *treesit.Node
}

// tsSource reports a TypeScript source file (not JavaScript, not a
// declaration file): tsc checks its calls against declared types. In
// JavaScript every parameter is optional to tsc and most types are
// inferred, so its silence there proves nothing.
func tsSource(p string) bool {
	switch extOf(p) {
	case ".ts", ".tsx", ".mts", ".cts":
		return true
	}
	return false
}

// unsure reports a site the type checker may settle: a warning, or,
// under precision types, a site the syntax called consistent. A
// syntactic error is final (an argument count, a removed export), notes
// are the farther frontier, and sites or declarations in JavaScript are
// left to the syntax.
func (a tscTier) unsure(s *tscSite) bool {
	r := s.ref
	if !tsSource(r.Site.Path) || s.n == nil || r.Change.Derived {
		return false
	}
	decl := s.t.path
	if s.t.ch.Old != nil && s.t.kind == tGone {
		decl = s.t.ch.Old.Path
	}
	if !tsSource(decl) && !declOnly(decl) {
		return false
	}
	switch r.Verdict {
	case model.MayBeImpacted:
		return true
	case model.Consistent:
		return a.env.Precision == config.PrecisionTypes
	case model.Inconsistent:
		return r.Precision == model.PrecisionName
	}
	return false
}

// typecheck runs tsc on the projects of the unsure sites and settles
// them.
func (a tscTier) typecheck(ctx context.Context, sites []*tscSite) {
	if a.env.Precision == config.PrecisionSyntax {
		return
	}
	var todo []*tscSite
	for _, s := range sites {
		if a.unsure(s) {
			todo = append(todo, s)
		}
	}
	if len(todo) == 0 {
		return
	}
	deadline := a.env.Deadline
	if a.env.Precision == config.PrecisionTypes {
		deadline = time.Time{}
	}
	if !deadline.IsZero() {
		if !time.Now().Before(deadline) {
			a.note("typescript-budget", fmt.Sprintf("typescript: %s not type-checked: the time budget was spent (raise budget, or use precision: types)", model.Plural(len(todo), "site was", "sites were")))
			return
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	var roots []string
	seen := map[string]bool{}
	for _, s := range todo {
		if !seen[s.ref.Site.Path] {
			seen[s.ref.Site.Path] = true
			roots = append(roots, s.ref.Site.Path)
		}
	}
	auto := a.env.Precision != config.PrecisionTypes
	var bytes int64
	var files int
	if auto {
		var ok bool
		if bytes, files, ok = a.affordable(ctx, todo, roots, deadline); !ok {
			return
		}
	}
	prep := a.tscPrep()
	select {
	case <-prep.done:
	case <-ctx.Done():
		a.note("typescript-budget", fmt.Sprintf("typescript: %s not type-checked: the time budget was spent (raise budget, or use precision: types)", model.Plural(len(todo), "site was", "sites were")))
		return
	}
	if prep.err != nil {
		a.note("typescript-tsc", "typescript: types not checked, the syntax judged every site: "+prep.err.Error())
		return
	}
	wt := prep.wt
	if wt != "" {
		trace("the work tree holds the head state: tsc runs there")
	}
	if auto {
		// the sites' projects, now that they are known
		full, what := a.fullCost(ctx, prep, todo, bytes, files)
		if !a.fitsTenth(roots, bytes, full, what) {
			return
		}
	}
	root, err := os.MkdirTemp("", "ripple-tsc-")
	if err != nil {
		a.note("typescript-tsc", "typescript: types not checked: "+err.Error())
		return
	}
	defer os.RemoveAll(root)
	t0 := time.Now()
	tree := wt
	if tree == "" {
		tree = filepath.Join(root, "tree")
		err = a.materialize(ctx, tree)
		trace("head state written for tsc in %v", time.Since(t0))
		if err != nil {
			a.note("typescript-tsc", "typescript: types not checked: writing the head state for tsc: "+err.Error())
			return
		}
	}
	prep.checkProjects(ctx, a, tree, root, todo)
}

// affordable decides, in auto precision and before anything costly,
// whether tsc may run for the sites: it must be installed, fit the time
// left of the budget, and be able to fit in a tenth of a full tsc at all
// (tscbudget.go). It returns the size of the files the sites' files
// import, which the later estimate reuses; when it reports false it has
// noted why.
func (a tscTier) affordable(ctx context.Context, todo []*tscSite, roots []string, deadline time.Time) (bytes int64, files int, ok bool) {
	if _, err := (&tsc.Compiler{NoInstall: true}).Locate(ctx); err != nil {
		a.note("typescript-tsc", "typescript: types not checked, the syntax judged every site: "+err.Error())
		return 0, 0, false
	}
	t0 := time.Now()
	bytes, files = a.closure(ctx, a.reader(ctx, ""), roots, 50000)
	cost, left := tscCost(bytes), time.Until(deadline)
	trace("the sites' files import %d files, %.1f MB: tsc would take about %v, %v of the budget left (estimated in %v)", files, float64(bytes)/(1<<20), cost.Round(100*time.Millisecond), left.Round(100*time.Millisecond), time.Since(t0))
	if !deadline.IsZero() && cost > left {
		a.note("typescript-budget", fmt.Sprintf("typescript: types not checked: tsc would take about %v on the %d files (%.1f MB) the %s import, more than the %v left of the time budget (raise budget, or use precision: types)",
			cost.Round(time.Second), files, float64(bytes)/(1<<20), model.Plural(len(todo), "site's file", "sites' files"), left.Round(100*time.Millisecond)))
		return bytes, files, false
	}
	enough := 10 * (time.Since(a.started) + tscQuick(bytes))
	if full, what, ok := a.repoFullCost(enough); ok && !a.fitsTenth(roots, bytes, full, what) {
		return bytes, files, false
	}
	return bytes, files, true
}

// checkProjects runs the prepared tsc once per project of the sites, in
// tree (the head state; root is the scratch directory), and settles each
// project's sites from its diagnostics. A run that fails stops the rest,
// whose sites keep their syntactic verdict; a project whose imports did
// not resolve is noted, as tsc is silent on what uses them.
func (p *tscPrepared) checkProjects(ctx context.Context, a tscTier, tree, root string, todo []*tscSite) {
	compiler, bin := p.tsc, p.bin
	t0 := time.Now()
	projects := p.projects
	if projects == nil || tree != p.wt {
		projects = tsc.NewProjects(bin, tree)
	}
	var order []*tsc.Project
	byProject := map[*tsc.Project][]*tscSite{}
	for _, s := range todo {
		proj := projects.For(ctx, filepath.Join(tree, filepath.FromSlash(s.ref.Site.Path)))
		if byProject[proj] == nil {
			order = append(order, proj)
		}
		byProject[proj] = append(byProject[proj], s)
	}
	trace("%s of %s found in %v (%d configurations read)", model.Plural(len(order), "project", "projects"), model.Plural(len(todo), "site", "sites"), time.Since(t0), projects.Ran)
	paths := a.workspacePaths(tree)
	for k, v := range a.npmPaths(root) {
		paths[k] = v // the bumped packages' new versions (npmvirtual.go)
	}
	var lacking []string
	left := 0
	for i, proj := range order {
		var roots []string
		seen := map[string]bool{}
		for _, s := range byProject[proj] {
			f := filepath.Join(tree, filepath.FromSlash(s.ref.Site.Path))
			if !seen[f] {
				seen[f] = true
				roots = append(roots, f)
			}
		}
		run, err := compiler.Run(ctx, bin, tree, proj, tsc.RunOptions{Roots: roots, Paths: paths, TempDir: root, Checkers: checkers()})
		if err != nil {
			for _, q := range order[i:] {
				left += len(byProject[q])
			}
			if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
				a.note("typescript-budget", fmt.Sprintf("typescript: type checking stopped at the time budget: %s of %d checked, %s keep their syntactic verdict (raise budget, or use precision: types)",
					model.Plural(i, "project", "projects"), len(order), model.Plural(left, "site", "sites")))
			} else {
				a.note("typescript-tsc", "typescript: types not checked: "+err.Error())
			}
			break
		}
		a.typed++
		trace("%s: %d roots, %d diagnostics in %v", run.Cmd, run.Roots, len(run.Diagnostics), run.Took)
		a.settleRun(run, tree, byProject[proj])
		if len(run.Unresolved) > 0 {
			lacking = append(lacking, proj.Name(tree)+" without "+someOf(run.Unresolved, 4))
		}
	}
	if len(lacking) > 0 {
		a.note("typescript-unresolved", "typescript: tsc checked "+strings.Join(lacking, "; ")+
			": tsc is silent on what uses them (their types are any), so no site there is called consistent (install the dependencies to check it with types)")
	}
}

// tscPrepared is what the type-precise tier needs before it has sites:
// tsc's executable, whether the work tree holds the head state, and the
// projects of the changed files (a `tsc --showConfig` each), found while
// the syntactic analysis runs.
type tscPrepared struct {
	done     chan struct{}
	tsc      *tsc.Compiler
	bin      string
	err      error
	wt       string        // the work tree, when it holds the head state
	projects *tsc.Projects // of wt, with the changed files' projects loaded
}

// startTSC starts preparing the type-precise tier, concurrently with
// the syntactic analysis, when it will run: under precision types, with a
// TypeScript source changed. In auto tsc runs seldom (only where it fits
// in a tenth of a full tsc), so it is prepared only once it is known to
// fit: on two cores the preparation's processes would slow the syntax.
func (a tscTier) startTSC() {
	if a.env.Precision != config.PrecisionTypes {
		return
	}
	var changed []string
	for p := range a.env.Changed {
		if tsSource(p) && a.files[p] {
			changed = append(changed, p)
		}
	}
	if len(changed) == 0 {
		return
	}
	sort.Strings(changed)
	a.prep = a.newPrep()
	go a.prep.run(a, changed)
}

// tscPrep returns the preparation, made now when it was not started.
func (a tscTier) tscPrep() *tscPrepared {
	if a.prep == nil {
		a.prep = a.newPrep()
		a.prep.run(a, nil)
	}
	return a.prep
}

func (a tscTier) newPrep() *tscPrepared {
	return &tscPrepared{done: make(chan struct{}), tsc: &tsc.Compiler{NoInstall: a.env.Precision != config.PrecisionTypes}}
}

func (p *tscPrepared) run(a tscTier, changed []string) {
	defer close(p.done)
	t0 := time.Now()
	ctx := a.ctx
	if a.env.Precision != config.PrecisionTypes && !a.env.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, a.env.Deadline)
		defer cancel()
	}
	if p.bin, p.err = p.tsc.Locate(ctx); p.err != nil {
		return
	}
	if p.wt = a.workTreeAtHead(ctx); p.wt == "" {
		return
	}
	p.projects = tsc.NewProjects(p.bin, p.wt)
	dirs := map[string]bool{}
	for _, f := range changed {
		if d := path.Dir(f); !dirs[d] && len(dirs) < 8 {
			dirs[d] = true
			p.projects.For(ctx, filepath.Join(p.wt, filepath.FromSlash(f)))
		}
	}
	trace("prepared in %v (%d configurations read)", time.Since(t0), p.projects.Ran)
}

// checkers is the number of type checkers tsc runs for the sites' files:
// half the cores, at least one and at most tsc's default of four. The
// sites' files are a small program, where more checkers mostly repeat
// each other's work on the default library, and the other cores parse.
func checkers() int {
	return min(4, max(1, runtime.NumCPU()/2))
}

func (a *analyzer) note(key, s string) {
	if a.env.Note != nil {
		a.env.Note(key, s)
	}
}

// trace prints to stderr when RIPPLE_TRACE is set, with the time since
// the process started.
func trace(format string, args ...any) {
	if os.Getenv("RIPPLE_TRACE") != "" {
		fmt.Fprintf(os.Stderr, "ripple: typescript: %6.3fs: "+format+"\n", append([]any{time.Since(processStart).Seconds()}, args...)...)
	}
}

var processStart = time.Now()

// someOf lists at most n of names and says how many it left out.
func someOf(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

// materialize writes the head state's TypeScript, JavaScript and JSON
// files under dir, and links the work tree's node_modules directories
// beside the package.json files that have them.
func (a tscTier) materialize(ctx context.Context, dir string) error {
	list, err := a.env.Head.List(ctx, append(append([]string(nil), pathspecs...), "*.json")...)
	if err != nil {
		return err
	}
	// every tracked file, vendored and generated ones included: the
	// sources import them
	var want []string
	for _, p := range list {
		if !strings.Contains("/"+p, "/node_modules/") {
			want = append(want, p)
		}
	}
	files, err := a.env.Head.ReadFiles(ctx, want)
	if err != nil && len(files) == 0 {
		return err
	}
	made := map[string]bool{}
	var pkgDirs []string
	for _, p := range want {
		b, ok := files[p]
		if !ok {
			continue
		}
		full := filepath.Join(dir, filepath.FromSlash(p))
		d := filepath.Dir(full)
		if !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
			made[d] = true
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			return err
		}
		if path.Base(p) == "package.json" {
			pkgDirs = append(pkgDirs, path.Dir(p))
		}
	}
	if top := workTop(a.env.Head); top != "" {
		pkgDirs = append(pkgDirs, ".")
		sort.Strings(pkgDirs)
		for _, d := range pkgDirs {
			nm := filepath.Join(top, filepath.FromSlash(d), "node_modules")
			if st, err := os.Stat(nm); err == nil && st.IsDir() {
				link := filepath.Join(dir, filepath.FromSlash(d), "node_modules")
				if err := os.MkdirAll(filepath.Dir(link), 0o755); err == nil {
					_ = os.Symlink(nm, link)
				}
			}
		}
	}
	return nil
}

// workTreeAtHead returns the work tree when it holds the head state for
// tsc: a check of the work tree itself, or of the commit checked out
// there with no TypeScript, JavaScript or JSON file modified or
// untracked (a pre-push of the current branch, usually). tsc then runs
// in it, with its node_modules as they are, and nothing is written.
// "" otherwise.
func (a tscTier) workTreeAtHead(ctx context.Context) string {
	switch h := a.env.Head.(type) {
	case *gitio.WorkTree:
		return h.R.Top
	case *gitio.RevTree:
		if h.SHA == "" || h.R.HeadCommit(ctx) != h.SHA {
			return ""
		}
		args := append([]string{"status", "--porcelain", "-z", "--untracked-files=all", "--"}, pathspecs...)
		out, err := h.R.Git(ctx, append(args, "*.json")...)
		if err != nil || len(out) > 0 {
			return ""
		}
		return h.R.Top
	}
	return ""
}

// reader reads head-state files: from the work tree when it holds the
// head state (wt), else from git.
func (a tscTier) reader(ctx context.Context, wt string) func([]string) map[string][]byte {
	if wt == "" {
		return func(ps []string) map[string][]byte {
			m, _ := a.env.Head.ReadFiles(ctx, ps)
			return m
		}
	}
	return func(ps []string) map[string][]byte {
		m := make(map[string][]byte, len(ps))
		for _, p := range ps {
			if b, err := os.ReadFile(filepath.Join(wt, filepath.FromSlash(p))); err == nil {
				m[p] = b
			}
		}
		return m
	}
}

// workTop is the work tree of the repository a state belongs to, "" when
// there is none.
func workTop(t gitio.Tree) string {
	switch x := t.(type) {
	case *gitio.RevTree:
		return x.R.Top
	case *gitio.WorkTree:
		return x.R.Top
	}
	return ""
}

// workspacePaths maps the repository's workspace packages to their
// sources, as compilerOptions.paths for tsc: a fresh checkout has no
// node_modules to link them, and the head state's sources are what the
// change is checked against.
func (a tscTier) workspacePaths(tree string) map[string][]string {
	p := a.project()
	out := map[string][]string{}
	for name, w := range p.pkgs {
		if f := p.entry(w, "."); f != "" {
			out[name] = []string{filepath.Join(tree, filepath.FromSlash(f))}
		}
		out[name+"/*"] = []string{filepath.Join(tree, filepath.FromSlash(w.dir), "src", "*"), filepath.Join(tree, filepath.FromSlash(w.dir), "*")}
	}
	return out
}
