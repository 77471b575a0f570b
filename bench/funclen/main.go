// Command funclen lists the functions over 100 lines and the types with
// more than 25 methods in the Go files under the folders given (test
// files and testdata left out): issue 28 item 5's bar, to hold a split
// of the front-ends to it.
//
//	go run ./bench/funclen internal cmd
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// fn is a long function: where it is and its length in lines.
type fn struct {
	name string
	n    int
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: funclen DIR...")
		os.Exit(2)
	}
	fset := token.NewFileSet()
	methods := map[string]int{}
	var long []fn
	for _, root := range os.Args[1:] {
		if err := walk(fset, root, methods, &long); err != nil {
			fmt.Fprintln(os.Stderr, "funclen:", err)
			os.Exit(1)
		}
	}
	sort.Slice(long, func(i, j int) bool { return long[i].n > long[j].n })
	for _, l := range long {
		fmt.Println(l.n, l.name)
	}
	fmt.Println("--- types with > 25 methods")
	var keys []string
	for k, v := range methods {
		if v > 25 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Println(methods[k], k)
	}
}

// walk counts the methods of each type (by package folder) and collects
// the functions over 100 lines of the Go files under root.
func walk(fset *token.FileSet, root string, methods map[string]int, long *[]fn) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			name := fd.Name.Name
			if recv := receiverType(fd); recv != "" {
				methods[filepath.Dir(p)+"."+recv]++
				name = recv + "." + name
			}
			if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > 100 {
				*long = append(*long, fn{p + ":" + name, n})
			}
		}
		return nil
	})
}

// receiverType is the name of a method's receiver type, "" for a
// function.
func receiverType(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
