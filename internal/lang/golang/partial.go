package golang

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"time"

	"github.com/ripple-dev/ripple/internal/model"
)

// Files the search found are parsed in part: a top-level function whose
// declaration (signature and body) names none of the words a question
// is about cannot hold a reference, and its body is not parsed (most of
// a file, usually: terraform's 112 files naming providers.Interface have
// 2012 functions, 196 of which name it). The functions left out are
// remembered (pfile.stripped), and a file is completed in place when
// something needs every body (index.parse: the type check of a changed
// interface, the syntactic scans of a package) or a later question
// names a word one of them holds: each left-out body is taken from a
// whole parse of the file and moved to the file's own positions, so that
// every node already handed out (references, syntax of derived changes)
// stays valid.

// parseHits parses the files at paths that are not parsed yet, leaving
// out the bodies of functions that name none of words (nil: none left
// out), and completes those parsed earlier that left out a body naming
// one of words.
func (ix *index) parseHits(ctx context.Context, paths []string, words map[string]bool) []*pfile {
	t0 := time.Now()
	var fs []*pfile
	if words == nil {
		fs, _ = ix.Parse(ctx, paths)
	} else {
		keep := map[string]bool{}
		for w := range words {
			if w != "" {
				keep[w] = true
			}
		}
		fs, _ = ix.ParseWith(ctx, paths, func(p string, src []byte) (*pfile, bool, *model.Diagnostic) {
			f := ix.parseFile(ctx, p, src, keep)
			return f, f != nil, nil
		})
	}
	for _, f := range fs {
		if len(f.stripped) == 0 {
			continue
		}
		if words == nil || ix.strippedNames(f, words) {
			ix.complete(f)
			continue
		}
		kept := make(map[string]bool, len(f.keptFor)+len(words))
		for w := range f.keptFor {
			kept[w] = true
		}
		for w := range words {
			kept[w] = true
		}
		f.keptFor = kept
	}
	trace("parse %d files in %v", len(paths), time.Since(t0))
	return fs
}

// parseDecls returns the files at paths with their top-level
// declarations whole, for readers of declarations alone (the symbol
// index, the implementations of an interface): files parsed in part are
// not completed, the others are parsed without their function bodies
// (completed in turn when something needs them).
func (ix *index) parseDecls(ctx context.Context, paths []string) []*pfile {
	t0 := time.Now()
	none := map[string]bool{}
	fs, _ := ix.ParseWith(ctx, paths, func(p string, src []byte) (*pfile, bool, *model.Diagnostic) {
		f := ix.parseFile(ctx, p, src, none)
		return f, f != nil, nil
	})
	trace("parse %d files (declarations) in %v", len(paths), time.Since(t0))
	return fs
}

// strippedNames reports whether a function f was parsed without names
// one of words not among those it was parsed for.
func (ix *index) strippedNames(f *pfile, words map[string]bool) bool {
	tf := ix.fset.File(f.ast.Pos())
	if tf == nil {
		return true
	}
	var fresh []string
	for w := range words {
		if w != "" && !f.keptFor[w] {
			fresh = append(fresh, w)
		}
	}
	if len(fresh) == 0 {
		return false
	}
	for _, fd := range f.stripped {
		if mentions(f.src, tf, fd, fresh) {
			return true
		}
	}
	return false
}

// complete gives f's functions parsed without their bodies their bodies,
// from a whole parse of f moved to f's positions, and resolves f's
// identifiers again.
func (ix *index) complete(f *pfile) {
	ix.completeMu.Lock()
	defer ix.completeMu.Unlock()
	if len(f.stripped) == 0 {
		return
	}
	whole, err := parser.ParseFile(ix.fset, f.path, f.src, parser.AllErrors|parser.SkipObjectResolution)
	if err != nil && !f.parseErr {
		f.parseErr = true
		if ix.diag != nil {
			ix.diag(*parseDiag(f.path, err))
		}
	}
	tf, wf := ix.fset.File(f.ast.Pos()), (*token.File)(nil)
	if whole != nil {
		wf = ix.fset.File(whole.Pos())
	}
	if tf == nil || wf == nil {
		return
	}
	at := map[int]*ast.FuncDecl{}
	for _, d := range whole.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			at[wf.Offset(fd.Pos())] = fd
		}
	}
	delta := tf.Base() - wf.Base()
	for _, fd := range f.stripped {
		if w := at[tf.Offset(fd.Pos())]; w != nil {
			shiftPos(w.Body, delta)
			fd.Body = w.Body
		}
	}
	f.stripped, f.keptFor = nil, nil
	f.scopes.of = resolveFile(f.ast).of
}

// shiftPos adds delta to every position in the syntax tree n: a subtree
// of one parse of a file moved into another parse of the same source.
func shiftPos(n ast.Node, delta int) {
	posType := reflect.TypeFor[token.Pos]()
	skip := map[reflect.Type]bool{reflect.TypeFor[*ast.Object](): true, reflect.TypeFor[*ast.Scope](): true}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		if skip[v.Type()] {
			return // the parser's object resolution, not done (SkipObjectResolution)
		}
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		default:
			if v.Type() == posType && v.Int() != 0 && v.CanSet() {
				v.SetInt(v.Int() + int64(delta))
			}
		}
	}
	walk(reflect.ValueOf(n))
}

// mentionsAny reports whether b holds one of words as a whole word.
func mentionsAny(b []byte, words map[string]bool) bool {
	for w := range words {
		if containsWord(b, w) {
			return true
		}
	}
	return false
}
