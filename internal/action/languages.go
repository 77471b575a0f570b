package action

import (
	"context"
	"path"
	"strings"

	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang/python/pyright"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/languages"
	"github.com/ripple-dev/ripple/internal/model"
)

// changedFiles are the paths the range changes ("" on failure: the
// sections that read them are then left out, never guessed).
func changedFiles(ctx context.Context, repo *gitio.Repo, base, head string) []string {
	out, err := repo.Git(ctx, "diff", "--name-only", "--no-renames", base, head)
	if err != nil {
		return nil
	}
	return strings.Fields(string(out))
}

// languageOf is the title of the language a changed file belongs to
// (the registry's), "" for none.
func languageOf(p string) string {
	l, _ := languages.For(p)
	return l.Title
}

// languageLines say, for each language the range changes, which tier
// judged it and what it lacked: what the job summary's Languages
// section shows, so that "types" quietly meaning "syntax" is visible
// where people look.
func languageLines(files []string, res *model.Result, cfg *config.Config, getenv func(string) string) []string {
	seen := map[string]bool{}
	for _, f := range files {
		if l := languageOf(f); l != "" {
			seen[l] = true
		}
	}
	notes := func(prefixes ...string) []string {
		var out []string
		for _, n := range res.PrecisionNotes {
			for _, p := range prefixes {
				if strings.Contains(n, p) {
					out = append(out, n)
					break
				}
			}
		}
		return out
	}
	var lines []string
	if seen["Go"] {
		l := "**Go**: types (go/types, from the sources and the module cache)"
		if ns := notes("not found (not in the module cache)", "type checking stopped", "type checking used no standard library", "not loaded (past the time budget"); len(ns) > 0 {
			l += "; lacked: " + strings.Join(ns, "; ")
		}
		if cfg.Precision == config.PrecisionSyntax {
			l = "**Go**: syntax (precision: syntax)"
		}
		lines = append(lines, l)
	}
	for _, l := range languages.All() {
		lang := l.Title
		if !l.Cgo || !seen[lang] {
			continue
		}
		if !treesit.Available {
			lines = append(lines, "**"+lang+"**: not checked: this binary was built without cgo (the runner has no C compiler), and the parser is C; install a C compiler before this action to check it")
			continue
		}
		switch lang {
		case "Python":
			l := "**Python**: types (pyright), syntax where it cannot settle a site; pyright proves fix mode's edits"
			if ns := notes("python: types not checked", "python: type checking stopped", "not type-checked: pyright"); len(ns) > 0 {
				l = "**Python**: syntax (Ripple's own resolution of names, imports and calls); lacked: " + strings.Join(ns, "; ") + "; pyright proves fix mode's edits"
			} else if cfg.Precision == config.PrecisionSyntax {
				l = "**Python**: syntax (precision: syntax); pyright proves fix mode's edits"
			}
			if py := getenv(pyright.PythonEnv); py != "" {
				l += ", in the environment of `" + py + "`"
			} else {
				l += "; lacked: a virtual environment of the project's requirements (install-dependencies found no requirements*.txt or uv.lock, or is none), so pyright resolves third-party imports from the runner's own python only"
			}
			lines = append(lines, l)
		default:
			lines = append(lines, "**"+lang+"**: syntax")
		case "Java":
			l := "**Java**: types (javac), syntax where it cannot settle a site"
			if ns := notes("java: types not checked", "java: type checking stopped", "not type-checked: javac"); len(ns) > 0 {
				l = "**Java**: syntax; lacked: " + strings.Join(ns, "; ")
			} else if cfg.Precision == config.PrecisionSyntax {
				l = "**Java**: syntax (precision: syntax)"
			} else if ns := notes("java: javac checked the sites without"); len(ns) > 0 {
				l += "; lacked: " + strings.Join(ns, "; ")
			}
			lines = append(lines, l)
		case "TypeScript/JavaScript":
			l := "**TypeScript/JavaScript**: types (tsc, TypeScript 7), syntax where it cannot settle a site"
			if ns := notes("typescript: types not checked", "not type-checked"); len(ns) > 0 {
				l = "**TypeScript/JavaScript**: syntax; lacked: " + strings.Join(ns, "; ")
			} else if cfg.Precision == config.PrecisionSyntax {
				l = "**TypeScript/JavaScript**: syntax (precision: syntax)"
			}
			lines = append(lines, l)
		}
	}
	return lines
}

// manifests are files that declare dependencies, not code: a pull
// request changing only these (Dependabot's, Renovate's) has nothing to
// judge but the bumps they make, which Ripple reads for the ecosystems
// whose front-end is a lang.Bumper (internal/bump) and not for the
// others (unreadManifests).
var manifests = map[string]bool{
	"go.mod": true, "go.sum": true, "go.work": true, "go.work.sum": true,
	"package.json": true, "package-lock.json": true, "npm-shrinkwrap.json": true, "pnpm-lock.yaml": true, "yarn.lock": true,
	"pyproject.toml": true, "uv.lock": true, "poetry.lock": true, "Pipfile": true, "Pipfile.lock": true,
}

// onlyManifests says which manifests a range changes when it changes
// nothing else; "" otherwise.
func onlyManifests(files []string) string {
	if len(files) == 0 {
		return ""
	}
	var names []string
	have := map[string]bool{}
	for _, f := range files {
		b := path.Base(f)
		if !manifests[b] && !(strings.HasPrefix(b, "requirements") && strings.HasSuffix(b, ".txt")) {
			return ""
		}
		if !have[b] {
			have[b] = true
			names = append(names, b)
		}
	}
	return strings.Join(names, ", ")
}

// manifestFamily groups a manifest with the files that go with it (a
// go.sum with its go.mod, a lock file with its package.json): the
// family of the manifest a bump was read from is covered.
func manifestFamily(name string) string {
	switch {
	case strings.HasPrefix(name, "go."):
		return "go.mod"
	case name == "package.json" || name == "package-lock.json" || name == "npm-shrinkwrap.json" || name == "pnpm-lock.yaml" || name == "yarn.lock":
		return "package.json"
	case name == "Pipfile" || name == "Pipfile.lock":
		return "Pipfile" // Pipenv's: not read (docs/bumps.md)
	}
	return "pyproject.toml" // with requirements*.txt, uv.lock, poetry.lock
}

// unreadManifests names the changed manifests of a family from which no
// bump was read (Ripple does not read that ecosystem's bumps, or the
// change bumps no version): "" when every family was read.
func unreadManifests(files []string, bumps []*model.Bump) string {
	read := map[string]bool{}
	for _, b := range bumps {
		read[manifestFamily(path.Base(b.Manifest))] = true
	}
	var names []string
	have := map[string]bool{}
	for _, f := range files {
		b := path.Base(f)
		if !read[manifestFamily(b)] && !have[b] {
			have[b] = true
			names = append(names, b)
		}
	}
	return strings.Join(names, ", ")
}
