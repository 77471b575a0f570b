// Command prof runs Ripple's check in-process under the CPU profiler, to
// see where a slow check spends its time (bench/profile.sh wraps it).
//
//	go run ./bench/prof -C REPO -base B -head H [-n 3] [-precision auto] -cpuprofile cpu.pprof
//	go tool pprof -top -cum cpu.pprof
//	go run ./bench/prof ... -memprofile mem.pprof   # then: go tool pprof -sample_index=alloc_space -top mem.pprof
//
// It profiles -n runs (default 1), each opening the repository and
// checking the range as one hook run does, and prints each run's wall
// time and counts. A process's later runs are cheaper than its first
// (per-process caches: the toolchain's environment, export data read from
// disk), so profile one run per process, as bench/profile.sh does, and
// merge the profiles; -warmup adds an untimed in-process run first.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/ripple-dev/ripple/internal/check"
	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
)

func main() {
	dir := flag.String("C", ".", "repository")
	base := flag.String("base", "", "base revision")
	head := flag.String("head", "HEAD", "head revision")
	n := flag.Int("n", 1, "profiled runs")
	warmup := flag.Bool("warmup", false, "one untimed run in this process first")
	precision := flag.String("precision", string(config.PrecisionAuto), "auto | syntax | types")
	budget := flag.Duration("budget", 0, "time budget (0: the default)")
	cpu := flag.String("cpuprofile", "cpu.pprof", "CPU profile output")
	mem := flag.String("memprofile", "", "allocation profile output (every allocation of the profiled runs, sampled)")
	flag.Parse()

	cfg := config.Default()
	cfg.Precision = config.Precision(*precision)
	if *budget > 0 {
		cfg.Budget = *budget
	}
	if err := cfg.Validate(); err != nil {
		fail(err)
	}
	ctx := context.Background()
	run := func() (*model.Result, time.Duration) {
		t0 := time.Now()
		repo, err := gitio.Open(ctx, *dir)
		if err != nil {
			fail(err)
		}
		defer repo.Close()
		res, err := check.Run(ctx, repo, check.Options{Base: *base, Head: *head, Config: cfg})
		if err != nil {
			fail(err)
		}
		return res, time.Since(t0)
	}
	if *warmup {
		_, d := run()
		fmt.Fprintf(os.Stderr, "warm-up: %v\n", d.Round(time.Millisecond))
	}
	f, err := os.Create(*cpu)
	if err != nil {
		fail(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fail(err)
	}
	for i := 0; i < *n; i++ {
		res, d := run()
		errs := 0
		for _, x := range res.Findings {
			if x.Level == model.LevelError {
				errs++
			}
		}
		fmt.Fprintf(os.Stderr, "run %d: %v, %d errors, %d files parsed, %d packages typed\n",
			i+1, d.Round(time.Millisecond), errs, res.Stats.ParsedFiles, res.Stats.TypedPackages)
	}
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		fail(err)
	}
	if *mem != "" {
		mf, err := os.Create(*mem)
		if err != nil {
			fail(err)
		}
		if err := pprof.Lookup("allocs").WriteTo(mf, 0); err != nil {
			fail(err)
		}
		if err := mf.Close(); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "prof:", err)
	os.Exit(2)
}
