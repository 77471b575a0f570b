package corpus

import (
	"context"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// Unsearched folders are left out of git grep itself, in a commit's tree
// and in the checked-out work tree, at the top and nested; they are
// still listed.
func TestUnsearched(t *testing.T) {
	testrepo.Hermetic(t)
	dir := t.TempDir()
	testrepo.Init(t, dir)
	testrepo.WriteFiles(t, dir, map[string]string{
		"a.go":                 "package a // Target",
		"vendor/x/x.go":        "package x // Target",
		"sub/vendor/y/y.go":    "package y // Target",
		"vendorish/v.go":       "package v // Target",
		"sub/notvendor/z/z.go": "package z // Target",
	})
	head := testrepo.CommitAll(t, dir, "init")
	repo, err := gitio.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tree := range []gitio.Tree{&gitio.RevTree{R: repo, SHA: head}, &gitio.WorkTree{R: repo}} {
		c := New(Config[string]{
			Tree: tree, Pathspecs: []string{"*.go"}, Unsearched: []string{"vendor"},
			Parse: func(p string, src []byte) (string, bool, *model.Diagnostic) { return p, true, nil },
		})
		got, err := c.Search(context.Background(), []string{"Target"})
		if err != nil {
			t.Fatal(err)
		}
		if want := "a.go,sub/notvendor/z/z.go,vendorish/v.go"; strings.Join(got, ",") != want {
			t.Errorf("%T: Search = %v, want %s", tree, got, want)
		}
		all, _ := c.All(context.Background())
		if len(all) != 5 {
			t.Errorf("%T: All = %v, want the five files", tree, all)
		}
	}
}
