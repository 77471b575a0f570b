// Command fixbench evaluates the fix engine on the real-history benchmark
// (../shared/bench/go): for each case it builds the partial state (the
// seed declarations changed, their dependents not), runs `hook fix` with
// a replay model that answers each block with its text in the real
// commit, and measures
//
//   - reach: the truth functions (those the real commit edited) that the
//     plan made obligations of;
//   - validity: whether the fixed state passes `go build ./... && go vet
//     ./...`, among the cases whose real commit does; then among those
//     whose seed has no error the engine may not touch (seed_broken: an
//     error inside the developer's declarations that is not a missing
//     name, which the engine declares), and among those whose fix's last
//     oracle run finds no name undefined that the real commit declares
//     (needs_new: the declaration was not made or not accepted);
//   - the share of blocks edited mechanically and by the model, and the
//     tokens per model-edited block.
//
// Usage:
//
//	go build -o bin/hook ./cmd/hook
//	go run ./bench/fixbench -hook bin/hook -mirror /work/.mirror [-case ID] [-k N]
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
	"github.com/ripple-dev/ripple/internal/lang/golang"
	"github.com/ripple-dev/ripple/internal/oracle"
)

var (
	flagBench  = flag.String("bench", "../shared/bench/go", "the Go benchmark directory")
	flagMirror = flag.String("mirror", os.Getenv("BENCH_MIRROR"), "folder with the fetched repositories (OWNER+NAME/repo)")
	flagHook   = flag.String("hook", "bin/hook", "the hook binary to evaluate")
	flagWork   = flag.String("work", filepath.Join(os.TempDir(), "ripple-fixbench"), "where case repositories are built")
	flagCase   = flag.String("case", "", "only cases whose id contains this")
	flagK      = flag.Int("k", 0, "only the first K cases")
	flagVetAll = flag.Bool("vet-all", true, "judge validity with go build ./... && go vet ./... (false: the packages the real commit touched)")
	flagOut    = flag.String("out", "", "write per-case results as JSON lines here")
	flagRounds = flag.Int("rounds", 0, "oracle rounds of hook fix (0: its default)")
	flagServe  = flag.String("serve", "", "only serve the replay model on this `address` (with -repo and -commit), for running hook fix by hand")
	flagRepo   = flag.String("repo", "", "with -serve: the repository")
	flagCommit = flag.String("commit", "", "with -serve: the commit whose blocks are replayed")
)

type caseRec struct {
	ID    string `json:"id"`
	Repo  string `json:"repo"`
	Truth []struct {
		File string `json:"file"`
		Func string `json:"func"`
	} `json:"truth"`
}

type outcome struct {
	ID          string   `json:"id"`
	Truth       int      `json:"truth"`
	Reached     int      `json:"reached"`
	Missed      []string `json:"missed,omitempty"`
	Obligations int      `json:"obligations"`
	Mechanical  int      `json:"mechanical"`
	ByModel     int      `json:"by_model"`
	Rejected    int      `json:"rejected"`
	In          int      `json:"tokens_in"`
	Out         int      `json:"tokens_out"`
	Proven      bool     `json:"proven"`
	RealPasses  bool     `json:"real_passes"`
	FixedPasses bool     `json:"fixed_passes"`
	// SeedBroken: the oracle found errors inside the seed declarations
	// themselves other than missing names (the engine declares those):
	// the seed is never edited, so such a state cannot be made to build.
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
	cases, err := loadCases()
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
		fmt.Printf("%-34s truth %2d reached %2d obligations %2d mech %2d model %2d rejected %d proven %-5v real_ok %-5v fixed_ok %-5v seed_broken %-5v %5.1fs %s\n",
			o.ID, o.Truth, o.Reached, o.Obligations, o.Mechanical, o.ByModel, o.Rejected, o.Proven, o.RealPasses, o.FixedPasses, o.SeedBroken, o.Seconds, o.Err)
		for _, m := range o.Missed {
			fmt.Println("    missed", m)
		}
		if len(o.NeedsNew) > 0 {
			fmt.Println("    still undefined, declared by the real commit:", strings.Join(o.NeedsNew, ", "))
		}
		if outF != nil {
			b, _ := json.Marshal(o)
			outF.Write(append(b, '\n'))
		}
	}
	summary(all)
}

func fatal(msg string) {
	fmt.Fprintln(os.Stderr, "fixbench:", msg)
	os.Exit(2)
}

func loadCases() ([]caseRec, error) {
	var sets map[string][]string
	b, err := os.ReadFile(filepath.Join(*flagBench, "sets.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &sets); err != nil {
		return nil, err
	}
	var out []caseRec
	for _, repo := range sets["visible"] {
		f, err := os.Open(filepath.Join(*flagBench, "cases", strings.ReplaceAll(repo, "/", "__")+".jsonl"))
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var c caseRec
			if json.Unmarshal(sc.Bytes(), &c) == nil && strings.Contains(c.ID, *flagCase) {
				out = append(out, c)
			}
		}
		f.Close()
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	if *flagK > 0 && len(out) > *flagK {
		out = out[:*flagK]
	}
	return out, nil
}

// materialize builds the case repository with the benchmark's own runner
// and returns its directory and the base, partial and full commits.
func materialize(c caseRec) (dir, base, partial, full string, err error) {
	run := filepath.Join(*flagBench, "run")
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
	o := &outcome{ID: c.ID, Truth: len(c.Truth)}
	start := time.Now()
	defer func() { o.Seconds = time.Since(start).Seconds() }()
	dir, base, partial, full, err := materialize(c)
	if err != nil {
		o.Err = err.Error()
		return o
	}
	git(dir, "checkout", "-q", "--detach", partial)
	repo, err := gitio.Open(context.Background(), dir)
	if err != nil {
		o.Err = err.Error()
		return o
	}
	defer repo.Close()
	rp := &replay{tree: &gitio.RevTree{R: repo, SHA: full}, head: &gitio.RevTree{R: repo, SHA: partial}, hits: map[string]int{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		o.Err = err.Error()
		return o
	}
	srv := &http.Server{Handler: rp}
	go srv.Serve(ln)
	defer srv.Close()

	args := []string{"fix", "-base", base, "-json"}
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
		o.NeedsNew = needsNew(dir, partial, full, res.Oracle.Diagnostics)
	}
	planned := map[string]bool{}
	for _, ob := range res.Obligations {
		planned[ob.Path+"|"+funcKey(ob.Block)] = true
	}
	for _, t := range c.Truth {
		if planned[t.File+"|"+t.Func] {
			o.Reached++
		} else {
			o.Missed = append(o.Missed, t.File+"|"+t.Func)
		}
	}
	pkgs := []string{"./..."}
	if !*flagVetAll {
		pkgs = touched(dir, base, full)
	}
	o.RealPasses = valid(dir, full, "", pkgs)
	o.FixedPasses = valid(dir, partial, res.Patch, pkgs)
	return o
}

// funcKey turns a block name into the benchmark's function key:
// "func (*Terminal).Loop" -> "Terminal.Loop", "func run" -> "run".
func funcKey(block string) string {
	s := strings.TrimPrefix(block, "func ")
	if strings.HasPrefix(s, "(") {
		recv, name, ok := strings.Cut(s[1:], ").")
		if ok {
			return strings.TrimPrefix(recv, "*") + "." + name
		}
	}
	return s
}

// valid checks out rev (plus a patch) in a scratch worktree and runs go
// build and go vet on it.
func valid(dir, rev, patch string, pkgs []string) bool {
	wt, err := os.MkdirTemp("", "fixbench-wt-")
	if err != nil {
		return false
	}
	defer func() {
		git(dir, "worktree", "remove", "--force", wt)
		os.RemoveAll(wt)
	}()
	os.Remove(wt)
	if err := git(dir, "worktree", "add", "--detach", "-q", wt, rev); err != nil {
		return false
	}
	if patch != "" {
		cmd := exec.Command("git", "apply", "-")
		cmd.Dir = wt
		cmd.Stdin = strings.NewReader(patch)
		if cmd.Run() != nil {
			return false
		}
	}
	bin, _ := os.MkdirTemp("", "fixbench-bin-")
	defer os.RemoveAll(bin)
	build := exec.Command("go", "build", "-o", bin+"/", "./...")
	build.Dir = wt
	if out, err := build.CombinedOutput(); err != nil && !strings.Contains(string(out), "no main packages") {
		return false
	}
	vet := exec.Command("go", append([]string{"vet"}, pkgs...)...)
	vet.Dir = wt
	return vet.Run() == nil
}

// touched lists the package directories the real commit changed.
func touched(dir, base, full string) []string {
	out, err := exec.Command("git", "-C", dir, "diff", "--name-only", base, full, "--", "*.go").Output()
	if err != nil {
		return []string{"./..."}
	}
	seen := map[string]bool{}
	var pkgs []string
	for _, f := range strings.Fields(string(out)) {
		d := "./" + filepath.Dir(f)
		if !seen[d] {
			seen[d] = true
			pkgs = append(pkgs, d)
		}
	}
	return pkgs
}

func git(dir string, args ...string) error {
	return exec.Command("git", append([]string{"-C", dir}, args...)...).Run()
}

// needsNew lists the missing names of diagnostics (as the Go front-end
// reads them for the fix engine) that the full commit has as a whole
// word and the partial state has nowhere.
func needsNew(dir, partial, full string, ds []oracle.Diagnostic) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range ds {
		if m, ok := golang.New().MissingIn(d.Message); ok {
			name := m.Name
			if seen[name] {
				continue
			}
			seen[name] = true
			inFull := exec.Command("git", "-C", dir, "grep", "-q", "-w", "-F", name, full, "--", "*.go").Run() == nil
			inPartial := exec.Command("git", "-C", dir, "grep", "-q", "-w", "-F", name, partial, "--", "*.go").Run() == nil
			if inFull && !inPartial {
				out = append(out, name)
			}
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

func summary(all []*outcome) {
	var truth, reached, real, fixedGivenReal, mech, model, in, out, proven, errs, realSeedOK, fixedSeedOK, blockOK, fixedBlockOK int
	for _, o := range all {
		if o.Err != "" {
			errs++
			continue
		}
		truth += o.Truth
		reached += o.Reached
		mech += o.Mechanical
		model += o.ByModel
		in += o.In
		out += o.Out
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
	fmt.Printf("# cases %d (errors %d); truth blocks %d, reached %d; real commits passing go build+vet %d\n", len(all), errs, truth, reached, real)
	fmt.Printf("# blocks edited: %d mechanical (%.0f%%), %d by the model; %d tokens in, %d out; %d tokens per model-edited block\n",
		mech, 100*ratio(mech, mech+model), model, in, out, perBlock)
	fmt.Printf("# among the cases whose real commit passes, %d have no seed error other than missing names; the fixed state passes in %d of them\n", realSeedOK, fixedSeedOK)
	fmt.Printf("# of those, %d end with no name undefined that the real commit declares; the fixed state passes in %d of them\n", blockOK, fixedBlockOK)
	fmt.Printf("cases %d reach %.3f fixed_valid %.3f (%d/%d of the cases whose real commit passes) fixed_valid_seed_ok %.3f (%d/%d) fixed_valid_reachable %.3f (%d/%d) proven %d\n",
		len(all)-errs, ratio(reached, truth), ratio(fixedGivenReal, real), fixedGivenReal, real, ratio(fixedSeedOK, realSeedOK), fixedSeedOK, realSeedOK, ratio(fixedBlockOK, blockOK), fixedBlockOK, blockOK, proven)
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
	fatal(http.ListenAndServe(*flagServe, &replay{tree: &gitio.RevTree{R: repo, SHA: sha}, head: &gitio.RevTree{R: repo, SHA: head}, hits: map[string]int{}}).Error())
}
