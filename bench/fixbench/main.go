// Command fixbench evaluates the fix engine on a real-history benchmark
// (../shared/bench/go, ../shared/bench/python, bench/train/*): for each
// case it builds the partial state (the seed declarations changed, their
// dependents not) with the benchmark's own runner, runs `hook fix` with a
// replay model that answers each block with its text in the real commit
// (any language: see replay.go), and measures
//
//   - reach: the truth blocks (those the real commit edited) that the
//     plan made obligations of;
//   - over-planned blocks: blocks the plan made obligations of that the
//     real commit did not change (declarations the engine asked for are
//     counted apart), and how many of them the fix edited;
//   - "no change needed": the replay's answers that a block is right as
//     the prompt shows it (the commit has the same text), and the
//     obligations the engine closed as unchanged;
//   - validity: whether the fixed state passes the oracle, among the
//     cases whose real commit does. Go: `go build ./... && go vet ./...`
//     on the whole state (-judge engine: as for the other languages).
//     Other languages: the engine's own oracle rule (the front-ends'
//     oracles, pyright for Python, on the files the state changed from
//     the base, diagnostics the base already had excused), the real
//     commit judged by the same rule. Then among the cases whose seed has
//     no error the engine may not touch (seed_broken: an error inside
//     the developer's declarations that is not a missing name, which the
//     engine declares), and among those whose fix's last oracle run finds
//     no name undefined that the real commit declares (needs_new: the
//     declaration was not made or not accepted);
//   - the share of blocks edited mechanically and by the model, and the
//     tokens per model-edited block.
//
// Usage:
//
//	go build -o bin/hook ./cmd/hook
//	go run ./bench/fixbench -hook bin/hook -mirror /work/.mirror [-bench DIR] [-case ID] [-k N]
//
// -bench is a benchmark folder with sets.json, cases/ and its runner
// (`run`): the Go runner materializes with -materialize, the Python and
// TypeScript runners with --materialize-only.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/fix"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/languages"
	"github.com/ripple-dev/ripple/internal/oracle"
)

var (
	flagBench   = flag.String("bench", "../shared/bench/go", "the benchmark `folder` (sets.json, cases/, run)")
	flagSet     = flag.String("set", "", "the set of sets.json to run (default: visible, else train)")
	flagMirror  = flag.String("mirror", os.Getenv("BENCH_MIRROR"), "folder with the fetched repositories (OWNER+NAME/repo)")
	flagHook    = flag.String("hook", "bin/hook", "the hook binary to evaluate")
	flagWork    = flag.String("work", filepath.Join(os.TempDir(), "ripple-fixbench"), "where case repositories are built")
	flagCase    = flag.String("case", "", "only cases whose id contains this")
	flagK       = flag.Int("k", 0, "only the first K cases")
	flagVetAll  = flag.Bool("vet-all", true, "Go: judge validity with go build ./... && go vet ./... (false: vet the packages the real commit touched)")
	flagJudge   = flag.String("judge", "", "`engine`: judge Go states by the engine's oracle rule too (default: go build+vet of the whole state)")
	flagVerbose = flag.Bool("v", false, "print the diagnostics that fail a state (engine rule)")
	flagOut     = flag.String("out", "", "write per-case results as JSON lines here")
	flagRounds  = flag.Int("rounds", 0, "oracle rounds of hook fix (0: its default)")
	flagPlan    = flag.Bool("plan-only", false, "plan only: hook fix -no-oracle (one planning round, nothing proven), states not judged; reach and requests")
	flagServe   = flag.String("serve", "", "only serve the replay model on this `address` (with -repo and -commit), for running hook fix by hand")
	flagRepo    = flag.String("repo", "", "with -serve: the repository")
	flagCommit  = flag.String("commit", "", "with -serve: the commit whose blocks are replayed")
)

type truthRec struct {
	File      string `json:"file"`
	Func      string `json:"func"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
}

type caseRec struct {
	ID    string     `json:"id"`
	Repo  string     `json:"repo"`
	Lang  string     `json:"lang"`
	Truth []truthRec `json:"truth"`
}

type outcome struct {
	ID          string   `json:"id"`
	Lang        string   `json:"lang"`
	Truth       int      `json:"truth"`
	Reached     int      `json:"reached"`
	Missed      []string `json:"missed,omitempty"`
	Obligations int      `json:"obligations"`
	Blocks      int      `json:"blocks"` // distinct blocks planned, declarations included
	// OverPlanned are the blocks the plan touched (asked the model about
	// or edited; not seeds, not declarations) that the real commit left
	// as they were; OverEdited of them the fix changed. Pending: blocks
	// planned but never touched (the oracle passed before their turn).
	OverPlanned []string `json:"over_planned,omitempty"`
	OverEdited  int      `json:"over_edited"`
	Pending     int      `json:"pending"`
	// Declare: declarations the engine asked for; Declared: those the
	// commit has (answered)
	Declare  int `json:"declare"`
	Declared int `json:"declared"`
	// NoChange: replay answers "no change needed" (the commit's text is
	// the prompt's); Absent: answers for blocks the commit lacks;
	// FromCommit: answers that changed the block; Unchanged: obligations
	// the engine closed as needing no change
	// Requests are the chat requests the replay served (a batch of
	// review blocks is one)
	Requests    int  `json:"requests"`
	NoChange    int  `json:"no_change"`
	Absent      int  `json:"absent"`
	Deleted     int  `json:"deleted"` // answers "ripple: delete" (the commit lacks the block)
	Renamed     int  `json:"renamed"` // answers "ripple: rename" (the commit has its body under another name)
	FromCommit  int  `json:"from_commit"`
	Unchanged   int  `json:"unchanged"`
	Mechanical  int  `json:"mechanical"`
	ByModel     int  `json:"by_model"`
	Rejected    int  `json:"rejected"`
	In          int  `json:"tokens_in"`
	Out         int  `json:"tokens_out"`
	Proven      bool `json:"proven"`
	RealPasses  bool `json:"real_passes"`
	FixedPasses bool `json:"fixed_passes"`
	// SeedBroken: the oracle found errors inside the seed declarations
	// themselves other than missing names (the engine declares those):
	// the seed is never edited, so such a state cannot be made to pass.
	SeedBroken bool `json:"seed_broken"`
	// NeedsNew names what the fix's last oracle run still found undefined
	// that the real commit declares and the partial state does not: the
	// engine did not declare it (out of rounds, or the reply refused).
	NeedsNew []string `json:"needs_new,omitempty"`
	Seconds  float64  `json:"seconds"`
	Err      string   `json:"error,omitempty"`
}

func main() {
	flag.Parse()
	if *flagServe != "" {
		serve()
		return
	}
	if *flagMirror == "" {
		fatal("set -mirror or BENCH_MIRROR to the folder of the fetched repositories")
	}
	hook, err := filepath.Abs(*flagHook)
	if err != nil {
		fatal(err.Error())
	}
	cases, set, err := loadCases()
	if err != nil {
		fatal(err.Error())
	}
	var outF *os.File
	if *flagOut != "" {
		if outF, err = os.Create(*flagOut); err != nil {
			fatal(err.Error())
		}
		defer outF.Close()
	}
	var all []*outcome
	for _, c := range cases {
		o := runCase(c, hook)
		all = append(all, o)
		fmt.Printf("%-34s truth %2d reached %2d obligations %2d over %d mech %2d model %2d requests %2d no_change %d rejected %d proven %-5v real_ok %-5v fixed_ok %-5v seed_broken %-5v %5.1fs %s\n",
			o.ID, o.Truth, o.Reached, o.Obligations, len(o.OverPlanned), o.Mechanical, o.ByModel, o.Requests, o.NoChange, o.Rejected, o.Proven, o.RealPasses, o.FixedPasses, o.SeedBroken, o.Seconds, o.Err)
		for _, m := range o.Missed {
			fmt.Println("    missed", m)
		}
		for _, m := range o.OverPlanned {
			fmt.Println("    over-planned", m)
		}
		if len(o.NeedsNew) > 0 {
			fmt.Println("    still undefined, declared by the real commit:", strings.Join(o.NeedsNew, ", "))
		}
		if outF != nil {
			b, _ := json.Marshal(o)
			outF.Write(append(b, '\n'))
		}
	}
	summary(all, set)
}

func fatal(msg string) {
	fmt.Fprintln(os.Stderr, "fixbench:", msg)
	os.Exit(2)
}

// loadCases reads the cases of the chosen set; it returns the set's
// name.
func loadCases() ([]caseRec, string, error) {
	var sets map[string][]string
	b, err := os.ReadFile(filepath.Join(*flagBench, "sets.json"))
	if err != nil {
		return nil, "", err
	}
	if err := json.Unmarshal(b, &sets); err != nil {
		return nil, "", err
	}
	set := *flagSet
	if set == "" {
		set = "visible"
		if _, ok := sets[set]; !ok {
			set = "train"
		}
	}
	repos, ok := sets[set]
	if !ok {
		return nil, "", fmt.Errorf("%s/sets.json has no set %q", *flagBench, set)
	}
	var out []caseRec
	for _, repo := range repos {
		f, err := os.Open(filepath.Join(*flagBench, "cases", strings.ReplaceAll(repo, "/", "__")+".jsonl"))
		if err != nil {
			return nil, "", err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var c caseRec
			if json.Unmarshal(sc.Bytes(), &c) == nil && strings.Contains(c.ID, *flagCase) {
				if c.Lang == "" {
					c.Lang = "go"
				}
				out = append(out, c)
			}
		}
		f.Close()
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	if *flagK > 0 && len(out) > *flagK {
		out = out[:*flagK]
	}
	return out, set, nil
}

// materialize builds the case repository with the benchmark's own runner
// and returns its directory and the base, partial and full commits.
func materialize(c caseRec) (dir, base, partial, full string, err error) {
	run := filepath.Join(*flagBench, "run")
	if c.Lang != "go" {
		// the Python and TypeScript runners: base, partial and real as
		// branches, one line per case naming their commits
		cmd := exec.Command(run, "--materialize-only", *flagWork, "--case", c.ID)
		cmd.Env = append(os.Environ(), "BENCH_MIRROR="+*flagMirror)
		out, err := cmd.CombinedOutput()
		if err != nil {
			return "", "", "", "", fmt.Errorf("materialize: %v: %s", err, lastLine(string(out)))
		}
		for _, l := range strings.Split(string(out), "\n") {
			f := strings.Fields(l)
			if len(f) < 5 || f[0] != c.ID {
				continue
			}
			dir = f[1]
			for _, kv := range f[2:] {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "base":
					base = v
				case "partial":
					partial = v
				case "real":
					full = v
				}
			}
		}
		if dir == "" || base == "" || partial == "" || full == "" {
			return "", "", "", "", fmt.Errorf("materialize: no base, partial and real commits in: %s", lastLine(string(out)))
		}
		return dir, base, partial, full, nil
	}
	cmd := exec.Command(run, "-materialize", "-case", c.ID, "-work", *flagWork, "-mirror", *flagMirror)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", "", "", "", fmt.Errorf("materialize: %v: %s", err, out)
	}
	dir = filepath.Join(*flagWork, c.ID)
	out, err := exec.Command("git", "-C", dir, "log", "--all", "--format=%H %s").Output()
	if err != nil {
		return "", "", "", "", err
	}
	for _, l := range strings.Split(string(out), "\n") {
		sha, subj, _ := strings.Cut(l, " ")
		switch {
		case strings.HasPrefix(subj, "base:"):
			base = sha
		case strings.HasPrefix(subj, "partial:"):
			partial = sha
		case strings.HasPrefix(subj, "full:"):
			full = sha
		}
	}
	if base == "" || partial == "" || full == "" {
		return "", "", "", "", fmt.Errorf("materialized repository lacks base/partial/full commits")
	}
	return dir, base, partial, full, nil
}

func runCase(c caseRec, hook string) *outcome {
	o := &outcome{ID: c.ID, Lang: c.Lang, Truth: len(c.Truth)}
	start := time.Now()
	defer func() { o.Seconds = time.Since(start).Seconds() }()
	ctx := context.Background()
	dir, base, partial, full, err := materialize(c)
	if err != nil {
		o.Err = err.Error()
		return o
	}
	git(dir, "checkout", "-q", "--detach", partial)
	repo, err := gitio.Open(ctx, dir)
	if err != nil {
		o.Err = err.Error()
		return o
	}
	defer repo.Close()
	fes := languages.Frontends()
	trees := states{
		base:    &gitio.RevTree{R: repo, SHA: base},
		partial: &gitio.RevTree{R: repo, SHA: partial},
		full:    &gitio.RevTree{R: repo, SHA: full},
	}
	rp := newReplay(fes, trees.full, trees.partial)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		o.Err = err.Error()
		return o
	}
	srv := &http.Server{Handler: rp}
	go srv.Serve(ln)
	defer srv.Close()

	args := []string{"fix", "-base", base, "-json"}
	if *flagPlan {
		args = append(args, "-no-oracle")
	}
	if *flagRounds > 0 {
		args = append(args, "-rounds", strconv.Itoa(*flagRounds))
	}
	cmd := exec.Command(hook, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RIPPLE_LLM_BASE_URL=http://"+ln.Addr().String()+"/v1", "RIPPLE_LLM_MODEL=replay", "RIPPLE_LLM_API_KEY=none")
	out, _ := cmd.Output()
	var res fix.Result
	if err := json.Unmarshal(out, &res); err != nil {
		o.Err = "hook fix: " + firstLine(string(out))
		return o
	}
	o.Obligations, o.Mechanical, o.ByModel, o.Rejected, o.In, o.Out, o.Proven =
		len(res.Obligations), res.Mechanical, res.ByModel, res.Rejected, res.In, res.Out, res.Proven
	for _, n := range res.Notes {
		if strings.HasPrefix(n, "oracle, inside the developer's change") {
			o.SeedBroken = true
		}
	}
	if !res.Proven && res.Oracle != nil {
		o.NeedsNew = needsNew(fes, dir, partial, full, res.Oracle.Diagnostics)
	}
	rp.mu.Lock()
	o.NoChange, o.Absent, o.FromCommit, o.Declared = rp.counts[noChange], rp.counts[absent], rp.counts[fromCommit], rp.counts[declared]
	o.Requests, o.Deleted, o.Renamed = rp.requests, rp.counts[deleted], rp.counts[renamed]
	rp.mu.Unlock()

	sites := newSites(ctx, fes, trees)
	blocks := res.Blocks()
	o.Blocks = len(blocks)
	reaches := map[*fix.Obligation]bool{}
	for _, t := range c.Truth {
		hit := false
		for _, ob := range blocks {
			if sites.reaches(ctx, ob, t) {
				hit, reaches[ob] = true, true
			}
		}
		if hit {
			o.Reached++
		} else {
			o.Missed = append(o.Missed, t.File+"|"+t.Func)
		}
	}
	for _, ob := range blocks {
		if ob.Status == fix.Unchanged || ob.Status == fix.Failed && ob.Note == "the model returned the block unchanged" {
			o.Unchanged++
		}
		switch {
		case ob.Declare != "":
			o.Declare++
		case ob.Status == fix.Pending:
			o.Pending++ // planned, never sent: the oracle passed first
		case reaches[ob] || ob.Status == fix.Skipped || fix.AtFileScope(ob.Block):
		case !sites.changedByCommit(ctx, ob):
			o.OverPlanned = append(o.OverPlanned, fmt.Sprintf("%s|%s (%s)", ob.Path, ob.Block, ob.Status))
			if ob.Status == fix.Done {
				o.OverEdited++
			}
		}
	}
	if *flagPlan {
		return o
	}
	j := newJudge(fes, dir, base, full, c.Lang)
	o.RealPasses = j.passes(ctx, full, "")
	o.FixedPasses = j.passes(ctx, partial, res.Patch)
	return o
}

func git(dir string, args ...string) error {
	return exec.Command("git", append([]string{"-C", dir}, args...)...).Run()
}

// needsNew lists the missing names of diagnostics (as the front-end of
// the diagnostic's file reads them for the fix engine, lang.Declarer)
// that the full commit has as a whole word and the partial state has
// nowhere.
func needsNew(fes lang.Set, dir, partial, full string, ds []oracle.Diagnostic) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range ds {
		var dc lang.Declarer
		var specs []string
		if fe := fes.For(d.Path); fe != nil {
			dc, _ = fe.(lang.Declarer)
			specs = fe.Pathspecs()
		}
		if dc == nil {
			continue
		}
		m, ok := dc.MissingIn(d.Message)
		if !ok || seen[m.Name] {
			continue
		}
		seen[m.Name] = true
		grep := func(rev string) bool {
			args := append([]string{"-C", dir, "grep", "-q", "-w", "-F", m.Name, rev, "--"}, specs...)
			return exec.Command("git", args...).Run() == nil
		}
		if grep(full) && !grep(partial) {
			out = append(out, m.Name)
		}
	}
	return out
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func summary(all []*outcome, set string) {
	var truth, reached, real, fixedGivenReal, mech, model, in, out, proven, errs, realSeedOK, fixedSeedOK, blockOK, fixedBlockOK int
	var blocks, over, overEdited, pending, declare, declared, noChange, absent, fromCommit, unchanged, requests, deletedN, renamedN int
	langs := map[string]bool{}
	for _, o := range all {
		if o.Err != "" {
			errs++
			continue
		}
		langs[o.Lang] = true
		truth += o.Truth
		reached += o.Reached
		mech += o.Mechanical
		model += o.ByModel
		in += o.In
		out += o.Out
		blocks += o.Blocks
		over += len(o.OverPlanned)
		overEdited += o.OverEdited
		pending += o.Pending
		declare += o.Declare
		declared += o.Declared
		noChange += o.NoChange
		absent += o.Absent
		fromCommit += o.FromCommit
		unchanged += o.Unchanged
		requests += o.Requests
		deletedN += o.Deleted
		renamedN += o.Renamed
		if o.Proven {
			proven++
		}
		if o.RealPasses {
			real++
			if o.FixedPasses {
				fixedGivenReal++
			}
			if !o.SeedBroken {
				realSeedOK++
				if o.FixedPasses {
					fixedSeedOK++
				}
				if len(o.NeedsNew) == 0 {
					blockOK++
					if o.FixedPasses {
						fixedBlockOK++
					}
				}
			}
		}
	}
	ratio := func(a, b int) float64 {
		if b == 0 {
			return 0
		}
		return float64(a) / float64(b)
	}
	perBlock := 0
	if model > 0 {
		perBlock = (in + out) / model
	}
	var names []string
	for l := range langs {
		names = append(names, l)
	}
	sort.Strings(names)
	lname := strings.Join(names, "+")
	judged := "the engine's oracle rule"
	if lname == "go" && *flagJudge != "engine" {
		judged = "go build+vet"
	}
	fmt.Printf("# %s, set %s (%s): cases %d (errors %d); truth blocks %d, reached %d; real commits passing %s %d\n", lname, set, *flagBench, len(all), errs, truth, reached, judged, real)
	fmt.Printf("# blocks planned %d (%d never touched: the oracle passed first); touched but left as they were by the real commit (over-planned) %d, of which the fix edited %d; declarations asked %d, the commit had %d\n",
		blocks, pending, over, overEdited, declare, declared)
	fmt.Printf("# replay answers: %d from the commit, %d no change needed (the commit's text is the prompt's), %d for blocks neither the commit nor the state has, %d deletions and %d renames (blocks the commit lacks); obligations closed unchanged %d; model requests %d\n",
		fromCommit, noChange, absent, deletedN, renamedN, unchanged, requests)
	fmt.Printf("# blocks edited: %d mechanical (%.0f%%), %d by the model; %d tokens in, %d out; %d tokens per model-edited block\n",
		mech, 100*ratio(mech, mech+model), model, in, out, perBlock)
	fmt.Printf("# among the cases whose real commit passes, %d have no seed error other than missing names; the fixed state passes in %d of them\n", realSeedOK, fixedSeedOK)
	fmt.Printf("# of those, %d end with no name undefined that the real commit declares; the fixed state passes in %d of them\n", blockOK, fixedBlockOK)
	fmt.Printf("cases %d reach %.3f fixed_valid %.3f (%d/%d of the cases whose real commit passes) fixed_valid_seed_ok %.3f (%d/%d) fixed_valid_reachable %.3f (%d/%d) proven %d over_planned %d no_change %d\n",
		len(all)-errs, ratio(reached, truth), ratio(fixedGivenReal, real), fixedGivenReal, real, ratio(fixedSeedOK, realSeedOK), fixedSeedOK, realSeedOK, ratio(fixedBlockOK, blockOK), fixedBlockOK, blockOK, proven, over, noChange)
	fmt.Printf("requests %d\n", requests)
}

// serve runs the replay model alone.
func serve() {
	repo, err := gitio.Open(context.Background(), *flagRepo)
	if err != nil {
		fatal(err.Error())
	}
	sha, err := repo.Resolve(context.Background(), *flagCommit)
	if err != nil {
		fatal(err.Error())
	}
	fmt.Printf("replaying %s at http://%s/v1 (RIPPLE_LLM_BASE_URL=http://%s/v1 RIPPLE_LLM_MODEL=replay)\n", sha, *flagServe, *flagServe)
	head, err := repo.Resolve(context.Background(), "HEAD")
	if err != nil {
		fatal(err.Error())
	}
	rp := newReplay(languages.Frontends(), &gitio.RevTree{R: repo, SHA: sha}, &gitio.RevTree{R: repo, SHA: head})
	fatal(http.ListenAndServe(*flagServe, rp).Error())
}
