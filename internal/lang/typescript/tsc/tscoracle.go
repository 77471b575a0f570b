package tsc

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/oracle"
)

// tsExts are the extensions the TypeScript oracle judges.
var tsExts = map[string]bool{".ts": true, ".tsx": true, ".mts": true, ".cts": true, ".js": true, ".jsx": true, ".mjs": true, ".cjs": true}

// IsTSFile reports a file the TypeScript oracle judges (TypeScript and
// JavaScript sources and declaration files).
func IsTSFile(p string) bool { return tsExts[filepath.Ext(p)] }

// Check is the TypeScript oracle: tsc (TypeScript 7) with --noEmit on the
// projects that compile the change's TypeScript and JavaScript files
// (Options.Files; every project under dir when Files is nil), each once.
// Every error of those programs counts (a change breaks its callers in
// other files); the fix engine's baseline (Relative) excuses those the
// state before the change had, such as imports of packages that are not
// installed. The directory is never written: tsc's configuration for the
// run lives in a temporary directory.
func (t *Compiler) Check(ctx context.Context, dir string, o oracle.Options) (*oracle.Result, error) {
	start := time.Now()
	var files []string
	for _, f := range o.Files {
		if IsTSFile(f) {
			files = append(files, f)
		}
	}
	if o.Files != nil && len(files) == 0 {
		return &oracle.Result{Pass: true}, nil // no TypeScript or JavaScript in this change
	}
	bin, err := t.Locate(ctx)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if o.Files == nil {
		files = tsFilesUnder(abs)
	}
	ps := NewProjects(bin, abs)
	var order []*Project
	seen := map[*Project]bool{}
	var unchecked []string
	for _, f := range files {
		full := filepath.Join(abs, filepath.FromSlash(f))
		if _, err := os.Stat(full); err != nil {
			continue // deleted by the change: its importers are in some project
		}
		p := ps.For(ctx, full)
		if o.Files != nil && isJS(f) && !checksJS(p, full) {
			unchecked = append(unchecked, f)
		}
		if !seen[p] {
			seen[p] = true
			order = append(order, p)
		}
	}
	res := &oracle.Result{}
	for _, p := range order {
		run, err := t.Run(ctx, bin, abs, p, RunOptions{})
		if err != nil {
			return nil, err
		}
		res.Ran = append(res.Ran, run.Cmd)
		res.Diagnostics = append(res.Diagnostics, oracle.Dedupe(res.Diagnostics, tscDiagnostics(run.Diagnostics, abs))...)
	}
	if len(unchecked) > 0 {
		res.Unanalysed = fmt.Sprintf("tsc does not type-check JavaScript unless the project sets checkJs or the file opens with // @ts-check: %s", strings.Join(unchecked, ", "))
	}
	oracle.AddSources(abs, res.Diagnostics)
	res.Pass = len(res.Diagnostics) == 0
	res.Took = time.Since(start)
	return res, nil
}

// checksJS reports whether tsc type-checks the JavaScript file at full
// (absolute) in project p: the project sets checkJs, or the file's
// leading comments hold // @ts-check (and no // @ts-nocheck).
func checksJS(p *Project, full string) bool {
	src, err := os.ReadFile(full)
	if err != nil {
		return false
	}
	head := string(src[:min(len(src), 4096)])
	if strings.Contains(head, "@ts-nocheck") {
		return false
	}
	if v, ok := p.options["checkJs"].(bool); ok && v {
		return true
	}
	return strings.Contains(head, "@ts-check")
}

// tsFilesUnder lists the TypeScript and JavaScript files under dir
// (relative, slash-separated), node_modules and hidden directories
// excluded.
func tsFilesUnder(dir string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != dir && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if IsTSFile(p) {
			if r, err := filepath.Rel(dir, p); err == nil {
				out = append(out, filepath.ToSlash(r))
			}
		}
		return nil
	})
	sort.Strings(out)
	return out
}
