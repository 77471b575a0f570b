package python

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/python/pyright"
	"github.com/ripple-dev/ripple/internal/model"
)

// The type tier: pyright settles the sites the syntax could only warn
// about. It runs under `precision: types` (installing pyright when it
// is missing), and in `auto` when pyright is installed and its expected
// time on the sites' files and what they import fits the budget
// (pyrightCost). The head state is the work tree when it holds it (a
// pre-push of the branch checked out), else a copy of the head's Python
// files and configuration in a temporary folder; pyright analyses the
// sites' files through a configuration of Ripple's own
// (pyright.Analyse): the repository's settings, its virtual environment
// (.venv or venv at the top of the work tree, else $RIPPLE_PYTHON), the
// front-end's import roots as extra paths (pyrightsettle.go judges the
// sites).

// pysite is a ref of the syntactic tier with the syntax it stands on.
type pysite struct {
	ref *lang.Ref
	t   *target
	x   *ref
}

// pyFile is what pyright said of one file of the head state.
type pyFile struct {
	analysed bool
	diags    []pyright.Diag
}

// tier is the analyzer's type tier's state for one check: the verdicts
// of the files pyright analysed so far (the head state does not change
// between the rounds of a check: a file analysed once is not analysed
// again).
type tier struct {
	sites  map[*lang.Ref]*pysite
	judged map[string]*pyFile
	runs   int
}

// unsure reports a site pyright may settle: a warning of the syntax (not
// of a derived change, whose form the head state does not hold) that can
// be reported as more than a note.
func (a *analyzer) unsure(s *pysite) bool {
	r := s.ref
	if s.x == nil || r.Change.Derived || r.Verdict != model.MayBeImpacted || r.Gather {
		return false
	}
	if r.Precision != model.PrecisionSyntax && r.Precision != model.PrecisionName {
		return false
	}
	return !a.env.NoteOnly(r.Change.Label, r.Relation)
}

// typecheck runs pyright on the files of the unsure sites among refs and
// settles them; what it could not settle says why.
func (a *analyzer) typecheck(ctx context.Context, refs []*lang.Ref) {
	if a.env.Precision == config.PrecisionSyntax || len(refs) == 0 {
		return
	}
	var todo []*pysite
	for _, r := range refs {
		if s := a.tier.sites[r]; s != nil && a.unsure(s) {
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
	fresh := a.unjudged(todo)
	files := pySiteFiles(fresh)
	oracle := &pyright.Oracle{NoInstall: !types}
	if len(fresh) > 0 {
		if _, err := oracle.Locate(ctx); err != nil {
			a.note("python-pyright", "python: types not checked, the syntax judged every site: "+err.Error())
			a.settleJudged(todo)
			return
		}
		if !types && !a.env.Deadline.IsZero() {
			t0 := time.Now()
			left := time.Until(a.env.Deadline)
			// the estimate is of pyright's own time: on a machine busier
			// than its cores, its wall time stretches by the load
			load := loadFactor()
			// the estimate stops once it is over what half the budget left
			// allows: more is not needed to decide
			bytes, n, cut := a.importClosure(ctx, files, pyrightBytes(time.Duration(float64(left/2)/load)))
			cost := time.Duration(float64(pyrightCost(bytes)) * load)
			trace("pyright on %d files importing %d (%.1f MB%s): about %v at load factor %.1f, %v of the budget left (estimated in %v)", len(files), n, float64(bytes)/(1<<20), map[bool]string{true: " and more", false: ""}[cut], cost.Round(100*time.Millisecond), load, left.Round(100*time.Millisecond), time.Since(t0))
			if cut || cost > left/2 {
				more := ""
				if cut {
					more = " or more"
				}
				busy := ""
				if load > 1 {
					busy = fmt.Sprintf(" at this machine's load (%.1f times its cores)", load)
				}
				a.note("python-budget", fmt.Sprintf("python: %s not type-checked: pyright would take about %v%s on %s and the %d files they import (%.1f MB)%s, more than half the %v left of the time budget (raise budget, or use precision: types)",
					model.Plural(len(fresh), "site was", "sites were"), cost.Round(100*time.Millisecond), more, model.Plural(len(files), "file", "files"), n, float64(bytes)/(1<<20), busy, left.Round(100*time.Millisecond)))
				a.leave(fresh, "a pyright check within the time budget")
				a.settleJudged(todo)
				return
			}
		}
		if err := a.runPyright(ctx, oracle, files); err != nil {
			why := "python: types not checked: " + err.Error()
			if ctx.Err() != nil {
				why = fmt.Sprintf("python: type checking stopped at the time budget: %s keep their syntactic verdict (raise budget, or use precision: types)", model.Plural(len(fresh), "site", "sites"))
			}
			a.note("python-pyright", why)
			a.leave(fresh, "a pyright check that completed")
			a.settleJudged(todo)
			return
		}
	}
	for _, s := range todo {
		a.settle(s)
	}
}

// leave marks sites pyright did not judge with what their verdict lacks,
// after what the syntax lacked.
func (a *analyzer) leave(todo []*pysite, what string) {
	for _, s := range todo {
		if s.ref.Missing == "" {
			s.ref.Missing = what
		} else if !strings.Contains(s.ref.Missing, what) {
			s.ref.Missing += "; " + what
		}
	}
}

// settleJudged settles the sites whose files an earlier round analysed.
func (a *analyzer) settleJudged(todo []*pysite) {
	for _, s := range todo {
		if v := a.tier.judged[s.ref.Site.Path]; v != nil {
			a.settle(s)
		}
	}
}

// unjudged are the sites whose files no earlier round gave pyright.
func (a *analyzer) unjudged(todo []*pysite) []*pysite {
	var out []*pysite
	for _, s := range todo {
		if a.tier.judged[s.ref.Site.Path] == nil {
			out = append(out, s)
		}
	}
	return out
}

// pySiteFiles are the distinct files of the sites.
func pySiteFiles(todo []*pysite) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range todo {
		if p := s.ref.Site.Path; !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// runPyright runs pyright on files in the head state and records what
// it said of each.
func (a *analyzer) runPyright(ctx context.Context, oracle *pyright.Oracle, files []string) error {
	tree := a.workTreeAtHead(ctx)
	venv := ""
	if top := workTop(a.env.Head); top != "" {
		venv = findVenv(top)
	}
	if tree == "" {
		tmp, err := os.MkdirTemp("", "ripple-pyright-tree-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		tree = tmp
		t0 := time.Now()
		if err := a.materialize(ctx, tree); err != nil {
			return fmt.Errorf("writing the head state for pyright: %w", err)
		}
		trace("head state written for pyright in %v", time.Since(t0))
	}
	settings, err := a.pyrightSettings(tree)
	if err != nil {
		a.note("python-pyright-settings", "python: pyright ran without the repository's settings: "+err.Error())
	} else if settings != nil && len(settings.Skipped) > 0 {
		a.note("python-pyright-settings", "python: pyright ran without the settings "+someOf(settings.Skipped, 4)+" of "+settings.From+" (a form Ripple does not read)")
	}
	var roots []string
	for _, r := range a.ix.mods.roots {
		if r != "" && len(roots) < 32 {
			roots = append(roots, r)
		}
	}
	proj := pyright.Project{Root: tree, Files: files, ExtraPaths: roots, Settings: settings, Venv: venv}
	res, err := oracle.Analyse(ctx, proj)
	if err != nil {
		return err
	}
	a.tier.runs++
	trace("%s: %d analysed, %d diagnostics in %v", res.Cmd, res.Analysed, len(res.Diagnostics), res.Took)
	byFile := map[string][]pyright.Diag{}
	for _, d := range res.Diagnostics {
		byFile[d.Path] = append(byFile[d.Path], d)
	}
	for _, f := range files {
		a.tier.judged[f] = &pyFile{analysed: res.Complete, diags: byFile[f]}
	}
	return nil
}

// pyrightSettings reads the repository's own pyright settings in tree.
func (a *analyzer) pyrightSettings(tree string) (*pyright.Settings, error) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(tree, name))
		if err != nil {
			return nil
		}
		return b
	}
	return pyright.ReadSettings(read("pyrightconfig.json"), read("pyproject.toml"))
}

// findVenv returns a virtual environment at the top of the work tree
// (.venv or venv, recognised by its pyvenv.cfg), "" when there is none.
func findVenv(top string) string {
	for _, d := range []string{".venv", "venv"} {
		p := filepath.Join(top, d)
		if _, err := os.Stat(filepath.Join(p, "pyvenv.cfg")); err == nil {
			return p
		}
	}
	return ""
}

// pyPathspecs are what pyright reads of a state: the sources, stubs and
// the files that configure it or mark typed packages.
var pyPathspecs = []string{"*.py", "*.pyi", "py.typed", "pyproject.toml", "pyrightconfig.json"}

// materialize writes the head state's Python sources, stubs and
// configuration under dir.
func (a *analyzer) materialize(ctx context.Context, dir string) error {
	list, err := a.env.Head.List(ctx, pyPathspecs...)
	if err != nil {
		return err
	}
	files, err := a.env.Head.ReadFiles(ctx, list)
	if err != nil && len(files) == 0 {
		return err
	}
	made := map[string]bool{}
	for _, p := range list {
		b, ok := files[p]
		if !ok {
			continue
		}
		full := filepath.Join(dir, filepath.FromSlash(p))
		if d := filepath.Dir(full); !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
			made[d] = true
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// workTreeAtHead returns the work tree when it holds the head state: a
// check of the work tree itself, or of the commit checked out there with
// no Python file or pyright configuration modified or untracked. pyright
// then reads it as it is, and writes nothing there. "" otherwise.
func (a *analyzer) workTreeAtHead(ctx context.Context) string {
	switch h := a.env.Head.(type) {
	case *gitio.WorkTree:
		return h.R.Top
	case *gitio.RevTree:
		if h.SHA == "" || h.R.HeadCommit(ctx) != h.SHA {
			return ""
		}
		args := append([]string{"status", "--porcelain", "-z", "--untracked-files=all", "--"}, pyPathspecs...)
		out, err := h.R.Git(ctx, args...)
		if err != nil || len(out) > 0 {
			return ""
		}
		return h.R.Top
	}
	return ""
}

// workTop is the repository's work tree, "" for a bare repository.
func workTop(t gitio.Tree) string {
	switch h := t.(type) {
	case *gitio.WorkTree:
		return h.R.Top
	case *gitio.RevTree:
		return h.R.Top
	}
	return ""
}

// pyrightStart and pyrightBytesPerSecond estimate the type tier's cost
// for auto: pyright's start (Node.js, the configuration, the typeshed
// builtins: about 0.9 s wall and 1.1 CPU s for a one-file project on a
// 2-core machine) and the repository sources it reads for the sites'
// files (their import closure, errs long: pyright binds only what the
// types it evaluates reach).
const (
	pyrightStart          = 1200 * time.Millisecond
	pyrightBytesPerSecond = 1 << 20
)

func pyrightCost(bytes int64) time.Duration {
	return pyrightStart + time.Duration(float64(bytes)/pyrightBytesPerSecond*float64(time.Second))
}

// loadFactor is how much longer than its own time a process takes on
// this machine now: the one-minute load average over the cores, at
// least 1 (1 where the load cannot be read: /proc/loadavg is Linux's).
func loadFactor() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 1
	}
	l, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 1
	}
	return max(1, l/float64(runtime.NumCPU()))
}

// pyrightBytes is how many bytes of sources pyright is expected to read
// in d (at least 0).
func pyrightBytes(d time.Duration) int64 {
	if d <= pyrightStart {
		return 0
	}
	return int64((d - pyrightStart).Seconds() * pyrightBytesPerSecond)
}

// importClosure returns the size in bytes and the number of the
// repository's Python files that files import, transitively (themselves
// included), as the front-end resolves imports; cut reports that it
// stopped at max bytes.
func (a *analyzer) importClosure(ctx context.Context, files []string, max int64) (size int64, n int, cut bool) {
	seen := map[string]bool{}
	var level []string
	add := func(p string) {
		if p != "" && !strings.HasSuffix(p, "/") && !seen[p] {
			seen[p] = true
			level = append(level, p)
		}
	}
	for _, f := range files {
		add(f)
	}
	for len(level) > 0 {
		// a batch at a time: the sources are only measured and scanned
		cur := level[:min(len(level), 64)]
		level = level[len(cur):]
		srcs, _ := a.env.Head.ReadFiles(ctx, cur)
		for _, p := range cur {
			src, ok := srcs[p]
			if !ok {
				continue
			}
			size += int64(len(src))
			n++
			if size > max {
				return size, n, true
			}
			for _, spec := range importSpecs(src) {
				f := a.ix.mods.resolve(spec, p)
				add(f)
				// the packages a dotted import runs on the way
				for d := spec; strings.Contains(strings.TrimLeft(d, "."), "."); {
					d = d[:strings.LastIndex(d, ".")]
					add(a.ix.mods.resolve(d, p))
				}
			}
		}
	}
	return size, n, false
}

// importSpecs scans a source for the modules its import statements name
// (`import a.b, c` and `from .x import y`, and `from . import y` as the
// submodule .y too): a scan of line starts, not a parse, for an
// estimate.
func importSpecs(src []byte) []string {
	var out []string
	for len(src) > 0 {
		var raw []byte
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			raw, src = src[:i], src[i+1:]
		} else {
			raw, src = src, nil
		}
		raw = bytes.TrimLeft(raw, " \t")
		if !bytes.HasPrefix(raw, []byte("import ")) && !bytes.HasPrefix(raw, []byte("from ")) {
			continue // most lines: nothing allocated
		}
		l := strings.TrimSpace(string(raw))
		switch {
		case strings.HasPrefix(l, "import "):
			for _, part := range strings.Split(strings.TrimPrefix(l, "import "), ",") {
				name, _, _ := strings.Cut(strings.TrimSpace(part), " ")
				if name != "" {
					out = append(out, name)
				}
			}
		case strings.HasPrefix(l, "from "):
			rest := strings.TrimPrefix(l, "from ")
			mod, names, ok := strings.Cut(rest, " import ")
			if !ok {
				continue
			}
			mod = strings.TrimSpace(mod)
			out = append(out, mod)
			names = strings.Trim(strings.TrimSpace(names), "()\\")
			for _, part := range strings.Split(names, ",") {
				name, _, _ := strings.Cut(strings.TrimSpace(part), " ")
				if name != "" && name != "*" && !strings.ContainsAny(name, "()\\") {
					sep := "."
					if strings.HasSuffix(mod, ".") {
						sep = ""
					}
					out = append(out, mod+sep+name) // a submodule, when it is one
				}
			}
		}
	}
	return out
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
