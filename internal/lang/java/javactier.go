package java

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/java/javac"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// The type-precise tier: javac settles the sites the syntax could only
// warn about. It runs under `precision: types`, and in `auto` when javac
// is on PATH (or in JAVA_HOME) and the check is expected to fit what is
// left of the time budget (javacCost). The head state is the work tree
// when it holds it (a pre-push of the branch checked out), else a copy
// of the head's Java sources and build files written to a temporary
// folder; javac.CheckSitesIn compiles the sites' files and the changed
// files, one javac a module, reading what they reference through
// -sourcepath (javacsettle.go judges the sites).

// jsite is a ref of the syntactic tier with the syntax it stands on.
type jsite struct {
	ref *lang.Ref
	t   *target
	f   *jfile
	n   *treesit.Node
	// applied is set when javac said the call cannot be applied to its
	// arguments (it binds to the changed declaration): a proven arity
	// break, which a mechanical fix may repair.
	applied bool
}

// buildPathspecs select what javac's project discovery reads besides
// the sources: the builds and the jars a repository carries.
var buildPathspecs = []string{"*.java", "pom.xml", "*.gradle", "*.gradle.kts", "gradle.properties", "*.jar"}

// unsure reports a site javac may settle: a warning of the syntax (not
// of a derived change, whose form the head state does not hold) that
// can be reported as more than a note.
func (a *analyzer) unsure(s *jsite) bool {
	r := s.ref
	if s.n == nil || r.Change.Derived || r.Verdict != model.MayBeImpacted {
		return false
	}
	if r.Precision != model.PrecisionSyntax && r.Precision != model.PrecisionName {
		return false
	}
	return !a.env.NoteOnly(r.Change.Label, r.Relation)
}

// typecheck runs javac on the files of the unsure sites among refs and
// settles them; what it could not settle says why.
func (a *analyzer) typecheck(ctx context.Context, refs []*lang.Ref) {
	if a.env.Precision == config.PrecisionSyntax || len(refs) == 0 {
		return
	}
	var todo []*jsite
	for _, r := range refs {
		if s := a.sites[r]; s != nil && a.unsure(s) {
			todo = append(todo, s)
		}
	}
	if len(todo) == 0 {
		return
	}
	types := a.env.Precision == config.PrecisionTypes
	if !types && !a.env.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, a.env.Deadline)
		defer cancel()
	}
	changed := a.changedJava()
	fresh := a.unjudged(todo)
	files := siteFiles(fresh, changed)
	if len(fresh) > 0 && !types && !a.env.Deadline.IsZero() {
		cost, left := javacCost(len(files)), time.Until(a.env.Deadline)
		if cost > left {
			a.note("java-budget", fmt.Sprintf("java: %s not type-checked: javac would take about %v on %s, more than the %v left of the time budget (raise budget, or use precision: types)",
				model.Plural(len(fresh), "site was", "sites were"), cost.Round(100*time.Millisecond), model.Plural(len(files), "file", "files"), left.Round(100*time.Millisecond)))
			a.leave(fresh, "a javac check within the time budget")
			a.settleJudged(todo)
			return
		}
	}
	// after the estimate: finding javac starts a JVM
	if _, err := a.javac.Locate(ctx); err != nil {
		a.note("java-javac", "java: types not checked, the syntax judged every site: "+err.Error())
		return
	}
	res, err := a.runJavac(ctx, changed, fresh)
	// stopped at the budget: the errors javac printed before are proof,
	// its silence on the rest is not
	stopped := err != nil && res != nil && res.Stopped
	if err != nil && !stopped {
		why := "java: types not checked: " + err.Error()
		if ctx.Err() != nil {
			why = fmt.Sprintf("java: type checking stopped at the time budget: %s keep their syntactic verdict (raise budget, or use precision: types)", model.Plural(len(fresh), "site", "sites"))
		}
		a.note("java-javac", why)
		a.leave(fresh, "a javac check that completed")
		a.settleJudged(todo)
		return
	}
	proved, left := 0, 0
	for _, s := range todo {
		from := res
		if v := a.judged.Files[s.ref.Site.Path]; stopped && v != nil && v.Compiled {
			from = a.judged // an earlier round's complete verdict
		}
		if v := from.Files[s.ref.Site.Path]; v != nil || !stopped {
			a.settle(s, from)
			if s.applied && s.ref.Fix == nil {
				s.ref.Fix = a.argsFix(s)
			}
		}
		if stopped && from == res {
			if s.ref.Verdict == model.Inconsistent && s.ref.Precision == model.PrecisionTypes {
				proved++
			} else {
				left++
				s.ref.Missing = "a javac check that completed (javac was stopped at the time budget)"
			}
		}
	}
	if stopped {
		a.note("java-javac", fmt.Sprintf("java: type checking stopped at the time budget: javac proved %s broken before it was stopped, %s keep their syntactic verdict (raise budget, or use precision: types)",
			model.Plural(proved, "site", "sites"), model.Plural(left, "site", "sites")))
		return
	}
	if len(res.Missing) > 0 {
		var coords []string
		for _, m := range res.Missing {
			coords = append(coords, m.Coord)
		}
		a.note("java-missing", "java: javac checked the sites without "+someOf(coords, 4)+" (no jar on this machine): code using them is not proven by types (fetch the dependencies, e.g. mvn dependency:go-offline, to check it)")
	}
}

// leave marks sites javac did not judge with what their verdict lacks,
// after what the syntax lacked.
func (a *analyzer) leave(todo []*jsite, what string) {
	for _, s := range todo {
		if s.ref.Missing == "" {
			s.ref.Missing = what
		} else {
			s.ref.Missing += "; " + what
		}
	}
}

// settleJudged settles the sites whose files an earlier round compiled.
func (a *analyzer) settleJudged(todo []*jsite) {
	for _, s := range todo {
		if v := a.judged.Files[s.ref.Site.Path]; v != nil && v.Compiled {
			a.settle(s, a.judged)
		}
	}
}

// runJavac finds the head state's work tree (or writes one) and runs
// the type tier's javac on the sites' files and the changed files. The
// verdicts accumulate in a.judged across the rounds of one check (the
// head state does not change): a file compiled once is not compiled
// again.
func (a *analyzer) runJavac(ctx context.Context, changed []string, todo []*jsite) (*javac.Sites, error) {
	if len(todo) == 0 {
		return a.judged, nil
	}
	res, err := a.compileSites(ctx, changed, todo)
	if err != nil {
		if res != nil && res.Stopped {
			return res, err // what javac established before the deadline
		}
		return nil, err
	}
	a.typed++
	for p, v := range res.Files {
		if old := a.judged.Files[p]; old == nil || !old.Compiled {
			a.judged.Files[p] = v
		}
	}
	seen := map[string]bool{}
	for _, m := range a.judged.Missing {
		seen[m.Coord] = true
	}
	for _, m := range res.Missing {
		if !seen[m.Coord] {
			a.judged.Missing = append(a.judged.Missing, m)
		}
	}
	return a.judged, nil
}

// compileSites runs javac.CheckSitesIn on the head state.
func (a *analyzer) compileSites(ctx context.Context, changed []string, todo []*jsite) (*javac.Sites, error) {
	tree := a.workTreeAtHead(ctx)
	if tree == "" {
		tmp, err := os.MkdirTemp("", "ripple-javac-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		tree = filepath.Join(tmp, "tree")
		if err := a.materialize(ctx, tree); err != nil {
			return nil, fmt.Errorf("writing the head state for javac: %w", err)
		}
	}
	p, err := javac.Discover(tree, &a.javac.Resolver)
	if err != nil {
		return nil, err
	}
	var sites []string
	for _, f := range siteFiles(todo, nil) {
		if m, _ := p.Module(f); m != nil {
			sites = append(sites, f)
		}
	}
	var ch []string
	for _, f := range changed {
		if m, _ := p.Module(f); m != nil {
			ch = append(ch, f)
		}
	}
	return a.javac.CheckSitesIn(ctx, p, ch, sites)
}

// unjudged are the sites whose files no earlier round's javac compiled.
func (a *analyzer) unjudged(todo []*jsite) []*jsite {
	var out []*jsite
	for _, s := range todo {
		if v := a.judged.Files[s.ref.Site.Path]; v == nil || !v.Compiled {
			out = append(out, s)
		}
	}
	return out
}

// changedJava are the head state's changed Java files.
func (a *analyzer) changedJava() []string {
	var out []string
	for p := range a.env.Changed {
		if strings.HasSuffix(p, ".java") && a.ix.file(p) != nil {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// siteFiles are the distinct files of the sites, then of changed.
func siteFiles(todo []*jsite, changed []string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, s := range todo {
		add(s.ref.Site.Path)
	}
	for _, p := range changed {
		add(p)
	}
	return out
}

// materialize writes the head state's Java sources, build files and
// tracked jars under dir.
func (a *analyzer) materialize(ctx context.Context, dir string) error {
	list, err := a.env.Head.List(ctx, buildPathspecs...)
	if err != nil {
		return err
	}
	files, err := a.env.Head.ReadFiles(ctx, list)
	if err != nil && len(files) == 0 {
		return err
	}
	for _, p := range list {
		b, ok := files[p]
		if !ok {
			continue
		}
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// workTreeAtHead returns the work tree when it holds the head state: a
// check of the work tree itself, or of the commit checked out there
// with no Java source or build file modified or untracked. javac then
// reads it (and its target/dependency, lib and libs jars) as it is, and
// writes nothing there. "" otherwise.
func (a *analyzer) workTreeAtHead(ctx context.Context) string {
	switch h := a.env.Head.(type) {
	case *gitio.WorkTree:
		return h.R.Top
	case *gitio.RevTree:
		if h.SHA == "" || h.R.HeadCommit(ctx) != h.SHA {
			return ""
		}
		args := append([]string{"status", "--porcelain", "-z", "--untracked-files=all", "--"}, buildPathspecs[:5]...)
		out, err := h.R.Git(ctx, args...)
		if err != nil || len(out) > 0 {
			return ""
		}
		return h.R.Top
	}
	return ""
}

func (a *analyzer) note(key, s string) {
	if a.env.Note != nil {
		a.env.Note(key, s)
	}
}

// someOf lists at most n of names and says how many it left out.
func someOf(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}
