package golang

import (
	"slices"
	"testing"
)

func TestHeadStoreRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := newHeadStore(dir)
	plain := parseHead("a/a.go", []byte("// Package a.\npackage a\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc F() {}\n"))
	tagged := parseHead("a/b.go", []byte("//go:build linux\n\npackage a\n\nimport \"C\"\n"))
	if plain == nil || tagged == nil {
		t.Fatal("parseHead failed")
	}
	s.put("id1", plain)
	s.put("id2", tagged)
	s.save()

	r := newHeadStore(dir)
	got, ok := r.get("id1")
	if !ok || got.PkgName != "a" || !slices.Equal(got.Imports, []string{"fmt", "os"}) || got.Hdr != nil {
		t.Errorf("plain head = %+v, %v; want package a, imports fmt and os, no header kept", got, ok)
	}
	got, ok = r.get("id2")
	if !ok || string(got.Hdr) != string(tagged.hdr) || !slices.Equal(got.Imports, []string{"C"}) {
		t.Errorf("tagged head = %+v, %v; want its header kept (build constraint, import \"C\")", got, ok)
	}
	if _, ok := r.get("id3"); ok {
		t.Error("an unknown blob id has a head")
	}
	// a store that added nothing does not rewrite the file
	r.save()
	if r.added != 0 {
		t.Errorf("added = %d after a save", r.added)
	}
}

func TestHeadMatchFromStore(t *testing.T) {
	// the header kept for a plain file matches every configuration, as
	// the file does; a constrained one keeps its constraint
	bc := buildCtx{goos: "darwin", goarch: "arm64"}
	plain := &fileHead{path: "a/a.go", dir: "a", hdr: []byte("package a\n")}
	tagged := parseHead("a/b.go", []byte("//go:build linux\n\npackage a\n"))
	if !matchHead(bc, plain) {
		t.Error("a plain file does not match darwin/arm64")
	}
	if matchHead(bc, tagged) {
		t.Error("a linux-only file matches darwin/arm64")
	}
}
