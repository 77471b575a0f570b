// Package harness runs action.yml as a GitHub runner runs a composite
// action, so that tests see what users get: every `run:` step executed by
// bash (`bash --noprofile --norc -eo pipefail`, as `shell: bash` does)
// with the runner's file commands (GITHUB_OUTPUT, GITHUB_ENV,
// GITHUB_PATH, GITHUB_STEP_SUMMARY), RUNNER_TEMP and the event payload
// at GITHUB_EVENT_PATH; every `${{ }}` expression and `if:` condition
// evaluated (inputs, steps.*.outputs, github.*, env, runner.*, the
// status functions, hashFiles and the other built-in functions); and
// each `uses:` step replaced by a local equivalent (actions/setup-go:
// the Go on PATH; actions/cache: a folder, restored before and saved
// after the job, as the real one does in its post step).
//
// Expressions are parsed by actionlint's expression parser (the module
// the repository already lints its workflows with) and evaluated here
// with GitHub's semantics: loose equality with numeric coercion,
// case-insensitive string comparison, && and || returning an operand.
// action.yml is read with go.yaml.in/yaml/v3, the YAML library of the
// metadata tests: no second YAML parser.
//
// The harness fakes nothing the action does itself: the REST API is
// whatever GITHUB_API_URL names (the tests point it at fakegh), git
// pushes go wherever the checkout's origin is (a local bare remote), the
// model wherever llm-base-url says. Result gathers what a reviewer sees:
// the log with its workflow commands parsed into annotations (commands
// stopped by ::stop-commands:: are text), the job summary, each step's
// outcome and outputs, and the action's outputs.
package harness
