package action

import (
	"testing"

	"github.com/ripple-dev/ripple/internal/model"
)

// TestUnreadManifests: a manifest family is covered by a bump read from
// any of its files' manifest; the others are named, once each.
func TestUnreadManifests(t *testing.T) {
	goBump := []*model.Bump{{Module: "github.com/x/y", From: "v1.0.0", To: "v1.1.0", Manifest: "svc/go.mod", Line: 5}}
	pyBump := []*model.Bump{{Module: "jinja2", From: "3.0.3", To: "3.1.0", Manifest: "uv.lock", Line: 12}}
	for _, tc := range []struct {
		files []string
		bumps []*model.Bump
		want  string
	}{
		{[]string{"go.mod", "go.sum"}, goBump, ""},
		{[]string{"go.mod", "go.sum"}, nil, "go.mod, go.sum"},
		{[]string{"go.mod", "go.sum", "web/package.json", "web/package-lock.json"}, goBump, "package.json, package-lock.json"},
		{[]string{"a/requirements.txt", "b/requirements.txt"}, goBump, "requirements.txt"},
		// Python: a bump read from requirements.txt, pyproject.toml or a
		// lock covers them all; Pipenv's files are not read
		{[]string{"requirements.txt", "uv.lock"}, pyBump, ""},
		{[]string{"uv.lock", "Pipfile.lock"}, pyBump, "Pipfile.lock"},
		{[]string{"Pipfile", "Pipfile.lock"}, nil, "Pipfile, Pipfile.lock"},
	} {
		if got := unreadManifests(tc.files, tc.bumps); got != tc.want {
			t.Errorf("unreadManifests(%v, %d bumps) = %q, want %q", tc.files, len(tc.bumps), got, tc.want)
		}
	}
}
