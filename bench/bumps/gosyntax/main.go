// Command gosyntax is the Go parser of the bumps benchmark (bench/bumps):
// the Python scripts there read Go declarations through it, with the
// standard library's go/parser, never with regular expressions.
//
//	gosyntax            read files from stdin, one JSON line out per file
//	gosyntax -pkgname DIR...   the package name of each directory's Go files
//
// Input records on stdin: a line with the file's name, a line with its
// length in bytes, then that many bytes. For each record one JSON line is
// written (and flushed) on stdout:
//
//	{"name": ..., "ok": true|false, "error": "...", "package": "p", "generated": false,
//	 "imports": [{"path": "a/b", "name": "b", "explicit": false, "start": 3, "end": 3}],
//	 "funcs": [{"name": "T.M", "start": 10, "end": 20}],
//	 "quals": {"b": [12, 15]}}
//
// funcs are the top-level functions and methods (from the func keyword to
// the closing brace; a method is named RECV.NAME without the pointer).
// quals lists, per identifier, the lines of selector expressions X.Sel
// whose X is an identifier the file does not declare (package qualifiers,
// and names declared in other files of the package). ok is false when the
// file has syntax errors; what could be parsed is still reported.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

type importRec struct {
	Path     string `json:"path"`
	Name     string `json:"name"`
	Explicit bool   `json:"explicit"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
}

type funcRec struct {
	Name  string `json:"name"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

type fileRec struct {
	Name    string `json:"name"`
	OK      bool   `json:"ok"`
	Error   string `json:"error,omitempty"`
	Package string `json:"package"`
	// Generated: the file has Go's "Code generated ... DO NOT EDIT." marker (ast.IsGenerated).
	Generated bool             `json:"generated"`
	Imports   []importRec      `json:"imports"`
	Funcs     []funcRec        `json:"funcs"`
	Quals     map[string][]int `json:"quals"`
}

func recvName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return "?"
		}
	}
}

func analyze(name string, src []byte) fileRec {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	rec := fileRec{Name: name, OK: err == nil, Imports: []importRec{}, Funcs: []funcRec{}, Quals: map[string][]int{}}
	if err != nil {
		rec.Error = err.Error()
	}
	if f == nil {
		return rec
	}
	line := func(p token.Pos) int { return fset.Position(p).Line }
	if f.Name != nil {
		rec.Package = f.Name.Name
	}
	rec.Generated = ast.IsGenerated(f)
	for _, is := range f.Imports {
		p, perr := strconv.Unquote(is.Path.Value)
		if perr != nil {
			continue
		}
		ir := importRec{Path: p, Start: line(is.Pos()), End: line(is.End())}
		if is.Name != nil {
			ir.Name, ir.Explicit = is.Name.Name, true
		}
		rec.Imports = append(rec.Imports, ir)
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		n := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) > 0 {
			n = recvName(fd.Recv.List[0].Type) + "." + n
		}
		rec.Funcs = append(rec.Funcs, funcRec{Name: n, Start: line(fd.Pos()), End: line(fd.End())})
	}
	seen := map[string]map[int]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		se, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := se.X.(*ast.Ident)
		if !ok || id.Obj != nil {
			return true
		}
		l := line(id.Pos())
		if seen[id.Name] == nil {
			seen[id.Name] = map[int]bool{}
		}
		seen[id.Name][l] = true
		return true
	})
	for k, v := range seen {
		ls := make([]int, 0, len(v))
		for l := range v {
			ls = append(ls, l)
		}
		sort.Ints(ls)
		rec.Quals[k] = ls
	}
	return rec
}

// pkgName is the most common package clause among the directory's non-test
// Go files ("" when it has none).
func pkgName(dir string) string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	count := map[string]int{}
	best := ""
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, n), nil, parser.PackageClauseOnly)
		if err != nil || f.Name == nil || f.Name.Name == "documentation" {
			continue
		}
		count[f.Name.Name]++
		if c := count[f.Name.Name]; best == "" || c > count[best] || (c == count[best] && f.Name.Name < best) {
			best = f.Name.Name
		}
	}
	return best
}

func main() {
	pkg := flag.Bool("pkgname", false, "print the package name of each directory argument")
	flag.Parse()
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	if *pkg {
		for _, d := range flag.Args() {
			fmt.Fprintf(out, "%s\t%s\n", d, pkgName(d))
		}
		return
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		name, err := in.ReadString('\n')
		if err != nil {
			return
		}
		ns, err := in.ReadString('\n')
		if err != nil {
			fmt.Fprintln(os.Stderr, "gosyntax: truncated record")
			os.Exit(2)
		}
		size, err := strconv.Atoi(strings.TrimSpace(ns))
		if err != nil || size < 0 {
			fmt.Fprintln(os.Stderr, "gosyntax: bad length", ns)
			os.Exit(2)
		}
		buf := make([]byte, size)
		if _, err := io.ReadFull(in, buf); err != nil {
			fmt.Fprintln(os.Stderr, "gosyntax: truncated record")
			os.Exit(2)
		}
		if err := enc.Encode(analyze(strings.TrimRight(name, "\n"), buf)); err != nil {
			os.Exit(2)
		}
		out.Flush()
	}
}
