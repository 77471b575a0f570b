package python

import (
	"slices"
	"testing"
)

func TestDeclaredDeps(t *testing.T) {
	for _, tc := range []struct {
		name string
		read func([]byte) []string
		src  string
		want []string
	}{
		{"pep 621", pyprojectDeps, `
[project]
name = "acme"
dependencies = [
    "requests>=2", # HTTP
    'PyYAML',
    "zope.interface ; python_version < '3.12'",
]
[project.optional-dependencies]
test = ["pytest>=8", "typing-extensions"]
[tool.ruff]
select = ["E"]
`, []string{"requests", "pyyaml", "zope_interface", "pytest", "typing_extensions"}},
		{"poetry", pyprojectDeps, `
[tool.poetry.dependencies]
python = "^3.10"
httpx = "^0.27"
[tool.poetry.group.dev.dependencies]
black = "*"
[tool.poetry.scripts]
acme = "acme.cli:main"
`, []string{"httpx", "black"}},
		{"setup.cfg", setupCfgDeps, `
[metadata]
name = acme
[options]
packages = find:
install_requires =
    click>=8
    attrs
[options.extras_require]
dev = pytest
docs =
    sphinx
[flake8]
max-line-length = 100
`, []string{"click", "attrs", "pytest", "sphinx"}},
		{"requirements", requirementLines, `
# pinned
-r base.txt
-e .
Django==5.0
git+https://github.com/x/y.git#egg=y
uvicorn[standard]>=0.30
`, []string{"django", "uvicorn"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.read([]byte(tc.src))
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
