package javac

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/oracle"
)

// Sites is what CheckSites found: each file javac compiled or reported
// on, and what it did not have.
type Sites struct {
	// Files holds a verdict for every site file (and changed file) that
	// was compiled, and for every other file javac reported an error in
	// (a source the sites pulled in through -sourcepath).
	Files map[string]*FileVerdict
	// Missing are the dependencies of the compiled modules that have no
	// jar here; Notes what discovery could not read.
	Missing []Missing
	Notes   []string
	// Ran are the javac command lines; Took the time of the whole check.
	Ran  []string
	Took time.Duration
	// Stopped says the check ran out of time: CheckSitesIn returned its
	// error with these Sites, whose files of the module javac was
	// stopped in are Stopped and whose later modules' files are absent.
	Stopped bool
}

// FileVerdict is javac's verdict on one file.
type FileVerdict struct {
	// Compiled says the file was one javac was asked to compile (not only
	// one it reported on).
	Compiled bool
	// Errors are the code's own errors in the file.
	Errors []oracle.Diagnostic
	// Unresolved says what javac could not find in the file that a
	// missing jar would have given it ("package org.foo", "class
	// org.foo.Bar"); the file is then not proven consistent, whatever
	// Errors says.
	Unresolved []string
	// Stopped says javac was stopped at the deadline before it finished
	// the file's module: Errors are those it had printed (each one
	// javac's), and no error proves nothing.
	Stopped bool
}

// Consistent reports a file javac compiled with everything it needed
// and found no error in: consistent by types.
func (v *FileVerdict) Consistent() bool {
	return v != nil && v.Compiled && !v.Stopped && len(v.Errors) == 0 && len(v.Unresolved) == 0
}

// CheckSites is the type-precise check the front-end's type tier asks
// for: it discovers the build of the work tree dir and runs CheckSitesIn.
func (c *Compiler) CheckSites(ctx context.Context, dir string, changed, sites []string) (*Sites, error) {
	p, err := Discover(dir, &c.Resolver)
	if err != nil {
		return nil, err
	}
	return c.CheckSitesIn(ctx, p, changed, sites)
}

// CheckSitesIn compiles the smallest set that proves the sites: the site
// files and the changed files (repository-relative; those that are not
// Java or no longer exist are skipped), one javac a module, with
// -sourcepath over the module's roots and its dependency modules' so
// that javac reads what they reference, and the module's jars. It
// returns a verdict for each file; a Project from Discover can be kept
// across checks of one state. When the context ends while javac runs,
// it returns the error together with the Sites established so far
// (Sites.Stopped): the errors javac had printed are still proof.
func (c *Compiler) CheckSitesIn(ctx context.Context, p *Project, changed, sites []string) (*Sites, error) {
	start := time.Now()
	if _, err := c.Locate(ctx); err != nil {
		return nil, err
	}
	res := &Sites{Files: map[string]*FileVerdict{}}
	groups, err := p.group(append(append([]string{}, sites...), changed...))
	if err != nil {
		return nil, err
	}
	var acc missingAcc
	seenMissing := map[string]bool{}
	for _, g := range groups {
		m := g.m
		u := p.unitFor(m, g.test)
		u.files = g.files
		for _, f := range u.files {
			res.Files[f] = &FileVerdict{Compiled: true}
		}
		r, err := c.compile(ctx, p.Dir, u)
		stopped := err != nil && r != nil && r.stopped
		if err != nil && !stopped {
			return nil, fmt.Errorf("javac on %s: %w", m.Name, err)
		}
		res.Ran = append(res.Ran, r.cmd)
		real, missing := acc.add(p, m, r)
		oracle.AddSources(p.Dir, real)
		for _, d := range real {
			res.verdict(d.Path).Errors = append(res.verdict(d.Path).Errors, d)
		}
		for _, d := range missing {
			v := res.verdict(d.Path)
			v.Unresolved = appendNew(v.Unresolved, acc.files[d.Path]...)
		}
		if stopped {
			// out of time: the errors javac had printed are proof; the
			// files of this module and of those not reached are not judged
			for _, f := range u.files {
				res.Files[f].Stopped = true
			}
			res.Stopped = true
			res.Took = time.Since(start)
			return res, fmt.Errorf("javac on %s: %w", m.Name, err)
		}
		miss, notes := p.missingOf(m)
		for _, mi := range miss {
			if !seenMissing[mi.Coord] {
				seenMissing[mi.Coord] = true
				res.Missing = append(res.Missing, mi)
			}
		}
		res.Notes = appendNew(res.Notes, notes...)
	}
	res.Took = time.Since(start)
	return res, nil
}

func (s *Sites) verdict(path string) *FileVerdict {
	v := s.Files[path]
	if v == nil {
		v = &FileVerdict{}
		s.Files[path] = v
	}
	return v
}

// siteGroup is the files of one module's main sources or tests.
type siteGroup struct {
	m     *Module
	test  bool
	files []string
}

// group sorts the Java files that exist by the module and root kind
// (main or test) that hold them, the modules in dependency order; a
// file no module holds is an error that names it.
func (p *Project) group(files []string) ([]siteGroup, error) {
	type k struct {
		m    *Module
		test bool
	}
	byKey := map[k][]string{}
	seen := map[string]bool{}
	for _, f := range files {
		f = filepath.ToSlash(filepath.Clean(f))
		if seen[f] || !strings.HasSuffix(f, ".java") || !fileExists(p.Dir, f) {
			continue
		}
		seen[f] = true
		m, root := p.Module(f)
		if m == nil {
			return nil, fmt.Errorf("javac: %s is under no source root of %s", f, p.Dir)
		}
		key := k{m, m.isTest(root)}
		byKey[key] = append(byKey[key], f)
	}
	var out []siteGroup
	for _, m := range p.Modules {
		for _, test := range []bool{false, true} {
			if fs := byKey[k{m, test}]; len(fs) > 0 {
				sort.Strings(fs)
				out = append(out, siteGroup{m, test, fs})
			}
		}
	}
	return out, nil
}

func appendNew(have []string, add ...string) []string {
	for _, a := range add {
		dup := false
		for _, h := range have {
			dup = dup || h == a
		}
		if !dup {
			have = append(have, a)
		}
	}
	return have
}
