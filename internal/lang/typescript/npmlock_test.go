package typescript

import "testing"

// TestLockVersions reads a dependency's exact version from the lock
// formats the bump reader knows.
func TestLockVersions(t *testing.T) {
	pnpm9 := `lockfileVersion: '9.0'

importers:

  .:
    dependencies:
      radix3:
        specifier: ^0.2.0
        version: 0.2.0
      react-dom:
        specifier: ^18.2.0
        version: 18.2.0(react@18.2.0)

  packages/web:
    devDependencies:
      '@scope/x':
        specifier: ~1.0.0
        version: 1.0.3

packages:

  radix3@0.2.0:
    resolution: {integrity: sha512-x}
`
	pnpm5 := `lockfileVersion: 5.4

specifiers:
  radix3: ^0.1.2

dependencies:
  radix3: 0.1.2
`
	yarn1 := `# yarn lockfile v1

"@scope/x@^1.0.0", "@scope/x@^1.0.1":
  version "1.0.4"
  resolved "https://registry.yarnpkg.com/@scope/x/-/x-1.0.4.tgz"

radix3@^0.2.0:
  version "0.2.1"
`
	berry := `__metadata:
  version: 6

"radix3@npm:^0.2.0":
  version: 0.2.2
  resolution: "radix3@npm:0.2.2"
`
	for _, c := range []struct {
		kind, src, rel, name, rng, want string
	}{
		{"pnpm-lock.yaml", pnpm9, "", "radix3", "", "0.2.0"},
		{"pnpm-lock.yaml", pnpm9, "", "react-dom", "", "18.2.0"},
		{"pnpm-lock.yaml", pnpm9, "packages/web", "@scope/x", "", "1.0.3"},
		{"pnpm-lock.yaml", pnpm9, "packages/web", "radix3", "", ""},
		{"pnpm-lock.yaml", pnpm5, "", "radix3", "", "0.1.2"},
		{"yarn.lock", yarn1, "", "@scope/x", "^1.0.1", "1.0.4"},
		{"yarn.lock", yarn1, "", "radix3", "^0.2.0", "0.2.1"},
		{"yarn.lock", yarn1, "", "radix3", "^0.3.0", ""},
		{"yarn.lock", berry, "", "radix3", "^0.2.0", "0.2.2"},
		{"package-lock.json", `{"packages": {"packages/a/node_modules/x": {"version": "2.0.0"}, "node_modules/x": {"version": "1.0.0"}}}`, "packages/a", "x", "", "2.0.0"},
		{"package-lock.json", `{"packages": {"node_modules/x": {"version": "1.0.0"}}}`, "packages/b", "x", "", "1.0.0"},
		{"package-lock.json", `{"lockfileVersion": 1, "dependencies": {"x": {"version": "0.9.0"}}}`, "", "x", "", "0.9.0"},
	} {
		lf := &lockFile{kind: c.kind, src: []byte(c.src)}
		if got := lf.version(c.rel, c.name, c.rng); got != c.want {
			t.Errorf("%s: %s in %q (%s): got %q, want %q", c.kind, c.name, c.rel, c.rng, got, c.want)
		}
	}
}

// TestHighest picks the registry's highest version of a range, whatever
// order npm view lists them in.
func TestHighest(t *testing.T) {
	for _, c := range []struct {
		vs   []string
		want string
	}{
		{[]string{"0.2.1", "0.2.0"}, "0.2.1"},
		{[]string{"1.9.0", "1.10.0", "1.2.0"}, "1.10.0"},
		{[]string{"2.0.0-rc.1", "2.0.0", "2.0.0-rc.2"}, "2.0.0"},
		{[]string{"2.0.0-rc.10", "2.0.0-rc.9"}, "2.0.0-rc.10"},
	} {
		if got := highest(c.vs); got != c.want {
			t.Errorf("highest(%v) = %s, want %s", c.vs, got, c.want)
		}
	}
}
