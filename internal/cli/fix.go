package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/fix"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/languages"
	"github.com/ripple-dev/ripple/internal/model"
)

// runFix plans the edits a change leaves to be made, proves them with the
// oracle, shows them as a diff, and writes them to the work tree only
// when asked (-write), refusing a dirty tree unless told otherwise.
func runFix(ctx context.Context, dir string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fix", flag.ContinueOnError)
	fs.SetOutput(stderr)
	base := fs.String("base", "", "base `revision` (default: as for check)")
	write := fs.Bool("write", false, "write the edits to the work tree (only when the oracle passed, unless -unproven)")
	allowDirty := fs.Bool("allow-dirty", false, "with -write: accept a work tree with uncommitted changes")
	unproven := fs.Bool("unproven", false, "with -write: write edits the oracle did not prove")
	noOracle := fs.Bool("no-oracle", false, "do not run the oracle (the edits stay unproven)")
	tests := fs.Bool("tests", false, "the oracle also runs the tests of the affected packages")
	rounds := fs.Int("rounds", fix.DefaultRounds, "most oracle rounds")
	review := fs.Bool("review", true, "plan may-be-impacted and frontier blocks too (warnings and notes), for the model to edit or keep as they are; -review=false plans inconsistent blocks only")
	noModel := fs.Bool("no-model", false, "mechanical fixes only, even when a model is configured")
	budget := fs.Int("token-budget", 200000, "most model tokens (prompt and completion) for the run")
	modelTimeout := fs.Duration("model-timeout", 60*time.Second, "time limit of one model request, retries included")
	jsonOut := fs.Bool("json", false, "print the plan as JSON (the same as -format json)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, fixUsage)
		if f := fs.Lookup("format"); f != nil {
			f.Usage = fixFormatUsage
		}
		fs.PrintDefaults()
	}
	repo, cfg, code := setUp(ctx, dir, fs, args, stderr)
	if repo == nil {
		return code
	}
	defer repo.Close()
	if err := noCommits(ctx, repo); err != nil {
		fmt.Fprintln(stderr, "ripple:", err)
		return ExitFailure
	}
	asJSON, err := fixFormat(fs, cfg, *jsonOut)
	if err != nil {
		fmt.Fprintln(stderr, "ripple:", err)
		return ExitFailure
	}
	if *write && !*allowDirty {
		if dirty, err := dirtyTree(ctx, repo); err != nil {
			fmt.Fprintln(stderr, "ripple:", err)
			return ExitFailure
		} else if dirty != "" {
			fmt.Fprintf(stderr, "ripple: the work tree has uncommitted changes (%s); commit or stash them, or pass -allow-dirty\n", dirty)
			return ExitFailure
		}
	}
	opts := fix.Options{Base: *base, Config: cfg, Tests: *tests, Rounds: *rounds, Review: *review, Log: stderr}
	if !*noOracle {
		opts.Oracle = languages.Oracle(languages.Frontends(), nil)
	}
	if mc, ok := fix.ModelFromEnv(); ok && !*noModel {
		mc.Budget, mc.Timeout = *budget, *modelTimeout
		m, err := fix.NewOpenAI(mc)
		if err != nil {
			fmt.Fprintln(stderr, "ripple:", err)
			return ExitFailure
		}
		opts.Model = m
	}
	res, err := fix.Run(ctx, repo, opts)
	if err != nil {
		fmt.Fprintln(stderr, "ripple:", err)
		return ExitFailure
	}
	if res.ModelUnreachable != "" {
		fmt.Fprintf(stderr, "ripple: %s; mechanical fixes only\n", res.ModelUnreachable)
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			fmt.Fprintln(stderr, "ripple:", err)
			return ExitFailure
		}
	} else {
		printPlan(stdout, res)
	}
	if *write {
		if code, ok := writeFix(ctx, repo, res, *unproven, stderr); !ok {
			return code
		}
	}
	if !res.Proven {
		return ExitFindings
	}
	return ExitOK
}

// fixUsage is the help of hook fix, before its flags.
const fixUsage = `usage: hook fix [-base REV] [-write] [flags]

Plans the edits the change between -base and HEAD leaves to be made
(mechanical where the change determines them, else by the model at
RIPPLE_LLM_BASE_URL / RIPPLE_LLM_MODEL with the key in RIPPLE_LLM_API_KEY
or OPENAI_API_KEY), proves them with the oracle and prints them as a
diff. Nothing is written without -write.

The oracle checks Go with go build and go vet (and go test with -tests),
Python with pyright when it is installed: on PATH or in Ripple's user
cache, where npm installs it when missing (with neither pyright nor
npm, a Python fix stops with an error; -no-oracle leaves it unproven),
and Java with javac (a JDK 11 or newer on PATH or in JAVA_HOME) on the
modules holding the change's Java files and those depending on them.`

// writeFix writes the plan's edits to the work tree, when the oracle
// proved them or unproven says to write them anyway. It reports false,
// with the exit code, when nothing was written.
func writeFix(ctx context.Context, repo *gitio.Repo, res *fix.Result, unproven bool, stderr io.Writer) (int, bool) {
	if !res.Proven && !unproven {
		fmt.Fprintln(stderr, "ripple: nothing written: the oracle did not pass on the fixed state (see above); -unproven writes it anyway")
		return ExitFindings, false
	}
	if err := fix.Apply(ctx, repo, res.Patch); err != nil {
		fmt.Fprintln(stderr, "ripple: writing the edits:", err)
		return ExitFailure, false
	}
	fmt.Fprintln(stderr, "ripple: edits written to the work tree")
	return 0, true
}

const fixFormatUsage = "output `format` of the plan: text, or json (the same as -json); the config file's format is for hook check and does not apply"

// fixFormat says whether fix prints its plan as JSON: with -json, or
// with -format json on the command line. -format is a config flag that
// every command has; a format from the config file is for check's
// report and is ignored here, so that a repository set to sarif does
// not break fix. -format sarif on the command line, and -json with
// -format text, are errors.
func fixFormat(fs *flag.FlagSet, cfg *config.Config, jsonFlag bool) (bool, error) {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "format" })
	if !given {
		return jsonFlag, nil
	}
	switch cfg.Format {
	case config.FormatJSON:
		return true, nil
	case config.FormatText:
		if jsonFlag {
			return false, errors.New("-json and -format text contradict each other")
		}
		return false, nil
	}
	return false, fmt.Errorf("-format %s: hook fix prints its plan as text or json (-format json, or -json); %s is a format of hook check's findings", cfg.Format, cfg.Format)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// dirtyTree names the first uncommitted change to tracked files, or "".
func dirtyTree(ctx context.Context, repo *gitio.Repo) (string, error) {
	out, err := repo.Git(ctx, "status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return "", err
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if lines[0] == "" {
		return "", nil
	}
	s := strings.TrimSpace(lines[0])
	if len(lines) > 1 {
		s += fmt.Sprintf(" and %d more", len(lines)-1)
	}
	return s, nil
}

// printPlan shows the plan, each block once as it ended, the cost and
// the patch.
func printPlan(w io.Writer, r *fix.Result) {
	if len(r.Obligations) == 0 && len(r.Migrated) == 0 {
		fmt.Fprintln(w, "ripple: nothing to fix")
	}
	for i, o := range r.Blocks() {
		fmt.Fprintf(w, "%d. %s\n", i+1, o.Describe())
	}
	for _, n := range r.Notes {
		fmt.Fprintln(w, "note:", n)
	}
	if len(r.MissingDefaults) > 0 {
		var flags []string
		for _, p := range r.MissingDefaults {
			flags = append(flags, "-param-defaults "+p+"=EXPR")
		}
		fmt.Fprintf(w, "hint: calls lack a value for the added %s %s; pass %s to fix these calls mechanically\n",
			plural(len(flags), "parameter", "parameters"), strings.Join(r.MissingDefaults, ", "), strings.Join(flags, " "))
	}
	if r.Oracle != nil {
		verdict := "passes"
		if !r.Oracle.Pass {
			verdict = "fails with " + model.Plural(len(r.Oracle.Diagnostics), "problem", "problems")
		}
		if n := len(r.Oracle.Preexisting); n > 0 {
			verdict += fmt.Sprintf(" (%s the base state already had, not counted)", model.Plural(n, "problem", "problems"))
		}
		fmt.Fprintf(w, "oracle (%s): %s\n", strings.Join(r.Oracle.Ran, "; "), verdict)
		for i, d := range r.Oracle.Diagnostics {
			if i == 10 {
				fmt.Fprintf(w, "  ... %d more\n", len(r.Oracle.Diagnostics)-10)
				break
			}
			fmt.Fprintln(w, "  "+d.String())
		}
	}
	fmt.Fprintf(w, "ripple: %d blocks edited mechanically, %d by the model, %d replies rejected; %d tokens in, %d out; %d rounds\n",
		r.Mechanical, r.ByModel, r.Rejected, r.In, r.Out, r.Rounds)
	if r.Patch != "" {
		fmt.Fprint(w, "\n"+r.Patch)
	}
}
