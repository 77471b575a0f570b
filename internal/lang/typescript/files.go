package typescript

import (
	"bytes"
	"path"
	"strings"
)

// exts are the extensions the front-end reads, longest first where one
// ends another (".d.ts" before ".ts").
var exts = []string{".d.ts", ".d.mts", ".d.cts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}

// pathspecs select the files of the front-end for git.
var pathspecs = []string{"*.ts", "*.tsx", "*.mts", "*.cts", "*.js", "*.jsx", "*.mjs", "*.cjs"}

// extOf returns the extension of a file the front-end reads, "" for
// others.
func extOf(p string) string {
	for _, e := range exts {
		if strings.HasSuffix(p, e) && len(p) > len(e) {
			return e
		}
	}
	return ""
}

// jsx reports a file that the TSX grammar reads.
func jsx(p string) bool {
	return strings.HasSuffix(p, ".tsx") || strings.HasSuffix(p, ".jsx")
}

// declOnly reports a declaration file (.d.ts): its declarations are
// read, but it holds no calls to judge.
func declOnly(p string) bool {
	e := extOf(p)
	return strings.HasPrefix(e, ".d.")
}

// isJS reports a JavaScript file (no type annotations, CommonJS likely).
func isJS(p string) bool {
	switch path.Ext(p) {
	case ".js", ".jsx", ".mjs", ".cjs":
		return true
	}
	return false
}

// moduleOf is a file's module key: its path without the extension, so
// that a.ts and a.d.ts stay apart ("a" and "a.d").
func moduleOf(p string) string {
	e := extOf(p)
	if strings.HasPrefix(e, ".d.") {
		return strings.TrimSuffix(p, e) + ".d"
	}
	return strings.TrimSuffix(p, e)
}

// skippedDirs are directories whose files are dependencies or build
// output, never sources a developer edits.
var skippedDirs = map[string]bool{
	"node_modules": true, "dist": true, "coverage": true,
	"bower_components": true, "jspm_packages": true, ".next": true, ".nuxt": true,
	".output": true, ".svelte-kit": true, ".turbo": true, ".cache": true, ".yarn": true,
	"vendor": true, "generated": true, "__generated__": true,
}

// skippedPath reports a path that is never analysed: dependencies, build
// output, minified bundles. (JavaScript under build/ and out/ is taken as
// output too.)
func skippedPath(p string) bool {
	if extOf(p) == "" {
		return true
	}
	for _, seg := range strings.Split(path.Dir(p), "/") {
		if skippedDirs[seg] {
			return true
		}
	}
	// build/ and out/ hold compiled JavaScript, but build scripts
	// written in TypeScript are sources
	if e := extOf(p); e == ".js" || e == ".mjs" || e == ".cjs" || e == ".jsx" {
		for _, seg := range strings.Split(path.Dir(p), "/") {
			if seg == "build" || seg == "out" {
				return true
			}
		}
	}
	base := path.Base(p)
	return strings.Contains(base, ".min.") || strings.HasSuffix(base, "-min.js") || strings.Contains(base, ".bundle.") || strings.Contains(base, ".chunk.")
}

// maxFileSize bounds what is parsed (bundles, generated tables).
const maxFileSize = 2 << 20

// skippedContent reports content that is not a source a developer
// edits: binary, minified (very long average lines) or marked as
// generated. why says which.
func skippedContent(src []byte) (why string) {
	head := src[:min(len(src), 8000)]
	if bytes.IndexByte(head, 0) >= 0 {
		return "binary content"
	}
	if len(src) > maxFileSize {
		return "file too large"
	}
	if lines := bytes.Count(src, []byte{'\n'}) + 1; len(src) > 2000 && len(src)/lines > 300 {
		return "minified (average line over 300 characters)"
	}
	return ""
}

// generated reports a file marked as generated in its first lines.
func generated(src []byte) bool {
	head := bytes.ToLower(src[:min(len(src), 600)])
	return bytes.Contains(head, []byte("@generated")) || bytes.Contains(head, []byte("do not edit")) && bytes.Contains(head, []byte("generated"))
}
