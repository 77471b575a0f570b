package harness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Action is a composite action's metadata, as far as the runner reads it.
type Action struct {
	Dir     string // github.action_path
	Inputs  map[string]struct{ Default string }
	Outputs map[string]struct{ Value string }
	Steps   []Step
}

// Step is one step of runs.steps.
type Step struct {
	ID               string            `yaml:"id"`
	Name             string            `yaml:"name"`
	If               string            `yaml:"if"`
	Shell            string            `yaml:"shell"`
	Run              string            `yaml:"run"`
	Uses             string            `yaml:"uses"`
	With             map[string]string `yaml:"with"`
	Env              map[string]string `yaml:"env"`
	WorkingDirectory string            `yaml:"working-directory"`
	ContinueOnError  string            `yaml:"continue-on-error"`
}

// Load reads dir/action.yml.
func Load(dir string) (*Action, error) {
	data, err := os.ReadFile(filepath.Join(dir, "action.yml"))
	if err != nil {
		return nil, err
	}
	var meta struct {
		Inputs  map[string]struct{ Default string }
		Outputs map[string]struct{ Value string }
		Runs    struct {
			Using string
			Steps []Step
		}
	}
	if err := yaml.Unmarshal(data, &meta); err != nil {
		return nil, fmt.Errorf("action.yml: %v", err)
	}
	if meta.Runs.Using != "composite" {
		return nil, fmt.Errorf("action.yml: runs.using is %q; the harness runs composite actions", meta.Runs.Using)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	return &Action{Dir: abs, Inputs: meta.Inputs, Outputs: meta.Outputs, Steps: meta.Runs.Steps}, nil
}

// Job is the workflow job around the step that uses the action.
type Job struct {
	// Workspace is GITHUB_WORKSPACE, where actions/checkout left the
	// repository; relative working directories are taken from it.
	Workspace string
	// Temp is RUNNER_TEMP; the runner's file-command files and the event
	// payload are kept beside it, in Temp's parent.
	Temp string
	// CacheDir holds actions/cache's entries, one folder per key.
	CacheDir string
	// With are the inputs the workflow passes.
	With map[string]string
	// Env is the runner's environment (PATH, HOME, ...), "K=V" each.
	Env []string
	// StepEnv is the env: of the workflow step that uses the action.
	StepEnv map[string]string
	// EventName and Event are github.event_name and the payload.
	EventName string
	Event     map[string]any
	// GitHub holds the other github.* values (token, repository, sha,
	// ref, server_url, api_url, run_id, ...); workspace, action_path,
	// event_name and event are filled in.
	GitHub map[string]any
	// Uses replaces the uses: steps; the defaults (Uses) handle
	// actions/setup-go and actions/cache.
	Uses map[string]UsesFunc
}

// UsesFunc runs a uses: step: with are its evaluated inputs; it returns
// the step's outputs, and may register work for the end of the job
// (a post step) through post.
type UsesFunc func(r *Run, with map[string]string, post func(func() error)) (map[string]string, error)

// StepResult is what one step did.
type StepResult struct {
	ID      string
	Label   string // the id, else the uses or the first line of run
	Ran     bool
	Outcome string // success, failure, skipped
	Exit    int
	Outputs map[string]string
	Log     string
	Took    time.Duration
}

// Annotation is an ::error, ::warning or ::notice command of the log.
type Annotation struct {
	Level      string
	Properties map[string]string
	Message    string
}

// Run is one run of the action and what it left.
type Run struct {
	Job    *Job
	Action *Action
	Steps  []*StepResult
	// Outputs are the action's outputs (outputs.*.value evaluated).
	Outputs map[string]string
	// Log is every step's output, as the job log shows it.
	Log string
	// Annotations are the log's annotations, in order; Masks the values
	// ::add-mask:: hid.
	Annotations []Annotation
	Masks       []string
	// Summary is the job summary (every step's GITHUB_STEP_SUMMARY).
	Summary string
	// Failed is whether a step failed (the action's step fails).
	Failed bool
	// ExitCode is the exit status of the first failing step.
	ExitCode int

	env     map[string]string // GITHUB_ENV's variables so far
	path    []string          // GITHUB_PATH's entries so far, newest first
	steps   map[string]any
	posts   []func() error
	fileDir string
	n       int
}

// Execute runs every step of a, then the post steps, as the runner runs
// a composite action.
func Execute(a *Action, job *Job) (*Run, error) {
	r := &Run{Job: job, Action: a, Outputs: map[string]string{}, env: map[string]string{}, steps: map[string]any{}}
	r.fileDir = filepath.Join(filepath.Dir(job.Temp), "_runner_file_commands")
	for _, d := range []string{job.Temp, r.fileDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	eventPath := filepath.Join(filepath.Dir(job.Temp), "event.json")
	ev, _ := json.Marshal(job.Event)
	if err := os.WriteFile(eventPath, ev, 0o644); err != nil {
		return nil, err
	}
	for k, v := range job.StepEnv {
		r.env[k] = v
	}
	for _, kv := range []string{
		"GITHUB_ACTIONS=true", "CI=true",
		"GITHUB_WORKSPACE=" + job.Workspace, "GITHUB_EVENT_PATH=" + eventPath,
		"GITHUB_EVENT_NAME=" + job.EventName, "GITHUB_ACTION_PATH=" + a.Dir,
		"RUNNER_TEMP=" + job.Temp, "RUNNER_OS=" + runnerOS(), "RUNNER_ARCH=" + runnerArch(),
	} {
		k, v, _ := strings.Cut(kv, "=")
		r.env[k] = v
	}
	for k, gk := range map[string]string{"GITHUB_REPOSITORY": "repository", "GITHUB_SHA": "sha", "GITHUB_REF": "ref", "GITHUB_SERVER_URL": "server_url", "GITHUB_API_URL": "api_url", "GITHUB_RUN_ID": "run_id", "GITHUB_ACTOR": "actor", "GITHUB_BASE_REF": "base_ref", "GITHUB_HEAD_REF": "head_ref"} {
		if v, ok := job.GitHub[gk]; ok {
			r.env[k] = str(v)
		}
	}

	// inputs: the workflow's with:, else the default (an expression)
	inputs := map[string]any{}
	for name, in := range a.Inputs {
		if v, ok := job.With[name]; ok {
			inputs[name] = v
			continue
		}
		v, err := r.evaluator().interpolate(in.Default)
		if err != nil {
			return nil, fmt.Errorf("input %s: default: %v", name, err)
		}
		inputs[name] = v
	}
	for name := range job.With {
		if _, ok := a.Inputs[name]; !ok {
			return nil, fmt.Errorf("input %s is not declared by action.yml (the runner would warn and ignore it)", name)
		}
	}
	r.steps["__inputs"] = inputs
	for i := range a.Steps {
		if err := r.step(&a.Steps[i]); err != nil {
			return r, err
		}
	}
	// post steps, newest first, as the runner runs them
	for i := len(r.posts) - 1; i >= 0; i-- {
		if err := r.posts[i](); err != nil {
			return r, fmt.Errorf("post step: %v", err)
		}
	}
	for name, o := range a.Outputs {
		v, err := r.evaluator().interpolate(o.Value)
		if err != nil {
			return r, fmt.Errorf("output %s: %v", name, err)
		}
		r.Outputs[name] = v
	}
	r.parseLog()
	return r, nil
}

func runnerOS() string {
	switch runtime.GOOS {
	case "darwin":
		return "macOS"
	case "windows":
		return "Windows"
	}
	return "Linux"
}

func runnerArch() string {
	if runtime.GOARCH == "arm64" {
		return "ARM64"
	}
	return "X64"
}

// contexts are the expression contexts at this point of the run.
func (r *Run) contexts() Contexts {
	gh := map[string]any{}
	for k, v := range r.Job.GitHub {
		gh[k] = v
	}
	gh["workspace"] = r.Job.Workspace
	gh["action_path"] = r.Action.Dir
	gh["event_name"] = r.Job.EventName
	gh["event"] = r.Job.Event
	env := map[string]any{}
	for k, v := range r.env {
		env[k] = v
	}
	steps := map[string]any{}
	for k, v := range r.steps {
		if k != "__inputs" {
			steps[k] = v
		}
	}
	return Contexts{
		"inputs": r.steps["__inputs"],
		"github": gh,
		"env":    env,
		"runner": map[string]any{"os": runnerOS(), "arch": runnerArch(), "temp": r.Job.Temp, "tool_cache": filepath.Join(filepath.Dir(r.Job.Temp), "tool_cache")},
		"steps":  steps,
	}
}

func (r *Run) evaluator() *evaluator {
	return &evaluator{ctx: r.contexts(), workspace: r.Job.Workspace, failed: r.Failed}
}

// step runs one step of the job when its if: holds, and records its
// result and outputs for the expressions of later steps. A failing step
// fails the job unless it continues on error; an error of the workflow
// itself is returned.
func (r *Run) step(s *Step) error {
	res := &StepResult{ID: s.ID, Outputs: map[string]string{}, Outcome: "skipped"}
	res.Label = s.ID
	if res.Label == "" {
		res.Label = s.Uses
		if res.Label == "" {
			res.Label = strings.SplitN(strings.TrimSpace(s.Run), "\n", 2)[0]
		}
	}
	r.Steps = append(r.Steps, res)
	start := time.Now()
	defer func() {
		res.Took = time.Since(start)
		if s.ID != "" {
			outs := map[string]any{}
			for k, v := range res.Outputs {
				outs[k] = v
			}
			r.steps[s.ID] = map[string]any{"outputs": outs, "outcome": res.Outcome, "conclusion": res.Outcome}
		}
	}()
	e := r.evaluator()
	ok, err := e.condition(s.If)
	if err != nil {
		return fmt.Errorf("step %s: if: %v", res.Label, err)
	}
	if !ok {
		return nil
	}
	res.Ran = true
	env := map[string]string{}
	for k, v := range s.Env {
		x, err := e.interpolate(v)
		if err != nil {
			return fmt.Errorf("step %s: env %s: %v", res.Label, k, err)
		}
		env[k] = x
	}
	var stepErr error
	if s.Uses != "" {
		stepErr, err = r.usesStep(s, res, e)
	} else {
		stepErr, err = r.runStep(s, res, e, env)
	}
	if err != nil {
		return err
	}
	r.Log += res.Log
	if stepErr != nil {
		var ee *exec.ExitError
		if !errors.As(stepErr, &ee) {
			return fmt.Errorf("step %s: %v", res.Label, stepErr)
		}
		res.Outcome, res.Exit = "failure", ee.ExitCode()
		if s.ContinueOnError != "true" {
			if !r.Failed {
				r.ExitCode = res.Exit
			}
			r.Failed = true
		}
		return nil
	}
	res.Outcome = "success"
	return nil
}

// usesStep runs a uses: step through its local equivalent (the job's,
// else the harness's Uses), with its with: inputs interpolated, and
// records its outputs. stepErr is the step's own failure; err is one of
// the workflow (an input that does not interpolate, no equivalent).
func (r *Run) usesStep(s *Step, res *StepResult, e *evaluator) (stepErr, err error) {
	with := map[string]string{}
	for k, v := range s.With {
		x, err := e.interpolate(v)
		if err != nil {
			return nil, fmt.Errorf("step %s: with %s: %v", res.Label, k, err)
		}
		with[k] = x
	}
	name, _, _ := strings.Cut(s.Uses, "@")
	f := r.Job.Uses[name]
	if f == nil {
		f = Uses[name]
	}
	if f == nil {
		return nil, fmt.Errorf("step %s: no local equivalent of %s", res.Label, s.Uses)
	}
	outs, err := f(r, with, func(p func() error) { r.posts = append(r.posts, p) })
	for k, v := range outs {
		res.Outputs[k] = v
	}
	if err != nil {
		res.Log = err.Error() + "\n"
	}
	return err, nil
}

// runStep runs a run: step's script with bash, in its working directory
// (relative to the workspace) and environment. stepErr is the script's
// own failure; err is one of the workflow (another shell, a field that
// does not interpolate).
func (r *Run) runStep(s *Step, res *StepResult, e *evaluator, env map[string]string) (stepErr, err error) {
	if s.Shell != "bash" {
		return nil, fmt.Errorf("step %s: shell %q: the harness runs bash steps", res.Label, s.Shell)
	}
	script, err := e.interpolate(s.Run)
	if err != nil {
		return nil, fmt.Errorf("step %s: run: %v", res.Label, err)
	}
	wd := r.Job.Workspace
	if s.WorkingDirectory != "" {
		d, err := e.interpolate(s.WorkingDirectory)
		if err != nil {
			return nil, fmt.Errorf("step %s: working-directory: %v", res.Label, err)
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(r.Job.Workspace, d)
		}
		wd = d
	}
	return r.bash(res, script, wd, env), nil
}

// bash runs a run: step as `shell: bash` does.
func (r *Run) bash(res *StepResult, script, dir string, stepEnv map[string]string) error {
	r.n++
	files := map[string]string{}
	for _, k := range []string{"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY"} {
		p := filepath.Join(r.fileDir, fmt.Sprintf("%s_%d", strings.ToLower(strings.TrimPrefix(k, "GITHUB_")), r.n))
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			return err
		}
		files[k] = p
	}
	sh := filepath.Join(r.fileDir, fmt.Sprintf("step_%d.sh", r.n))
	if err := os.WriteFile(sh, []byte(script), 0o644); err != nil {
		return err
	}
	env := map[string]string{}
	for _, kv := range r.Job.Env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	for k, v := range r.env {
		env[k] = v
	}
	for k, v := range stepEnv {
		env[k] = v
	}
	for k, v := range files {
		env[k] = v
	}
	if len(r.path) > 0 {
		env["PATH"] = strings.Join(r.path, string(os.PathListSeparator)) + string(os.PathListSeparator) + env["PATH"]
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", sh)
	cmd.Dir = dir
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		cmd.Env = append(cmd.Env, k+"="+env[k])
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	runErr := cmd.Run()
	res.Log = out.String()

	outs, err := readKV(files["GITHUB_OUTPUT"])
	if err != nil {
		return fmt.Errorf("GITHUB_OUTPUT: %v", err)
	}
	res.Outputs = outs
	envs, err := readKV(files["GITHUB_ENV"])
	if err != nil {
		return fmt.Errorf("GITHUB_ENV: %v", err)
	}
	for k, v := range envs {
		r.env[k] = v
	}
	if data, err := os.ReadFile(files["GITHUB_PATH"]); err == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				r.path = append([]string{l}, r.path...)
			}
		}
	}
	if data, err := os.ReadFile(files["GITHUB_STEP_SUMMARY"]); err == nil {
		r.Summary += string(data)
	}
	return runErr
}

// readKV reads a file command's name=value and name<<DELIM lines.
func readKV(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	kv := map[string]string{}
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSuffix(lines[i], "\r")
		if l == "" {
			continue
		}
		if name, delim, ok := strings.Cut(l, "<<"); ok && !strings.Contains(name, "=") {
			var val []string
			for i++; ; i++ {
				if i >= len(lines) {
					return nil, fmt.Errorf("%s: no closing %s", name, delim)
				}
				if strings.TrimSuffix(lines[i], "\r") == delim {
					break
				}
				val = append(val, lines[i])
			}
			kv[name] = strings.Join(val, "\n")
			continue
		}
		name, v, ok := strings.Cut(l, "=")
		if !ok {
			return nil, fmt.Errorf("line %q is neither name=value nor name<<delimiter", l)
		}
		kv[name] = v
	}
	return kv, nil
}

// commandRE is a workflow command: ::name properties::message, the
// properties ending at the first "::" (a single colon is theirs).
var commandRE = regexp.MustCompile(`^::([a-z-]+)(?: ((?:[^:]|:[^:])*))?::(.*)$`)

// parseLog reads the workflow commands of the log as the runner does.
func (r *Run) parseLog() {
	stop := ""
	sc := bufio.NewScanner(strings.NewReader(r.Log))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		l := sc.Text()
		if stop != "" {
			if l == "::"+stop+"::" {
				stop = ""
			}
			continue
		}
		m := commandRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		switch m[1] {
		case "stop-commands":
			stop = m[3]
		case "add-mask":
			r.Masks = append(r.Masks, m[3])
		case "error", "warning", "notice":
			a := Annotation{Level: m[1], Properties: map[string]string{}, Message: unescape(m[3], false)}
			for _, p := range strings.Split(m[2], ",") {
				if k, v, ok := strings.Cut(p, "="); ok {
					a.Properties[strings.TrimSpace(k)] = unescape(v, true)
				}
			}
			r.Annotations = append(r.Annotations, a)
		}
	}
}

func unescape(s string, property bool) string {
	pairs := []string{"%0D", "\r", "%0A", "\n"}
	if property {
		pairs = append(pairs, "%3A", ":", "%2C", ",")
	}
	pairs = append(pairs, "%25", "%")
	return strings.NewReplacer(pairs...).Replace(s)
}

// Step returns the result of the step with id, or nil.
func (r *Run) Step(id string) *StepResult {
	for _, s := range r.Steps {
		if s.ID == id {
			return s
		}
	}
	return nil
}
