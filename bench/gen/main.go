// Command gen writes a synthetic Go module of a target size for Ripple's
// scaling benchmark (bench/series.sh).
//
//	go run ./bench/gen -out DIR -lines 300000 [-seed 1] [-callers 50] [-noise 25] [-manifest FILE]
//	go run ./bench/gen -out DIR -lines 300000 -change     # the signature change only
//
// The module (example.com/synth, standard library only) is a tree of
// packages under internal/ with a layered import graph: package i imports
// a few packages j < i, so the graph is acyclic and deep. Each package has
// struct types with JSON tags, constructors, methods, an interface its
// types satisfy, an Index type whose lookup method is named like the seed
// function in -noise percent of the packages (name noise for a textual
// prefilter), functions calling functions, methods and
// struct literals of the packages it imports, _test.go files (internal and
// external test packages) and build-tagged files (linux / !linux, and an
// `integration` tag). Everything is deterministic from -seed and -lines.
//
// The seed function is base.Lookup in internal/base/lookup.go:
//
//	func Lookup(key string, n int) (string, error)
//
// -callers call sites of it are spread over the packages: most in ordinary
// functions, some in _test.go files and some in build-tagged files. With
// -change, gen rewrites only internal/base/lookup.go with a parameter added
// (ctx context.Context first), leaving every caller inconsistent.
//
// -manifest FILE writes a JSON description: the line and file counts, the
// seed, and the caller sites ("path:line"), which a check of the change
// must all report as errors.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

const (
	module        = "example.com/synth"
	seedDir       = "internal/base"
	seedFile      = seedDir + "/lookup.go"
	computePerPkg = 48 // exported Compute functions per package
	computeFiles  = 4  // files they are spread over
	itemsPerPkg   = 4  // exported Item types per package
)

type manifest struct {
	Module   string   `json:"module"`
	Seed     int64    `json:"seed"`
	Target   int      `json:"target_lines"`
	Lines    int      `json:"lines"`
	Files    int      `json:"files"`
	Packages int      `json:"packages"`
	SeedFile string   `json:"seed_file"`
	SeedFunc string   `json:"seed_func"`
	Noise    int      `json:"noise_packages"` // packages with a method named like the seed
	Callers  []string `json:"callers"`        // path:line of every call of the seed function
}

func main() {
	out := flag.String("out", "", "directory to write the module into (created)")
	lines := flag.Int("lines", 100000, "target size in lines of Go")
	seed := flag.Int64("seed", 1, "random seed")
	callers := flag.Int("callers", 50, "call sites of the seed function")
	change := flag.Bool("change", false, "write only the changed seed file (a parameter added)")
	manifestPath := flag.String("manifest", "", "write a JSON manifest here")
	noise := flag.Int("noise", 25, "percent of packages whose Index type has a method named Lookup (like the seed), not Find")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gen: -out is required")
		os.Exit(2)
	}
	if *change {
		must(writeFile(*out, seedFile, seedSource(true)))
		return
	}
	g := &gen{seed: *seed, target: *lines, callers: *callers, noise: *noise}
	files, m := g.generate()
	for _, f := range files {
		text := f.text()
		if strings.HasSuffix(f.path, ".go") {
			// gofmt (alignment of fields and tags); it must not move lines,
			// or the manifest's caller lines would be wrong
			b, err := format.Source([]byte(text))
			must(err)
			if strings.Count(string(b), "\n") != strings.Count(text, "\n") {
				must(fmt.Errorf("%s: gofmt changed the line count", f.path))
			}
			text = string(b)
		}
		must(writeFile(*out, f.path, text))
	}
	if *manifestPath != "" {
		b, err := json.MarshalIndent(m, "", "  ")
		must(err)
		must(os.WriteFile(*manifestPath, append(b, '\n'), 0o644))
	}
	fmt.Fprintf(os.Stderr, "gen: %d lines in %d files, %d packages, %d callers of base.Lookup\n", m.Lines, m.Files, m.Packages, len(m.Callers))
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func writeFile(root, rel, text string) error {
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(text), 0o644)
}

// file is a Go file under construction: lines, and the imports its body
// used.
type file struct {
	path       string
	constraint string // //go:build line, or ""
	pkg        string
	imports    map[string]bool
	body       []string
	callLines  []int // indexes in body of seed call sites
	raw        bool  // body is the whole text
}

func newFile(path, pkg string) *file {
	return &file{path: path, pkg: pkg, imports: map[string]bool{}}
}

func (f *file) use(importPath string) { f.imports[importPath] = true }

func (f *file) add(format string, args ...any) {
	f.body = append(f.body, strings.Split(fmt.Sprintf(format, args...), "\n")...)
}

// seedCall adds a line calling the seed function and remembers it.
func (f *file) seedCall(format string, args ...any) {
	f.use(module + "/" + seedDir)
	f.callLines = append(f.callLines, len(f.body))
	f.add(format, args...)
}

// header returns the lines above the body.
func (f *file) header() []string {
	if f.raw {
		return nil
	}
	var h []string
	if f.constraint != "" {
		h = append(h, "//go:build "+f.constraint, "")
	}
	h = append(h, "package "+f.pkg, "")
	if len(f.imports) > 0 {
		var std, local []string
		for ip := range f.imports {
			if strings.HasPrefix(ip, module+"/") {
				local = append(local, ip)
			} else {
				std = append(std, ip)
			}
		}
		sort.Strings(std)
		sort.Strings(local)
		h = append(h, "import (")
		for _, ip := range std {
			h = append(h, "\t"+strconv(ip))
		}
		if len(std) > 0 && len(local) > 0 {
			h = append(h, "")
		}
		for _, ip := range local {
			h = append(h, "\t"+strconv(ip))
		}
		h = append(h, ")", "")
	}
	return h
}

func strconv(s string) string { return `"` + s + `"` }

// trimmed is the body without trailing blank lines.
func (f *file) trimmed() []string {
	b := f.body
	for len(b) > 0 && b[len(b)-1] == "" {
		b = b[:len(b)-1]
	}
	return b
}

func (f *file) text() string {
	return strings.Join(append(f.header(), f.trimmed()...), "\n") + "\n"
}

func (f *file) lineCount() int { return len(f.header()) + len(f.trimmed()) }

// pkgInfo is one generated package.
type pkgInfo struct {
	index int
	dir   string // slash path relative to the module root
	name  string
	deps  []int // indexes of imported packages (all < index)
	// seed call sites assigned to this package, by placement
	callPlain, callTest, callTagged int
}

func (p *pkgInfo) importPath() string { return module + "/" + p.dir }

// indexMethod is the name of the package's Index lookup method: the seed's
// name in -noise percent of the packages.
func (g *gen) indexMethod(p *pkgInfo) string {
	if (p.index*37)%100 < g.noise {
		return "Lookup"
	}
	return "Find"
}

type gen struct {
	seed    int64
	target  int
	callers int
	noise   int // percent of packages with a Lookup method
	pkgs    []*pkgInfo
}

var words = []string{
	"cache", "store", "config", "plan", "graph", "state", "schema", "addr", "eval",
	"diag", "remote", "local", "module", "provider", "resource", "output", "input",
	"variable", "backend", "command", "format", "render", "parse", "lock", "registry",
	"auth", "client", "server", "proto", "encode", "decode", "walk", "refactor",
	"check", "deps", "plugin", "getter", "version", "views", "json", "marshal",
}

var areas = []string{"core", "backend", "command", "lang", "plans", "states", "configs", "providers", "tools", "addrs"}

// layout decides the packages of a module of about target lines: their
// directories, names and imports.
func (g *gen) layout(count int) {
	r := rand.New(rand.NewSource(g.seed))
	g.pkgs = []*pkgInfo{{index: 0, dir: seedDir, name: "base"}}
	used := map[string]bool{"base": true}
	for i := 1; i < count; i++ {
		area := areas[r.Intn(len(areas))]
		layer := 0
		for x := i; x > 1; x >>= 1 {
			layer++
		}
		name := words[r.Intn(len(words))]
		for n := 2; used[name]; n++ {
			name = fmt.Sprintf("%s%d", words[r.Intn(len(words))], n)
		}
		used[name] = true
		dir := fmt.Sprintf("internal/%s/l%d/%s", area, layer, name)
		if r.Intn(3) == 0 && i > 4 {
			// some packages nest under another package's directory
			parent := g.pkgs[1+r.Intn(i-1)]
			dir = parent.dir + "/" + name
		}
		p := &pkgInfo{index: i, dir: dir, name: name}
		nd := 2 + r.Intn(3)
		if nd > i {
			nd = i
		}
		seen := map[int]bool{}
		for len(p.deps) < nd {
			// prefer recent (nearby layer) packages, sometimes far ones
			var j int
			if r.Intn(2) == 0 {
				j = r.Intn(i)
			} else {
				lo := i - 8
				if lo < 0 {
					lo = 0
				}
				j = lo + r.Intn(i-lo)
			}
			if !seen[j] {
				seen[j] = true
				p.deps = append(p.deps, j)
			}
		}
		sort.Ints(p.deps)
		g.pkgs = append(g.pkgs, p)
	}
	// spread the seed's callers over packages 1..count-1: 80% in plain
	// functions, 10% in _test.go files, 10% in build-tagged files
	if count > 1 {
		for k := 0; k < g.callers; k++ {
			p := g.pkgs[1+(k*(count-1))/g.callers%(count-1)]
			switch k % 10 {
			case 3:
				p.callTest++
			case 7:
				p.callTagged++
			default:
				p.callPlain++
			}
		}
	}
}

func (g *gen) generate() ([]*file, *manifest) {
	// first pass: the size of one package is about constant; find the count
	count := 2
	for {
		g.layout(count)
		total := 0
		for _, p := range g.pkgs {
			for _, f := range g.pkgFiles(p) {
				total += f.lineCount()
			}
		}
		if total >= g.target {
			break
		}
		avg := total / count
		next := count + (g.target-total+avg-1)/avg
		if next <= count {
			next = count + 1
		}
		count = next
	}
	g.layout(count)
	m := &manifest{Module: module, Seed: g.seed, Target: g.target, SeedFile: seedFile, SeedFunc: "base.Lookup", Packages: count, Callers: []string{}}
	for _, p := range g.pkgs {
		if g.indexMethod(p) == "Lookup" {
			m.Noise++
		}
	}
	var files []*file
	for _, p := range g.pkgs {
		for _, f := range g.pkgFiles(p) {
			files = append(files, f)
			hl := len(f.header())
			for _, i := range f.callLines {
				m.Callers = append(m.Callers, fmt.Sprintf("%s:%d", f.path, hl+i+1))
			}
			m.Lines += f.lineCount()
		}
	}
	files = append(files, rawFile("go.mod", "module "+module+"\n\ngo 1.22\n"))
	m.Files = len(files) - 1
	sort.Strings(m.Callers)
	return files, m
}

// pkgFiles generates the files of one package (deterministic from the
// package index).
func (g *gen) pkgFiles(p *pkgInfo) []*file {
	r := rand.New(rand.NewSource(g.seed*1_000_003 + int64(p.index)))
	var fs []*file
	if p.index == 0 {
		fs = append(fs, rawFile(seedFile, seedSource(false)))
	}
	fs = append(fs, g.docFile(p), g.typesFile(p, r), g.ifaceFile(p, r))
	for k := 0; k < computeFiles; k++ {
		n := 0 // the package's plain callers, dealt round the files
		for c := 0; c < p.callPlain; c++ {
			if (c+p.index)%computeFiles == k {
				n++
			}
		}
		fs = append(fs, g.computeFile(p, r, k, n))
	}
	fs = append(fs, g.platformFiles(p, r)...)
	fs = append(fs, g.testFiles(p, r)...)
	return fs
}

// rawFile is a file whose text is given whole.
func rawFile(path, text string) *file {
	f := &file{path: path, imports: map[string]bool{}, raw: true}
	f.body = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	return f
}

func (g *gen) docFile(p *pkgInfo) *file {
	if p.index == 0 {
		return rawFile(p.dir+"/doc_extra.go", "package base\n\n// Version of the generated module.\nconst Version = \"0.1.0\"\n")
	}
	return rawFile(p.dir+"/doc.go", fmt.Sprintf("// Package %s is generated by bench/gen for Ripple's benchmarks.\n// It has no meaning; its shape imitates a real code base.\npackage %s\n", p.name, p.name))
}

// typesFile: Item types with JSON tags, constructors and methods.
func (g *gen) typesFile(p *pkgInfo, r *rand.Rand) *file {
	f := newFile(p.dir+"/types.go", p.name)
	f.use("fmt")
	f.use("strings")
	for k := 0; k < itemsPerPkg; k++ {
		f.add("// Item%d is a record of the %s package.", k, p.name)
		f.add("type Item%d struct {", k)
		f.add("\tID       int               `json:\"id\"`")
		f.add("\tName     string            `json:\"name\"`")
		f.add("\tTags     []string          `json:\"tags,omitempty\"`")
		f.add("\tScore    float64           `json:\"score\"`")
		f.add("\tEnabled  bool              `json:\"enabled\"`")
		f.add("\tLabels   map[string]string `json:\"labels,omitempty\"`")
		if k > 0 {
			f.add("\tParent   *Item%d            `json:\"parent,omitempty\"`", k-1)
		}
		if len(p.deps) > 0 && k%2 == 1 {
			d := g.pkgs[p.deps[r.Intn(len(p.deps))]]
			f.use(d.importPath())
			f.add("\tUpstream *%s.Item%d `json:\"upstream,omitempty\"`", d.name, r.Intn(itemsPerPkg))
		}
		f.add("\tcount    int")
		f.add("}")
		f.add("")
		f.add("// NewItem%d returns an enabled Item%d.", k, k)
		f.add("func NewItem%d(id int, name string) *Item%d {", k, k)
		f.add("\tit := &Item%d{ID: id, Name: name, Enabled: true, Labels: map[string]string{}}", k)
		f.add("\tif strings.HasPrefix(name, \"_\") {")
		f.add("\t\tit.Enabled = false")
		f.add("\t}")
		f.add("\treturn it")
		f.add("}")
		f.add("")
		f.add("// Describe returns a one-line description.")
		f.add("func (it *Item%d) Describe() string {", k)
		f.add("\tif it == nil {")
		f.add("\t\treturn \"<nil>\"")
		f.add("\t}")
		f.add("\treturn fmt.Sprintf(\"%s#%%d %%s (%%d tags)\", it.ID, it.Name, len(it.Tags))", p.name)
		f.add("}")
		f.add("")
		f.add("// Key returns the item's identity.")
		f.add("func (it Item%d) Key() string { return strings.ToLower(it.Name) + \"/\" + fmt.Sprint(it.ID) }", k)
		f.add("")
		f.add("// AddTag adds a tag once.")
		f.add("func (it *Item%d) AddTag(tag string) bool {", k)
		f.add("\tfor _, t := range it.Tags {")
		f.add("\t\tif t == tag {")
		f.add("\t\t\treturn false")
		f.add("\t\t}")
		f.add("\t}")
		f.add("\tit.Tags = append(it.Tags, tag)")
		f.add("\tit.count++")
		f.add("\treturn true")
		f.add("}")
		f.add("")
		f.add("// Weight scores the item.")
		f.add("func (it *Item%d) Weight(w float64) float64 {", k)
		f.add("\ttotal := it.Score * w")
		f.add("\tfor k, v := range it.Labels {")
		f.add("\t\ttotal += float64(len(k)+len(v)) / 10")
		f.add("\t}")
		if k > 0 {
			f.add("\tif it.Parent != nil {")
			f.add("\t\ttotal += it.Parent.Weight(w / 2)")
			f.add("\t}")
		}
		f.add("\treturn total")
		f.add("}")
		f.add("")
	}
	return f
}

// ifaceFile: an interface the Items satisfy, an Index with a method named
// Lookup (not the seed), and a registry using both.
func (g *gen) ifaceFile(p *pkgInfo, r *rand.Rand) *file {
	f := newFile(p.dir+"/iface.go", p.name)
	f.use("errors")
	f.use("sort")
	f.add("// Describer is implemented by every Item type.")
	f.add("type Describer interface {")
	f.add("\tDescribe() string")
	f.add("\tKey() string")
	f.add("}")
	f.add("")
	f.add("// ErrNotFound is returned by Index.%s.", g.indexMethod(p))
	f.add("var ErrNotFound = errors.New(\"%s: not found\")", p.name)
	f.add("")
	f.add("// Index maps keys to names.")
	f.add("type Index struct {")
	f.add("\tm    map[string]string")
	f.add("\tkeys []string")
	f.add("}")
	f.add("")
	f.add("// NewIndex returns an empty Index.")
	f.add("func NewIndex() *Index { return &Index{m: map[string]string{}} }")
	f.add("")
	f.add("// %s returns the n-th name under key.", g.indexMethod(p))
	f.add("func (ix *Index) %s(key string, n int) (string, error) {", g.indexMethod(p))
	f.add("\tv, ok := ix.m[key]")
	f.add("\tif !ok || n < 0 {")
	f.add("\t\treturn \"\", ErrNotFound")
	f.add("\t}")
	f.add("\treturn v, nil")
	f.add("}")
	f.add("")
	f.add("// Put adds a describer.")
	f.add("func (ix *Index) Put(d Describer) {")
	f.add("\tif _, ok := ix.m[d.Key()]; !ok {")
	f.add("\t\tix.keys = append(ix.keys, d.Key())")
	f.add("\t\tsort.Strings(ix.keys)")
	f.add("\t}")
	f.add("\tix.m[d.Key()] = d.Describe()")
	f.add("}")
	f.add("")
	f.add("// Keys returns the sorted keys.")
	f.add("func (ix *Index) Keys() []string { return append([]string(nil), ix.keys...) }")
	f.add("")
	f.add("var _ Describer = (*Item0)(nil)")
	f.add("")
	f.add("// Registry builds an index of all item kinds.")
	f.add("func Registry(n int) *Index {")
	f.add("\tix := NewIndex()")
	f.add("\tfor i := 0; i < n; i++ {")
	for k := 0; k < itemsPerPkg; k++ {
		f.add("\t\tix.Put(NewItem%d(i, \"item%d\"))", k, k)
	}
	f.add("\t}")
	if len(p.deps) > 0 {
		d := g.pkgs[p.deps[r.Intn(len(p.deps))]]
		f.use(d.importPath())
		f.add("\tfor _, k := range %s.Registry(1).Keys() {", d.name)
		f.add("\t\tix.Put(&Item0{ID: len(k), Name: k})")
		f.add("\t}")
	}
	f.add("\treturn ix")
	f.add("}")
	return f
}

// computeFile: computePerPkg/computeFiles Compute functions calling into
// the package's imports; ncall of them call the seed function.
func (g *gen) computeFile(p *pkgInfo, r *rand.Rand, k, ncall int) *file {
	f := newFile(fmt.Sprintf("%s/compute_%c.go", p.dir, 'a'+k), p.name)
	per := computePerPkg / computeFiles
	calls := map[int]bool{}
	for len(calls) < ncall && len(calls) < per {
		calls[r.Intn(per)] = true
	}
	extra := ncall - len(calls) // more callers than functions: several per function
	for j := 0; j < per; j++ {
		idx := k*per + j
		f.add("// Compute%d combines n and s.", idx)
		f.add("func Compute%d(n int, s string) (int, error) {", idx)
		f.add("\ttotal := n")
		switch r.Intn(4) {
		case 0:
			f.add("\tfor i := 0; i < len(s); i++ {")
			f.add("\t\ttotal += int(s[i]) %% 7")
			f.add("\t}")
		case 1:
			f.add("\tparts := map[string]int{}")
			f.add("\tfor i, c := range s {")
			f.add("\t\tparts[string(c)] += i")
			f.add("\t}")
			f.add("\tfor _, v := range parts {")
			f.add("\t\ttotal += v")
			f.add("\t}")
		case 2:
			f.add("\tdefer func() {")
			f.add("\t\ttotal = total %% 1000003")
			f.add("\t}()")
			f.add("\tacc := func(x int) { total += x * 3 }")
			f.add("\tacc(len(s))")
		default:
			f.add("\tswitch {")
			f.add("\tcase total%%3 == 0:")
			f.add("\t\ttotal /= 3")
			f.add("\tcase total > 1000:")
			f.add("\t\ttotal -= 1000")
			f.add("\tdefault:")
			f.add("\t\ttotal++")
			f.add("\t}")
		}
		// calls into imported packages
		for c := 0; c < 2 && len(p.deps) > 0; c++ {
			d := g.pkgs[p.deps[r.Intn(len(p.deps))]]
			f.use(d.importPath())
			switch r.Intn(3) {
			case 0:
				f.use("fmt")
				f.add("\tif v, err := %s.Compute%d(total, s+%q); err != nil {", d.name, r.Intn(computePerPkg), "x")
				f.add("\t\treturn 0, fmt.Errorf(\"compute%d: %%w\", err)", idx)
				f.add("\t} else {")
				f.add("\t\ttotal += v")
				f.add("\t}")
			case 1:
				it := r.Intn(itemsPerPkg)
				f.add("\tit%d := %s.NewItem%d(total, s)", c, d.name, it)
				f.add("\tit%d.AddTag(%q)", c, p.name)
				f.add("\ttotal += len(it%d.Describe()) + int(it%d.Weight(0.5))", c, c)
			default:
				f.add("\tlit%d := %s.Item%d{ID: total, Name: s, Score: 1.5}", c, d.name, r.Intn(itemsPerPkg))
				f.add("\ttotal += len(lit%d.Key())", c)
			}
		}
		// the package's own types and the name-noise method
		if r.Intn(3) == 0 {
			f.add("\tif name, err := Registry(1).%s(s, n); err == nil {", g.indexMethod(p))
			f.add("\t\ttotal += len(name)")
			f.add("\t}")
		}
		if calls[j] {
			n := 1
			if extra > 0 && j == maxKey(calls) {
				n += extra
			}
			for c := 0; c < n; c++ {
				f.seedCall("\tif v, err := base.Lookup(s, total+%d); err == nil {", c)
				f.add("\t\ttotal += len(v)")
				f.add("\t}")
			}
		}
		if idx > 0 && r.Intn(2) == 0 {
			f.add("\tif v, err := Compute%d(total/2, s); err == nil {", r.Intn(idx))
			f.add("\t\ttotal ^= v")
			f.add("\t}")
		}
		f.add("\treturn total, nil")
		f.add("}")
		f.add("")
	}
	return f
}

func maxKey(m map[int]bool) int {
	k := -1
	for x := range m {
		if x > k {
			k = x
		}
	}
	return k
}

// platformFiles: platformWeight in a linux file and a !linux file, and an
// integration-tagged file; the tagged seed callers go in the linux file
// (a Go toolchain on any other system does not compile them).
func (g *gen) platformFiles(p *pkgInfo, r *rand.Rand) []*file {
	lin := newFile(p.dir+"/platform_linux.go", p.name)
	lin.constraint = "linux"
	lin.use("os")
	lin.add("// platformWeight reads a Linux-only detail.")
	lin.add("func platformWeight() int {")
	lin.add("\tw := 1")
	lin.add("\tif _, err := os.Stat(\"/proc/self\"); err == nil {")
	lin.add("\t\tw++")
	lin.add("\t}")
	for c := 0; c < p.callTagged; c++ {
		lin.seedCall("\tif v, err := base.Lookup(\"linux\", w+%d); err == nil {", c)
		lin.add("\t\tw += len(v)")
		lin.add("\t}")
	}
	lin.add("\treturn w")
	lin.add("}")

	oth := newFile(p.dir+"/platform_other.go", p.name)
	oth.constraint = "!linux"
	oth.add("func platformWeight() int { return 1 }")

	fs := []*file{lin, oth}
	if p.index%3 == 0 {
		in := newFile(p.dir+"/integration.go", p.name)
		in.constraint = "integration"
		in.use("fmt")
		in.add("// IntegrationReport is built only with -tags integration.")
		in.add("func IntegrationReport() string {")
		in.add("\treturn fmt.Sprint(platformWeight(), Registry(2).Keys())")
		in.add("}")
		fs = append(fs, in)
	}
	_ = r
	return fs
}

// testFiles: an internal test file (the test-file seed callers go here)
// and, for some packages, an external test package.
func (g *gen) testFiles(p *pkgInfo, r *rand.Rand) []*file {
	t := newFile(p.dir+"/compute_test.go", p.name)
	t.use("testing")
	for j := 0; j < computePerPkg; j += 3 {
		t.add("func TestCompute%d(t *testing.T) {", j)
		t.add("\tgot, err := Compute%d(%d, %q)", j, r.Intn(100), words[r.Intn(len(words))])
		t.add("\tif err != nil {")
		t.add("\t\tt.Fatal(err)")
		t.add("\t}")
		t.add("\tif got < -1<<40 {")
		t.add("\t\tt.Errorf(\"Compute%d = %%d\", got)", j)
		t.add("\t}")
		t.add("}")
		t.add("")
	}
	t.add("func TestPlatformWeight(t *testing.T) {")
	t.add("\tif platformWeight() < 1 {")
	t.add("\t\tt.Fatal(\"weight < 1\")")
	t.add("\t}")
	for c := 0; c < p.callTest; c++ {
		t.seedCall("\tif _, err := base.Lookup(\"test\", %d); err != nil {", c)
		t.add("\t\tt.Log(err)")
		t.add("\t}")
	}
	t.add("}")
	fs := []*file{t}
	if p.index%2 == 1 {
		x := newFile(p.dir+"/example_test.go", p.name+"_test")
		x.use("fmt")
		x.use(p.importPath())
		x.add("func ExampleNewItem0() {")
		x.add("\tit := %s.NewItem0(1, \"a\")", p.name)
		x.add("\tfmt.Println(it.Key())")
		x.add("\t// Output: a/1")
		x.add("}")
		fs = append(fs, x)
	}
	return fs
}

// seedSource is internal/base/lookup.go, before or after the change.
func seedSource(changed bool) string {
	params, use := "key string, n int", ""
	imports := "import (\n\t\"errors\"\n\t\"strings\"\n)\n"
	if changed {
		params = "ctx context.Context, key string, n int"
		use = "\tif err := ctx.Err(); err != nil {\n\t\treturn \"\", err\n\t}\n"
		imports = "import (\n\t\"context\"\n\t\"errors\"\n\t\"strings\"\n)\n"
	}
	return `// Package base is the lowest layer of the generated module; Lookup is
// the seed of the benchmark's signature change.
package base

` + imports + `
// ErrEmpty is returned for an empty key.
var ErrEmpty = errors.New("base: empty key")

var table = map[string]string{"linux": "penguin", "test": "probe", "a": "alpha"}

// Lookup returns the value of key repeated n times.
func Lookup(` + params + `) (string, error) {
` + use + `	if key == "" {
		return "", ErrEmpty
	}
	v, ok := table[key]
	if !ok {
		v = key
	}
	if n < 1 {
		n = 1
	}
	return strings.Repeat(v, n%4+1), nil
}

// Keys returns the known keys.
func Keys() []string {
	out := make([]string, 0, len(table))
	for k := range table {
		out = append(out, k)
	}
	return out
}
`
}
