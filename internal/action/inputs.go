package action

import (
	"fmt"
	"strconv"
	"strings"

	githubactions "github.com/sethvargo/go-githubactions"

	"github.com/ripple-dev/ripple/internal/action/fixmode"
	"github.com/ripple-dev/ripple/internal/action/review"
)

// ConfigInputs are the inputs that are config keys, named as their
// command-line flags (internal/config: '_' written '-'). format and
// on_tool_error have no input: the action always writes every format it
// needs, and a failure of Ripple always fails the step (exit 2, as `hook
// check` does; use continue-on-error to let a job go on).
var ConfigInputs = []string{"config", "ignore", "generated", "severity", "fail-on", "budget", "precision", "max-files", "verbose", "param-defaults", "merge-check"}

// repeatable inputs take one value per line (ignore, generated and
// severity also split on commas, as their flags do).
var repeatable = map[string]bool{"ignore": true, "generated": true, "severity": true, "param-defaults": true}

// inputs are the action's inputs (action.yml).
type inputs struct {
	token            string
	base, head       string
	workingDirectory string
	sarifFile        string
	annotations      bool
	review           bool
	maxComments      int
	deepen           bool
	reviewFrom       string
	configArgs       []string

	// fix mode
	mode        string // modeCheck or modeFix
	fixPush     string // pushBranch, pushPullRequest or pushNone
	fixAuthor   fixmode.Author
	fixTests    bool
	llmBaseURL  string
	llmModel    string
	tokenBudget int
}

// Modes and fix-push choices.
const (
	modeCheck = "check"
	modeFix   = "fix"

	pushBranch      = "branch"
	pushPullRequest = "pull-request"
	pushNone        = "none"
)

// DefaultTokenBudget caps the model's tokens (prompt and completion) of
// one run, as `hook fix` does.
const DefaultTokenBudget = 200000

// input reads an input: the composite action passes input "fail-on" as
// INPUT_FAIL_ON; a Docker or JavaScript runner would set INPUT_FAIL-ON.
func input(gha *githubactions.Action, name string) string {
	if v := gha.GetInput(strings.ReplaceAll(name, "-", "_")); v != "" {
		return v
	}
	return gha.GetInput(name)
}

func readInputs(gha *githubactions.Action) (*inputs, error) {
	in := &inputs{
		token:            input(gha, "token"),
		base:             input(gha, "base"),
		head:             input(gha, "head"),
		workingDirectory: input(gha, "working-directory"),
		sarifFile:        input(gha, "sarif-file"),
		reviewFrom:       input(gha, "review-from"),
		maxComments:      review.DefaultMaxComments,
	}
	var err error
	if in.annotations, err = boolInput(gha, "annotations", true); err != nil {
		return nil, err
	}
	if in.review, err = boolInput(gha, "review", true); err != nil {
		return nil, err
	}
	// download-modules is the composite action's (go mod download before
	// this step); it is read here only to be validated
	if _, err = boolInput(gha, "download-modules", true); err != nil {
		return nil, err
	}
	// install-dependencies too: the composite action's steps deps and
	// install run before this one
	switch v := strings.TrimSpace(input(gha, "install-dependencies")); v {
	case "", "auto", "none":
	default:
		return nil, fmt.Errorf("input install-dependencies: %q is not auto or none", v)
	}
	if in.deepen, err = boolInput(gha, "deepen", true); err != nil {
		return nil, err
	}
	if err := readFixInputs(gha, in); err != nil {
		return nil, err
	}
	if v := input(gha, "max-comments"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("input max-comments: %q is not a number of comments (0 puts every finding in the review body)", v)
		}
		if n > review.MaxCommentsLimit {
			return nil, fmt.Errorf("input max-comments: %d is over %d, the most inline comments Ripple puts in one review (the rest go to its body)", n, review.MaxCommentsLimit)
		}
		in.maxComments = n
	}
	for _, name := range ConfigInputs {
		v := input(gha, name)
		if v == "" {
			continue
		}
		if !repeatable[name] {
			in.configArgs = append(in.configArgs, "-"+name+"="+v)
			continue
		}
		for _, line := range strings.Split(v, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				in.configArgs = append(in.configArgs, "-"+name+"="+line)
			}
		}
	}
	return in, nil
}

// readFixInputs reads the inputs of fix mode. The model's key is no
// input: it is read from the RIPPLE_LLM_API_KEY environment variable (a
// secret the workflow passes with env:), so that it never appears in a
// workflow file or in the action's inputs.
func readFixInputs(gha *githubactions.Action, in *inputs) error {
	in.mode = strings.TrimSpace(input(gha, "mode"))
	switch in.mode {
	case "":
		in.mode = modeCheck
	case modeCheck, modeFix:
	default:
		return fmt.Errorf("input mode: %q is not check or fix", in.mode)
	}
	in.fixPush = strings.TrimSpace(input(gha, "fix-push"))
	switch in.fixPush {
	case "":
		in.fixPush = pushBranch
	case pushBranch, pushPullRequest, pushNone:
	default:
		return fmt.Errorf("input fix-push: %q is not branch, pull-request or none", in.fixPush)
	}
	a, err := fixmode.ParseAuthor(input(gha, "fix-author"))
	if err != nil {
		return fmt.Errorf("input fix-author: %w", err)
	}
	in.fixAuthor = a
	if in.fixTests, err = boolInput(gha, "fix-tests", false); err != nil {
		return err
	}
	in.llmBaseURL = strings.TrimSpace(input(gha, "llm-base-url"))
	in.llmModel = strings.TrimSpace(input(gha, "llm-model"))
	in.tokenBudget = DefaultTokenBudget
	if v := input(gha, "llm-token-budget"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("input llm-token-budget: %q is not a positive number of tokens", v)
		}
		in.tokenBudget = n
	}
	return nil
}

func boolInput(gha *githubactions.Action, name string, def bool) (bool, error) {
	v := input(gha, name)
	if v == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("input %s: %q is not true or false", name, v)
	}
	return b, nil
}
