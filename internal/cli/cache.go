package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/languages"
	"github.com/ripple-dev/ripple/internal/usercache"
)

// runCache is `hook cache`: where Ripple's user cache is and what each
// part of it takes; `hook cache clean` removes it. The cache grew to
// 531 MB with nothing naming it.
func runCache(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("cache", flag.ContinueOnError)
	fs.SetOutput(stderr)
	keepTools := fs.Bool("keep-tools", false, "with clean: keep the tools Ripple installed (typescript, pyright)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: hook cache [clean [-keep-tools]]

Prints where Ripple's user cache is and the size of each part: the type
cache (export data of the type checker), the word indexes (the words of
the files a check searched, by blob id), the tools Ripple installed with
npm (typescript, pyright) and the rest (the warm-up's log). The cache is
$RIPPLE_CACHE, else the user cache directory's ripple folder; the tools
are always in the latter.

The type cache is capped at 300 MB, or at RIPPLE_CACHE_MAX (300MB, 1GB,
0 for no cap): the checks remove the entries used least recently past
it, and those unused for a week. A word index keeps the files of the
last 8 checks that added to it, and goes when its repository was not
checked for a month. The installed tools are never trimmed.

hook cache clean removes the cache, the installed tools with it (the next
check that needs one installs it again) unless -keep-tools.`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return ExitOK
		}
		return ExitFailure
	}
	clean := false
	switch rest := fs.Args(); {
	case len(rest) == 0:
	case rest[0] == "clean":
		clean = true
		if err := fs.Parse(rest[1:]); err != nil { // hook cache clean -keep-tools
			return ExitFailure
		}
		if fs.NArg() > 0 {
			fmt.Fprintf(stderr, "ripple: cache clean: unexpected argument %q\n", fs.Arg(0))
			return ExitFailure
		}
	default:
		fmt.Fprintf(stderr, "ripple: cache: unknown argument %q (hook cache, or hook cache clean)\n", rest[0])
		return ExitFailure
	}
	parts, err := cacheParts()
	if err != nil {
		fmt.Fprintln(stderr, "ripple: cache:", err)
		return ExitFailure
	}
	if clean {
		return cleanCache(parts, *keepTools, stdout, stderr)
	}
	limit, lerr := usercache.MaxBytes()
	capped := "capped at " + usercache.Human(limit) + ", least recently used out"
	switch {
	case lerr != nil:
		capped += "; " + lerr.Error() + ", the default applies"
	case limit == 0:
		capped = "not capped (RIPPLE_CACHE_MAX=0)"
	}
	var total int64
	for _, p := range parts {
		total += p.bytes
	}
	fmt.Fprintf(stdout, "ripple cache: %s (%s)\n", parts[0].root, usercache.Human(total))
	for _, p := range parts {
		what := p.what
		if p.name == "types" {
			what += ", " + capped
		}
		fmt.Fprintf(stdout, "  %-10s %10s  %s: %s\n", p.name, usercache.Human(p.bytes), usercache.HomeRel(p.path), what)
	}
	return ExitOK
}

// cachePart is one part of the cache as hook cache lists it.
type cachePart struct {
	name, path, what string
	root             string // the cache's root (the first part's)
	bytes            int64
	tool, off        bool
}

// cacheParts are the cache's parts: the type cache, each installed
// tool, and the rest of the root folder.
func cacheParts() ([]cachePart, error) {
	root, off, err := usercache.Dir()
	if err != nil {
		return nil, err
	}
	if off {
		if root, err = usercache.ToolDir(""); err != nil {
			return nil, err
		}
	}
	types := cachePart{name: "types", path: filepath.Join(root, "types"), what: "export data of the type checker", root: root, off: off}
	if off {
		types.what += " (off: RIPPLE_CACHE=off)"
	}
	types.bytes = usercache.Size(types.path)
	words := cachePart{name: "words", path: filepath.Join(root, gitio.WordsDir), what: "the words of the files searched, by blob id, one index per repository", root: root}
	words.bytes = usercache.Size(words.path)
	npm := cachePart{name: "npm", path: filepath.Join(root, "npm"), what: "the tarballs of the npm packages bumps compared", root: root}
	npm.bytes = usercache.Size(npm.path)
	pypi := cachePart{name: "pypi", path: filepath.Join(root, "pypi"), what: "the wheels and sdists of the Python distributions bumps compared", root: root}
	pypi.bytes = usercache.Size(pypi.path)
	parts := []cachePart{types, words, npm, pypi}
	for _, tool := range languages.Tools() {
		t := tool.Name
		dir, err := usercache.ToolDir(t)
		if err != nil {
			return nil, err
		}
		what := "installed with npm on first use"
		if usercache.Size(dir) == 0 {
			what = "not installed"
		}
		parts = append(parts, cachePart{name: t, path: dir, what: what, root: root, tool: true, bytes: usercache.Size(dir)})
	}
	// the rest of the root: what is neither the type cache nor a tool
	other := cachePart{name: "other", path: root, what: "the rest (the warm-up's lock and log)", root: root}
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		p := filepath.Join(root, e.Name())
		if !slices.ContainsFunc(parts, func(c cachePart) bool { return c.path == p }) {
			other.bytes += usercache.Size(p)
		}
	}
	return append(parts, other), nil
}

// cleanCache removes the cache's parts, the tools unless keepTools.
func cleanCache(parts []cachePart, keepTools bool, stdout, stderr io.Writer) int {
	var freed int64
	var tools []string
	failed := false
	remove := func(p string) {
		if err := os.RemoveAll(p); err != nil {
			fmt.Fprintln(stderr, "ripple: cache clean:", err)
			failed = true
		}
	}
	root := parts[0].root
	for _, p := range parts {
		switch {
		case p.tool && keepTools:
			continue
		case p.tool:
			if p.bytes > 0 {
				tools = append(tools, p.name)
			}
			remove(p.path)
		case p.name == "other":
			// only the files Ripple writes there: RIPPLE_CACHE may name a
			// folder that holds other things too
			for _, f := range usercache.Files {
				freed += usercache.Size(filepath.Join(root, f))
				if err := os.Remove(filepath.Join(root, f)); err != nil && !os.IsNotExist(err) {
					fmt.Fprintln(stderr, "ripple: cache clean:", err)
					failed = true
				}
			}
			continue
		default:
			remove(p.path)
		}
		freed += p.bytes
	}
	os.Remove(root) // when empty: the tools kept, or files not Ripple's, keep it
	if failed {
		return ExitFailure
	}
	s := fmt.Sprintf("ripple: removed %s (%s)", usercache.HomeRel(root), usercache.Human(freed))
	switch {
	case len(tools) > 0:
		s += fmt.Sprintf(", with the installed %s: the next check that needs one installs it again", strings.Join(tools, " and "))
	case keepTools:
		s += "; the installed tools kept"
	}
	fmt.Fprintln(stdout, s)
	return ExitOK
}
