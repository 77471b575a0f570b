package prepush

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Each case sets the scene with real commits and pushes, returns the
// arguments of the `git push` whose hook input Plan reads, and the
// expected plan.
func TestPlan(t *testing.T) {
	tests := []struct {
		name string
		run  func(f *fixture) (push []string, want []Range, skip []Skip)
	}{
		{"fast-forward", func(f *fixture) ([]string, []Range, []Skip) {
			c1 := f.commit("c1")
			f.push("origin", "main")
			c2 := f.commit("c2")
			return []string{"origin", "main"}, []Range{{"refs/heads/main", c1, c2, "update of refs/heads/main"}}, nil
		}},
		{"new branch with two new commits", func(f *fixture) ([]string, []Range, []Skip) {
			c1 := f.commit("c1")
			f.push("origin", "main")
			f.lgit("checkout", "-q", "-b", "feature")
			f.commit("c2")
			c3 := f.commit("c3")
			return []string{"origin", "feature"},
				[]Range{{"refs/heads/feature", c1, c3, "new branch refs/heads/feature: 2 commits not on origin"}}, nil
		}},
		{"new branch with no new commits", func(f *fixture) ([]string, []Range, []Skip) {
			f.commit("c1")
			f.push("origin", "main")
			f.lgit("branch", "feature")
			return []string{"origin", "feature"}, nil,
				[]Skip{{"refs/heads/feature", "new branch refs/heads/feature with no new commits: all are on origin"}}
		}},
		{"deleted branch", func(f *fixture) ([]string, []Range, []Skip) {
			f.commit("c1")
			f.push("origin", "main", "main:refs/heads/gone")
			return []string{"origin", "--delete", "gone"}, nil, []Skip{{"refs/heads/gone", "deleting refs/heads/gone"}}
		}},
		{"force push from the merge-base", func(f *fixture) ([]string, []Range, []Skip) {
			c1 := f.commit("c1")
			f.commit("c2")
			f.push("origin", "main")
			f.lgit("reset", "-q", "--hard", c1)
			c3 := f.commit("c3")
			return []string{"-f", "origin", "main"},
				[]Range{{"refs/heads/main", c1, c3, "force push to refs/heads/main: from merge-base " + short(c1)}}, nil
		}},
		{"force push that only removes commits", func(f *fixture) ([]string, []Range, []Skip) {
			c1 := f.commit("c1")
			f.commit("c2")
			f.push("origin", "main")
			f.lgit("reset", "-q", "--hard", c1)
			return []string{"-f", "origin", "main"}, nil,
				[]Skip{{"refs/heads/main", "force push to refs/heads/main only removes commits: nothing new to check"}}
		}},
		{"force push of an unrelated history", func(f *fixture) ([]string, []Range, []Skip) {
			c1 := f.commit("c1")
			f.push("origin", "main")
			f.lgit("checkout", "-q", "--orphan", "other")
			f.commit("o1")
			return []string{"-f", "origin", "other:main"}, nil,
				[]Skip{{"refs/heads/main", "force push to refs/heads/main: no common history with the remote's " + short(c1) + ": nothing to compare against"}}
		}},
		{"lightweight tag with no new commits", func(f *fixture) ([]string, []Range, []Skip) {
			f.commit("c1")
			f.push("origin", "main")
			f.lgit("tag", "v1")
			return []string{"origin", "v1"}, nil,
				[]Skip{{"refs/tags/v1", "new tag refs/tags/v1 with no new commits: all are on origin"}}
		}},
		{"annotated tag with no new commits", func(f *fixture) ([]string, []Range, []Skip) {
			f.commit("c1")
			f.push("origin", "main")
			f.lgit("tag", "-a", "-m", "release", "v1")
			return []string{"origin", "v1"}, nil,
				[]Skip{{"refs/tags/v1", "new tag refs/tags/v1 with no new commits: all are on origin"}}
		}},
		{"annotated tag with a new commit", func(f *fixture) ([]string, []Range, []Skip) {
			c1 := f.commit("c1")
			f.push("origin", "main")
			c2 := f.commit("c2")
			f.lgit("tag", "-a", "-m", "release", "v2")
			return []string{"origin", "v2"},
				[]Range{{"refs/tags/v2", c1, c2, "new tag refs/tags/v2: 1 commit not on origin"}}, nil
		}},
		{"tag of a tree", func(f *fixture) ([]string, []Range, []Skip) {
			f.commit("c1")
			f.push("origin", "main")
			f.lgit("tag", "tree", "HEAD^{tree}")
			return []string{"origin", "tree"}, nil,
				[]Skip{{"refs/tags/tree", "refs/tags/tree points to a tree, not a commit: nothing to check"}}
		}},
		{"remote sha not present locally", func(f *fixture) ([]string, []Range, []Skip) {
			c1 := f.commit("c1")
			f.push("origin", "main")
			other := filepath.Join(f.root, "other")
			f.git(f.root, "clone", "-q", f.remote, other)
			o2 := f.commitIn(other, "o2")
			f.git(other, "push", "-q", "origin", "main")
			c3 := f.commit("c3")
			return []string{"-f", "origin", "main"}, []Range{{"refs/heads/main", c1, c3,
				"update of refs/heads/main (the remote's " + short(o2) + " was never fetched): 1 commit not on origin"}}, nil
		}},
		{"first push to an empty remote", func(f *fixture) ([]string, []Range, []Skip) {
			c1 := f.commit("c1")
			f.commit("c2")
			c3 := f.commit("c3")
			return []string{"origin", "main"}, []Range{{"refs/heads/main", c1, c3,
				"first push of refs/heads/main to a remote with no commits: the last 2 commits checked (from " + short(c1) + ")"}}, nil
		}},
		{"first push of one commit to an empty remote", func(f *fixture) ([]string, []Range, []Skip) {
			f.commit("c1")
			return []string{"origin", "main"}, nil,
				[]Skip{{"refs/heads/main", "first push of a single commit to a remote with no commits: nothing to compare against"}}
		}},
		{"several refs in one push", func(f *fixture) ([]string, []Range, []Skip) {
			c1 := f.commit("c1")
			f.push("origin", "main")
			f.lgit("tag", "v1")
			f.lgit("checkout", "-q", "-b", "feature")
			c2 := f.commit("c2")
			f.lgit("checkout", "-q", "main")
			c3 := f.commit("c3")
			return []string{"origin", "main", "feature", "v1"}, []Range{
					{"refs/heads/main", c1, c3, "update of refs/heads/main"},
					{"refs/heads/feature", c1, c2, "new branch refs/heads/feature: 1 commit not on origin"},
				},
				[]Skip{{"refs/tags/v1", "new tag refs/tags/v1 with no new commits: all are on origin"}}
		}},
		{"same range for a branch and a tag is merged", func(f *fixture) ([]string, []Range, []Skip) {
			c1 := f.commit("c1")
			f.push("origin", "main")
			f.lgit("checkout", "-q", "-b", "feature")
			c2 := f.commit("c2")
			f.lgit("tag", "v2")
			return []string{"origin", "feature", "v2"},
				[]Range{{"refs/heads/feature, refs/tags/v2", c1, c2, "new branch refs/heads/feature: 1 commit not on origin"}}, nil
		}},
		{"push to a URL that is not a configured remote", func(f *fixture) ([]string, []Range, []Skip) {
			c1 := f.commit("c1")
			f.push("origin", "main")
			f.lgit("checkout", "-q", "-b", "feature")
			f.commit("c2")
			c3 := f.commit("c3")
			return []string{"file://" + filepath.ToSlash(f.remote), "feature"},
				[]Range{{"refs/heads/feature", c1, c3, "new branch refs/heads/feature: 2 commits not on any remote-tracking branch"}}, nil
		}},
		{"push to the URL of a configured remote", func(f *fixture) ([]string, []Range, []Skip) {
			c1 := f.commit("c1")
			f.push("origin", "main")
			f.lgit("checkout", "-q", "-b", "feature")
			c2 := f.commit("c2")
			return []string{f.remote, "feature"},
				[]Range{{"refs/heads/feature", c1, c2, "new branch refs/heads/feature: 1 commit not on origin"}}, nil
		}},
		{"never fetched: other local branches stand for the remote", func(f *fixture) ([]string, []Range, []Skip) {
			c1 := f.commit("c1")
			f.git(f.root, "--git-dir="+f.remote, "fetch", "-q", f.local, "main:main")
			f.lgit("checkout", "-q", "-b", "feature")
			f.commit("c2")
			c3 := f.commit("c3")
			f.lgit("checkout", "-q", "-b", "stacked")
			f.commit("c4")
			return []string{"origin", "feature"}, []Range{{"refs/heads/feature", c1, c3,
				"new branch refs/heads/feature: 2 commits not on other local branches (no remote-tracking branches)"}}, nil
		}},
		{"several boundaries: merge-base with the default branch", func(f *fixture) ([]string, []Range, []Skip) {
			c0 := f.commit("c0")
			c1 := f.commit("c1")
			f.push("origin", "main")
			f.lgit("checkout", "-q", "-b", "other", c0)
			f.commit("o1") // newer than c1: the default branch wins over the date
			f.push("origin", "other")
			f.lgit("checkout", "-q", "-b", "feature", "main")
			f.tick++
			f.lgit("merge", "-q", "--no-edit", "other")
			c4 := f.commit("c4")
			return []string{"origin", "feature"},
				[]Range{{"refs/heads/feature", c1, c4, "new branch refs/heads/feature: 2 commits not on origin"}}, nil
		}},
		{"several boundaries, no default branch: the newest", func(f *fixture) ([]string, []Range, []Skip) {
			f.lgit("checkout", "-q", "-b", "trunk")
			f.commit("c0")
			f.push("origin", "trunk")
			f.lgit("checkout", "-q", "-b", "left")
			f.commit("l1")
			f.push("origin", "left")
			f.lgit("checkout", "-q", "trunk")
			f.lgit("checkout", "-q", "-b", "right")
			r1 := f.commit("r1") // newer than l1
			f.push("origin", "right")
			f.lgit("checkout", "-q", "-b", "feature")
			f.tick++
			f.lgit("merge", "-q", "--no-edit", "left")
			m := f.lgit("rev-parse", "HEAD")
			return []string{"origin", "feature"},
				[]Range{{"refs/heads/feature", r1, m, "new branch refs/heads/feature: 1 commit not on origin"}}, nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			args, want, wantSkip := tt.run(f)
			remote, ups := f.capture(args...)
			got, gotSkip, err := f.plan(remote, ups)
			if err != nil {
				t.Fatalf("Plan: %v", err)
			}
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotSkip, wantSkip) {
				t.Errorf("git push %s\ninput:\n%s\ngot ranges:\n%s\nwant:\n%s\ngot skips:\n%s\nwant:\n%s",
					strings.Join(args, " "), dump(ups), dump(got), dump(want), dump(gotSkip), dump(wantSkip))
			}
		})
	}
}

// TestPlanUpdates covers inputs git does not produce from a push command
// line but the CLI may pass.
func TestPlanUpdates(t *testing.T) {
	f := newFixture(t)
	c1 := f.commit("c1")
	f.push("origin", "main")
	c2 := f.commit("c2")
	missing := strings.Repeat("ab", 20)
	zero := strings.Repeat("0", 40)

	got, skip, err := f.plan("origin", []Update{
		{"refs/heads/main", c1, "refs/heads/main", c1},
		{"refs/heads/main", c2, "refs/heads/main", c1},
		{"refs/heads/main", c2, "refs/heads/copy", c1},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantRanges := []Range{{"refs/heads/main, refs/heads/copy", c1, c2, "update of refs/heads/main"}}
	wantSkip := []Skip{{"refs/heads/main", "update of refs/heads/main changes no commits"}}
	if !reflect.DeepEqual(got, wantRanges) || !reflect.DeepEqual(skip, wantSkip) {
		t.Errorf("got %s %s, want %s %s", dump(got), dump(skip), dump(wantRanges), dump(wantSkip))
	}

	_, _, err = f.plan("origin", []Update{{"refs/heads/main", missing, "refs/heads/main", zero}})
	if err == nil || !strings.Contains(err.Error(), "refs/heads/main") || !strings.Contains(err.Error(), "not in this repository") {
		t.Errorf("missing local object: got error %v", err)
	}

	got, skip, err = f.plan("", nil)
	if err != nil || got != nil || skip != nil {
		t.Errorf("no updates: got %v %v %v", got, skip, err)
	}
}

func dump[T any](xs []T) string {
	var b strings.Builder
	for _, x := range xs {
		fmt.Fprintf(&b, "  %+v\n", x)
	}
	if b.Len() == 0 {
		return "  (none)\n"
	}
	return b.String()
}
