package java

import (
	"bytes"
	"context"
	"path"
	"strings"

	"github.com/ripple-dev/ripple/internal/corpus"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
)

// index holds the head state's Java files: the list of all of them, by
// file name, and the corpus that searches (git grep, the word search
// every front-end shares) and parses them. Files are parsed on demand:
// the search's candidates, then each file that resolving a type name
// reaches.
type index struct {
	ctx    context.Context
	byBase map[string][]string // "Calc.java" -> paths
	// resolving holds the types whose inherited member types are being
	// read for a nested type's supertype (resolveNoInherit), against cycles
	resolving map[*jtype]bool
	*corpus.Corpus[*jfile]
}

func newIndex(ctx context.Context, t gitio.Tree, ignored func(string) bool, diag func(model.Diagnostic), cache *corpus.Memo[*jfile]) (*index, error) {
	ix := &index{ctx: ctx, byBase: map[string][]string{}, resolving: map[*jtype]bool{}}
	ix.Corpus = corpus.New(corpus.Config[*jfile]{
		Tree: t, Pathspecs: []string{"*.java"}, Diag: diag,
		Usable: func(p string) bool { return ignored == nil || !ignored(p) },
		Parse: func(p string, src []byte) (*jfile, bool, *model.Diagnostic) {
			if len(src) > maxFileSize || bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
				return nil, false, nil
			}
			f, d := cache.Get(p, src)
			return f, true, d
		},
	})
	all, err := ix.All(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range all {
		ix.byBase[path.Base(p)] = append(ix.byBase[path.Base(p)], p)
	}
	return ix, nil
}

// maxFileSize bounds what is parsed (generated parsers, vendored blobs).
const maxFileSize = 4 << 20

// file returns the parsed file at p, parsing it if needed; nil if it is
// not a readable Java file of the head state.
func (ix *index) file(p string) *jfile {
	if f, ok := ix.Get(p); ok {
		return f
	}
	fs, _ := ix.Parse(ix.ctx, []string{p})
	if len(fs) == 0 {
		return nil
	}
	return fs[0]
}

// sourceRoot is the folder a file's package path starts in, derived from
// its package declaration and its path (module/src/main/java for
// module/src/main/java/com/x/A.java in package com.x); the file's folder
// when the two disagree (a plain folder that does not mirror packages).
func sourceRoot(f *jfile) string {
	dir := path.Dir(f.path)
	if f.pkg == "" {
		return dir
	}
	pdir := strings.ReplaceAll(f.pkg, ".", "/")
	switch {
	case dir == pdir:
		return "."
	case strings.HasSuffix(dir, "/"+pdir):
		return strings.TrimSuffix(dir, "/"+pdir)
	}
	return dir
}

// module is the build module a source root belongs to: the folder above
// src/main/java, src/test/java or another Gradle source set
// (src/NAME/java), else the root itself.
func module(root string) string {
	if i := strings.LastIndex(root, "/src/"); i >= 0 && strings.HasSuffix(root, "/java") {
		return root[:i]
	}
	if strings.HasPrefix(root, "src/") && strings.HasSuffix(root, "/java") {
		return "."
	}
	return root
}

// typeByFQN returns the repository's type of a fully qualified name
// (com.x.Outer.Inner), nil when no file declares it. A top-level type is
// looked for in the files named after it, as javac finds public ones; of
// several (one per module), the one in from's module is preferred.
func (ix *index) typeByFQN(fqn string, from *jfile) *jtype {
	var found *jtype
	for i := 0; i <= len(fqn); i++ {
		if i < len(fqn) && fqn[i] != '.' {
			continue
		}
		pkg, qual := "", fqn
		if i < len(fqn) {
			pkg, qual = fqn[:i], fqn[i+1:]
		} else {
			continue
		}
		top, _, _ := strings.Cut(qual, ".")
		for _, p := range ix.byBase[top+".java"] {
			f := ix.file(p)
			if f == nil || f.pkg != pkg {
				continue
			}
			if t := f.typeByQual(qual); t != nil {
				if found == nil || from != nil && module(sourceRoot(f)) == module(sourceRoot(from)) {
					found = t
				}
			}
		}
		if found != nil {
			return found
		}
	}
	// the default package
	top, _, _ := strings.Cut(fqn, ".")
	for _, p := range ix.byBase[top+".java"] {
		if f := ix.file(p); f != nil && f.pkg == "" && (from == nil || path.Dir(p) == path.Dir(from.path)) {
			if t := f.typeByQual(fqn); t != nil {
				return t
			}
		}
	}
	return nil
}

// typeByQual returns the file's type of a qualified-within-file name.
func (f *jfile) typeByQual(qual string) *jtype {
	for _, t := range f.types {
		if t.qual == qual {
			return t
		}
	}
	return nil
}

// generated reports a file marked as generated in its first lines.
func generated(src []byte) bool {
	head := src[:min(len(src), 2000)]
	return bytes.Contains(head, []byte("@Generated")) || bytes.Contains(head, []byte("DO NOT EDIT")) && bytes.Contains(head, []byte("enerated"))
}
