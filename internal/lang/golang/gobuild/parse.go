package gobuild

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/ripple-dev/ripple/internal/oracle"
)

// posRE matches "path/file.go:12:5: message" (column optional), as
// printed by the go command for compiler and vet diagnostics.
var posRE = regexp.MustCompile(`^(?:vet: )?(\S+?\.go):(\d+)(?::(\d+))?: (.*)$`)

// Parse turns the text output of `go build` or `go vet` into diagnostics.
// "# pkg" headers name the package of the lines that follow; lines
// starting with a tab continue the previous message; go command errors
// without a position ("no required module provides package ...") become
// diagnostics without a path. Paths are made relative to dir.
func Parse(out, tool, dir string) []oracle.Diagnostic {
	var ds []oracle.Diagnostic
	pkg := ""
	for _, line := range strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n") {
		switch {
		case strings.TrimSpace(line) == "":
			continue
		case strings.HasPrefix(line, "# "):
			pkg = strings.Trim(strings.TrimPrefix(line, "# "), "[]")
			continue
		case strings.HasPrefix(line, "\t") && len(ds) > 0:
			ds[len(ds)-1].Message += "; " + strings.TrimSpace(line)
			continue
		}
		if m := posRE.FindStringSubmatch(line); m != nil {
			d := oracle.Diagnostic{Path: oracle.RelPath(m[1], dir), Message: m[4], Tool: tool, Package: pkg}
			d.Line, _ = strconv.Atoi(m[2])
			d.Col, _ = strconv.Atoi(m[3])
			ds = append(ds, d)
			continue
		}
		if skipLine(line) {
			continue
		}
		ds = append(ds, oracle.Diagnostic{Message: strings.TrimSpace(line), Tool: tool, Package: pkg})
	}
	return ds
}

// skipLine drops progress and summary lines that carry no diagnostic.
func skipLine(line string) bool {
	for _, p := range []string{"go: downloading ", "go: finding ", "go: extracting ", "ok  \t", "?   \t", "PASS", "FAIL\t", "FAIL", "exit status "} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return strings.HasPrefix(line, "note: module requires Go")
}

var (
	testFailRE = regexp.MustCompile(`^\s*--- FAIL: (\S+)`)
	testPosRE  = regexp.MustCompile(`^\s+(\S+?_test\.go|\S+?\.go):(\d+): (.*)$`)
)

// ParseTest turns `go test` output into diagnostics: build failures as
// Parse does, and each failing test with its first reported location.
func ParseTest(out, dir string) []oracle.Diagnostic {
	var ds []oracle.Diagnostic
	var cur *oracle.Diagnostic
	for _, line := range strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n") {
		if m := testFailRE.FindStringSubmatch(line); m != nil {
			ds = append(ds, oracle.Diagnostic{Message: "test " + m[1] + " failed", Tool: "test"})
			cur = &ds[len(ds)-1]
			continue
		}
		if m := testPosRE.FindStringSubmatch(line); m != nil && cur != nil && cur.Path == "" {
			cur.Line, _ = strconv.Atoi(m[2])
			cur.Path = m[1]
			cur.Message += ": " + m[3]
			continue
		}
		if m := posRE.FindStringSubmatch(line); m != nil && !strings.HasPrefix(line, " ") {
			d := oracle.Diagnostic{Path: oracle.RelPath(m[1], dir), Message: m[4], Tool: "test"}
			d.Line, _ = strconv.Atoi(m[2])
			d.Col, _ = strconv.Atoi(m[3])
			ds = append(ds, d)
		}
	}
	return ds
}
