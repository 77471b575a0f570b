package handoff

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/model"
)

func result() *model.Result {
	c := &model.Change{Label: model.MMS, New: &model.Block{Display: "func Sum", Path: "p/p.go", NameLine: 3}}
	return &model.Result{Base: strings.Repeat("b", 40), Head: strings.Repeat("a", 40), Changes: []*model.Change{c},
		Findings: []*model.Finding{{Change: c, Relation: model.CalledBy, Verdict: model.Inconsistent, Level: model.LevelError,
			Message: "m", Site: model.Site{Path: "q/q.go", Line: 6, Text: "x"}}}}
}

func TestRoundTrip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "h.json")
	if err := Write(p, "octo/demo", 9, result()); err != nil {
		t.Fatal(err)
	}
	f, rep, dropped, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if f.PullRequest != 9 || f.Repository != "octo/demo" || f.HeadSHA != strings.Repeat("a", 40) || dropped != 0 || len(rep.Findings) != 1 || rep.Findings[0].Path != "q/q.go" {
		t.Fatalf("read %+v, %d findings, dropped %d", f, len(rep.Findings), dropped)
	}
}

func TestReadRefuses(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	if err := Write(good, "octo/demo", 9, result()); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	edit := func(name string, change func(map[string]any)) string {
		var g map[string]any
		_ = json.Unmarshal(data, &g)
		change(g)
		out, _ := json.Marshal(g)
		p := filepath.Join(dir, name)
		_ = os.WriteFile(p, out, 0o644)
		return p
	}
	for name, c := range map[string]struct {
		change func(map[string]any)
		want   string
	}{
		"version":  {func(g map[string]any) { g["version"] = 2 }, "has version 2, want 1"},
		"pr":       {func(g map[string]any) { g["pull_request"] = 0 }, "names no pull request"},
		"head":     {func(g map[string]any) { g["head_sha"] = "HEAD" }, "names no head commit"},
		"mismatch": {func(g map[string]any) { g["head_sha"] = strings.Repeat("c", 40) }, "its report is of aaaaaaaaaaaa, not of the head cccccccccccc"},
		"report":   {func(g map[string]any) { g["report"] = map[string]any{"version": 9} }, "version 9, want 1"},
	} {
		if _, _, _, err := Read(edit(name+".json", c.change)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", name, err, c.want)
		}
	}
	// a finding whose path escapes the repository is dropped, not posted
	p := edit("path.json", func(g map[string]any) {
		g["report"].(map[string]any)["findings"].([]any)[0].(map[string]any)["path"] = "../../etc/passwd"
	})
	_, rep, dropped, err := Read(p)
	if err != nil || dropped != 1 || len(rep.Findings) != 0 {
		t.Errorf("escaping path: dropped %d, kept %d, err %v", dropped, len(rep.Findings), err)
	}
	if _, _, _, err := Read(filepath.Join(dir, "missing.json")); err == nil || !strings.HasPrefix(err.Error(), "review-from: ") {
		t.Errorf("missing file: %v", err)
	}
}
