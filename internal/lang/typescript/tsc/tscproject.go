package tsc

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/jsonc"
)

// Project is one TypeScript project: a configuration (tsconfig.json,
// another tsconfig*.json, jsconfig.json) and the files it compiles, or
// files no configuration includes, compiled with the options of the
// nearest configuration above them (as an editor's inferred project).
type Project struct {
	// Config is the configuration's absolute path; "" when there is none.
	Config string
	// Dir is the directory the configuration's relative paths start from.
	Dir string
	// Files are the absolute paths of the project's root files.
	Files []string
	// Missing names the parts of the configuration that are not there
	// (an extended configuration, a type library in compilerOptions.types,
	// a package not installed): their options and declarations are not
	// in the check.
	Missing []string

	options  map[string]any // compilerOptions after extends (tsc --showConfig)
	pathsDir string         // where compilerOptions.paths' targets start from
	has      map[string]bool
	inferred bool
}

// Has reports whether the project compiles a file (absolute path).
func (p *Project) Has(file string) bool { return p.has[file] }

// Name is the configuration's path relative to root, or a description
// of an inferred project.
func (p *Project) Name(root string) string {
	if p.Config == "" {
		return "the files under " + relOr(p.Dir, root) + " that no tsconfig.json includes"
	}
	if p.inferred {
		return "the files no tsconfig includes, with the options of " + relOr(p.Config, root)
	}
	return relOr(p.Config, root)
}

func relOr(p, root string) string {
	if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return p
}

// Projects finds the projects of files under a root directory. It
// asks tsc itself what a configuration compiles (`tsc --showConfig`:
// extends, include, exclude and files evaluated as tsc does), once per
// configuration.
type Projects struct {
	bin, root string
	loaded    map[string]*Project // configuration path: the project (nil: none)
	inferred  map[string]*Project // nearest configuration (or directory): the files it governs without including them
	// Ran counts the tsc processes run to read configurations.
	Ran int
}

// NewProjects reads projects under root (absolute) with the compiler bin.
func NewProjects(bin, root string) *Projects {
	return &Projects{bin: bin, root: root, loaded: map[string]*Project{}, inferred: map[string]*Project{}}
}

// maxConfigLoads bounds the configurations read for one file.
const maxConfigLoads = 24

// For returns the project that compiles file (absolute): the first
// configuration, from the file's directory up to the root, that includes
// it (tsconfig.json, then the projects it references, then the other
// tsconfig*.json of the directory that name their own files, then
// jsconfig.json); else an inferred project with the options of the
// nearest tsconfig.json or jsconfig.json.
func (ps *Projects) For(ctx context.Context, file string) *Project {
	var nearest string
	loads := 0
	seen := map[string]bool{}
	var try func(c string, depth int) *Project
	try = func(c string, depth int) *Project {
		if seen[c] || loads >= maxConfigLoads || depth > 3 {
			return nil
		}
		seen[c] = true
		if _, ok := ps.loaded[c]; !ok {
			loads++
		}
		p, refs := ps.load(ctx, c)
		if p != nil && p.has[file] {
			return p
		}
		for _, r := range refs {
			if q := try(r, depth+1); q != nil {
				return q
			}
		}
		return nil
	}
	for dir := filepath.Dir(file); ; dir = filepath.Dir(dir) {
		for _, c := range configsIn(dir) {
			b := filepath.Base(c)
			if nearest == "" && (b == "tsconfig.json" || b == "jsconfig.json") {
				nearest = c
			}
			if p := try(c, 0); p != nil {
				return p
			}
		}
		if dir == ps.root || !strings.HasPrefix(dir, ps.root) || filepath.Dir(dir) == dir {
			break
		}
	}
	key := nearest
	if key == "" {
		key = ps.root
	}
	p := ps.inferred[key]
	if p == nil {
		p = &Project{Dir: ps.root, has: map[string]bool{}, inferred: true}
		if nearest != "" {
			if base, _ := ps.load(ctx, nearest); base != nil {
				p.Config, p.Dir, p.options, p.pathsDir, p.Missing = base.Config, base.Dir, base.options, base.pathsDir, base.Missing
			}
		}
		ps.inferred[key] = p
	}
	if !p.has[file] {
		p.has[file] = true
		p.Files = append(p.Files, file)
	}
	return p
}

// configsIn lists the configurations of a directory in the order For
// tries them: tsconfig.json, the other tsconfig*.json, jsconfig.json.
func configsIn(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var main, other, js []string
	for _, e := range ents {
		n := e.Name()
		switch {
		case e.IsDir():
		case n == "tsconfig.json":
			main = append(main, filepath.Join(dir, n))
		case n == "jsconfig.json":
			js = append(js, filepath.Join(dir, n))
		case strings.HasPrefix(n, "tsconfig") && strings.HasSuffix(n, ".json") && !strings.HasPrefix(n, wrapperPrefix):
			other = append(other, filepath.Join(dir, n))
		}
	}
	sort.Strings(other)
	return append(append(main, other...), js...)
}

// load reads a configuration: the project it defines (nil when it
// compiles nothing or is only a base for others) and the configurations
// it references.
func (ps *Projects) load(ctx context.Context, c string) (*Project, []string) {
	raw := readJSONC(c)
	var refs []string
	if rs, ok := raw["references"].([]any); ok {
		for _, r := range rs {
			m, _ := r.(map[string]any)
			rp, _ := m["path"].(string)
			if rp == "" {
				continue
			}
			rp = filepath.Join(filepath.Dir(c), rp)
			if st, err := os.Stat(rp); err == nil && st.IsDir() {
				rp = filepath.Join(rp, "tsconfig.json")
			}
			refs = append(refs, rp)
		}
	}
	if p, ok := ps.loaded[c]; ok {
		return p, refs
	}
	ps.loaded[c] = nil
	b := filepath.Base(c)
	_, hasFiles := raw["files"]
	_, hasInclude := raw["include"]
	if raw == nil || b != "tsconfig.json" && b != "jsconfig.json" && !hasFiles && !hasInclude {
		// not a project of its own: a base other configurations extend
		// (tsconfig.base.json would include the whole tree)
		return nil, refs
	}
	out, err := runTSC(ctx, ps.bin, filepath.Dir(c), "--showConfig", "-p", c)
	ps.Ran++
	if err != nil {
		return nil, refs
	}
	var shown struct {
		CompilerOptions map[string]any `json:"compilerOptions"`
		Files           []string       `json:"files"`
	}
	if json.Unmarshal(out, &shown) != nil {
		return nil, refs
	}
	// a configuration that includes nothing (a solution-style
	// tsconfig.json listing references) is kept for its options: an
	// inferred project below it takes them
	p := &Project{Config: c, Dir: filepath.Dir(c), options: shown.CompilerOptions, has: map[string]bool{}}
	if p.options == nil {
		p.options = map[string]any{}
	}
	for _, f := range shown.Files {
		abs := filepath.Clean(filepath.Join(p.Dir, filepath.FromSlash(f)))
		p.Files = append(p.Files, abs)
		p.has[abs] = true
	}
	p.Missing = missingExtends(c, 0)
	p.pathsDir = pathsDeclaredIn(c, 0)
	if bu, ok := p.options["baseUrl"].(string); ok {
		p.pathsDir = filepath.Join(p.Dir, bu)
	}
	ps.loaded[c] = p
	return p, refs
}

// readJSONC reads a JSON file that may hold comments and trailing
// commas, as tsconfig.json does; nil when it is not an object.
func readJSONC(f string) map[string]any {
	b, err := os.ReadFile(f)
	if err != nil {
		return nil
	}
	return jsonc.Object(b)
}

// extendsOf lists the configurations a configuration extends, resolved
// as tsc resolves them (a relative path with .json inferred, else a
// package under node_modules); the names of those not found are in
// missing.
func extendsOf(c string) (found, missing []string) {
	raw := readJSONC(c)
	var names []string
	switch e := raw["extends"].(type) {
	case string:
		names = []string{e}
	case []any:
		for _, x := range e {
			if s, ok := x.(string); ok {
				names = append(names, s)
			}
		}
	}
	dir := filepath.Dir(c)
	for _, n := range names {
		var cands []string
		if strings.HasPrefix(n, ".") || filepath.IsAbs(n) {
			f := filepath.Join(dir, n)
			cands = []string{f, f + ".json", filepath.Join(f, "tsconfig.json")}
		} else {
			for d := dir; ; d = filepath.Dir(d) {
				f := filepath.Join(d, "node_modules", filepath.FromSlash(n))
				cands = append(cands, f, f+".json", filepath.Join(f, "tsconfig.json"))
				if filepath.Dir(d) == d {
					break
				}
			}
		}
		hit := ""
		for _, f := range cands {
			if st, err := os.Stat(f); err == nil && !st.IsDir() {
				hit = f
				break
			}
		}
		if hit == "" {
			missing = append(missing, n)
		} else {
			found = append(found, hit)
		}
	}
	return found, missing
}

// missingExtends names the configurations a chain extends that are not
// there.
func missingExtends(c string, depth int) []string {
	if depth > 8 {
		return nil
	}
	found, missing := extendsOf(c)
	var out []string
	for _, m := range missing {
		out = append(out, "the configuration "+m+" that "+filepath.Base(c)+" extends")
	}
	for _, f := range found {
		out = append(out, missingExtends(f, depth+1)...)
	}
	return out
}

// pathsDeclaredIn is the directory of the configuration whose
// compilerOptions.paths is in effect (the file's own, else the last of
// the configurations it extends that has one): without a baseUrl,
// paths' targets are relative to it.
func pathsDeclaredIn(c string, depth int) string {
	if depth > 8 {
		return filepath.Dir(c)
	}
	raw := readJSONC(c)
	if opts, ok := raw["compilerOptions"].(map[string]any); ok {
		if _, ok := opts["paths"]; ok {
			return filepath.Dir(c)
		}
	}
	found, _ := extendsOf(c)
	for i := len(found) - 1; i >= 0; i-- {
		if d := pathsDeclaredIn(found[i], depth+1); d != "" {
			return d
		}
	}
	if depth == 0 {
		return filepath.Dir(c)
	}
	return ""
}
