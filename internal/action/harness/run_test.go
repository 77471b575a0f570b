package harness_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/action/harness"
)

// TestRunnerSemantics runs a small composite action through the harness:
// outputs (one line and multi-line) feed later steps' if: and run:,
// GITHUB_ENV and GITHUB_PATH reach the steps after, a failing step skips
// the rest but always() and failure() steps, stopped commands are text,
// and actions/cache saves after the job and restores in the next.
func TestRunnerSemantics(t *testing.T) {
	needGit(t)
	dir := t.TempDir()
	action := `name: t
description: t
inputs:
  who:
    default: ${{ github.actor }}
  fail:
    default: 'false'
outputs:
  greeting:
    value: ${{ steps.hello.outputs.greeting }}
  lines:
    value: ${{ steps.hello.outputs.lines }}
runs:
  using: composite
  steps:
    - id: hello
      shell: bash
      run: |
        echo "greeting=hello ${{ inputs.who }}" >> "$GITHUB_OUTPUT"
        { echo "lines<<EOF"; echo one; echo two; echo EOF; } >> "$GITHUB_OUTPUT"
        echo "FROM_ENV=set" >> "$GITHUB_ENV"
        mkdir -p "$RUNNER_TEMP/bin" && printf '#!/bin/sh\necho tool ran\n' > "$RUNNER_TEMP/bin/mytool" && chmod +x "$RUNNER_TEMP/bin/mytool"
        echo "$RUNNER_TEMP/bin" >> "$GITHUB_PATH"
        mkdir -p "$RUNNER_TEMP/data" && echo cached > "$RUNNER_TEMP/data/f"
    - uses: actions/cache@v4
      with:
        path: ${{ runner.temp }}/data
        key: k-${{ runner.os }}
    - id: after
      if: steps.hello.outputs.greeting == 'HELLO ALICE'
      shell: bash
      run: |
        echo "env=$FROM_ENV $(mytool)"
        echo "::stop-commands::tok"
        echo "::error::not an annotation"
        echo "::tok::"
        echo "::warning file=a.go,line=3,title=t%3A x::real%0Aone"
        [ "${{ inputs.fail }}" != true ]
    - id: skipped
      shell: bash
      run: echo never
    - id: always
      if: always()
      shell: bash
      run: echo "always ran; failed=${{ failure() }}"
`
	if err := os.WriteFile(filepath.Join(dir, "action.yml"), []byte(action), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := harness.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	job := func(root string, with map[string]string) *harness.Job {
		return &harness.Job{Workspace: root, Temp: filepath.Join(root, "runner", "temp"), CacheDir: cache, With: with,
			Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root}, EventName: "push", Event: map[string]any{},
			GitHub: map[string]any{"actor": "alice"}}
	}
	r, err := harness.Execute(a, job(t.TempDir(), map[string]string{"fail": "true"}))
	if err != nil {
		t.Fatal(err)
	}
	if r.Outputs["greeting"] != "hello alice" || r.Outputs["lines"] != "one\ntwo" {
		t.Errorf("outputs %q", r.Outputs)
	}
	if s := r.Step("after"); s.Outcome != "failure" || !strings.Contains(s.Log, "env=set tool ran") {
		t.Errorf("step after: %s, log:\n%s", s.Outcome, s.Log)
	}
	if !r.Failed || r.Step("skipped").Ran || !strings.Contains(r.Step("always").Log, "always ran; failed=true") {
		t.Errorf("after the failure: failed=%v skipped ran=%v always log=%q", r.Failed, r.Step("skipped").Ran, r.Step("always").Log)
	}
	if len(r.Annotations) != 1 || r.Annotations[0].Properties["title"] != "t: x" || r.Annotations[0].Message != "real\none" {
		t.Errorf("annotations %+v", r.Annotations)
	}
	if !strings.Contains(r.Log, "Cache saved with key: k-Linux") {
		t.Errorf("no cache save:\n%s", r.Log)
	}
	// the next job restores it
	root := t.TempDir()
	r, err = harness.Execute(a, job(root, nil))
	if err != nil {
		t.Fatal(err)
	}
	if hit := r.Steps[1].Outputs["cache-hit"]; hit != "true" || r.Failed {
		t.Errorf("second job: cache-hit=%s failed=%v\n%s", hit, r.Failed, r.Log)
	}
	if _, err := harness.Execute(a, job(t.TempDir(), map[string]string{"nope": "x"})); err == nil {
		t.Error("an undeclared input was accepted")
	}
}
