package event

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Event is what Ripple needs of the event that started the workflow.
type Event struct {
	Name string // GITHUB_EVENT_NAME
	// Repo is the repository the workflow runs in, "owner/name".
	Repo          string
	DefaultBranch string
	// SHA is GITHUB_SHA: the commit the workflow checked out.
	SHA   string
	Actor string // GITHUB_ACTOR, or the payload's sender

	PR   *PullRequest // pull_request, pull_request_target
	Push *Push        // push
	Run  *WorkflowRun // workflow_run
}

// PullRequest is the payload's pull request.
type PullRequest struct {
	Number   int
	BaseSHA  string
	HeadSHA  string
	BaseRef  string
	HeadRef  string
	BaseRepo string // owner/name
	HeadRepo string // owner/name; "" when the fork was deleted
	Author   string
	Draft    bool
}

// FromFork reports whether the pull request comes from another
// repository than the one the workflow runs in.
func (p *PullRequest) FromFork() bool { return p.HeadRepo != p.BaseRepo }

// Push is the payload of a push.
type Push struct {
	Ref     string
	Before  string
	After   string
	Created bool
	Deleted bool
	Forced  bool
}

// WorkflowRun is the payload of workflow_run: the run that finished.
type WorkflowRun struct {
	ID         int64
	Event      string // the event of the finished run
	HeadSHA    string
	Conclusion string
	HeadRepo   string
	// PRNumbers are the pull requests GitHub associates with the run
	// (empty for pull requests from forks).
	PRNumbers []int
}

// ReadOnlyReason says why the workflow's token is read-only, or "" when
// nothing in the event says so: pull requests from forks and from
// Dependabot get a read-only GITHUB_TOKEN and no secrets.
func (e *Event) ReadOnlyReason() string {
	if e.PR == nil || e.Name == "pull_request_target" {
		return ""
	}
	switch {
	case e.PR.FromFork():
		return "the pull request comes from a fork (" + orUnknown(e.PR.HeadRepo) + ")"
	case e.Actor == "dependabot[bot]" || e.PR.Author == "dependabot[bot]":
		return "the pull request was opened by Dependabot"
	}
	return ""
}

func orUnknown(s string) string {
	if s == "" {
		return "a deleted repository"
	}
	return s
}

// Supported lists the events Ripple handles.
var Supported = []string{"pull_request", "pull_request_target", "push", "workflow_dispatch", "workflow_run"}

// FromEnv reads the event from the environment of a workflow step.
func FromEnv(getenv func(string) string) (*Event, error) {
	name := getenv("GITHUB_EVENT_NAME")
	if name == "" {
		return nil, errors.New("GITHUB_EVENT_NAME is not set: the action runs inside a GitHub Actions workflow (to replay an event elsewhere, set GITHUB_EVENT_NAME and GITHUB_EVENT_PATH)")
	}
	p := getenv("GITHUB_EVENT_PATH")
	if p == "" {
		return nil, fmt.Errorf("GITHUB_EVENT_PATH is not set: the %s event's payload file is needed to know what to check", name)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("GITHUB_EVENT_PATH: reading the event payload: %w", err)
	}
	ev, err := Parse(name, data)
	if err != nil {
		return nil, err
	}
	if r := getenv("GITHUB_REPOSITORY"); r != "" {
		ev.Repo = r
	}
	ev.SHA = getenv("GITHUB_SHA")
	if a := getenv("GITHUB_ACTOR"); a != "" {
		ev.Actor = a
	}
	if ev.Repo == "" {
		return nil, errors.New("GITHUB_REPOSITORY is not set and the payload names no repository")
	}
	return ev, nil
}

type repoJSON struct {
	FullName      string `json:"full_name"`
	DefaultBranch string `json:"default_branch"`
}

type userJSON struct {
	Login string `json:"login"`
}

type refJSON struct {
	SHA  string    `json:"sha"`
	Ref  string    `json:"ref"`
	Repo *repoJSON `json:"repo"`
}

type payload struct {
	Repository  *repoJSON `json:"repository"`
	Sender      *userJSON `json:"sender"`
	PullRequest *struct {
		Number int       `json:"number"`
		Draft  bool      `json:"draft"`
		User   *userJSON `json:"user"`
		Head   refJSON   `json:"head"`
		Base   refJSON   `json:"base"`
	} `json:"pull_request"`
	Ref         string `json:"ref"`
	Before      string `json:"before"`
	After       string `json:"after"`
	Created     bool   `json:"created"`
	Deleted     bool   `json:"deleted"`
	Forced      bool   `json:"forced"`
	WorkflowRun *struct {
		ID             int64     `json:"id"`
		Event          string    `json:"event"`
		HeadSHA        string    `json:"head_sha"`
		Conclusion     string    `json:"conclusion"`
		HeadRepository *repoJSON `json:"head_repository"`
		PullRequests   []struct {
			Number int `json:"number"`
		} `json:"pull_requests"`
	} `json:"workflow_run"`
}

var shaRE = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)

// IsSHA reports whether s is a full hexadecimal commit name (SHA-1 or
// SHA-256).
func IsSHA(s string) bool { return shaRE.MatchString(s) }

// Parse decodes the payload of the event called name.
func Parse(name string, data []byte) (*Event, error) {
	supported := false
	for _, s := range Supported {
		supported = supported || s == name
	}
	if !supported {
		return nil, fmt.Errorf("unsupported event %q: ripple runs on %s (and on workflow_run to post a review prepared by another run)", name, strings.Join(Supported[:4], ", "))
	}
	var p payload
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("the %s event payload is not valid JSON: %w", name, err)
	}
	ev := &Event{Name: name}
	if p.Repository != nil {
		ev.Repo, ev.DefaultBranch = p.Repository.FullName, p.Repository.DefaultBranch
	}
	if p.Sender != nil {
		ev.Actor = p.Sender.Login
	}
	switch name {
	case "pull_request", "pull_request_target":
		pr := p.PullRequest
		if pr == nil {
			return nil, fmt.Errorf("the %s event payload has no pull_request object", name)
		}
		if !IsSHA(pr.Head.SHA) || !IsSHA(pr.Base.SHA) {
			return nil, fmt.Errorf("the %s event payload lacks pull_request.head.sha or pull_request.base.sha", name)
		}
		ev.PR = &PullRequest{
			Number: pr.Number, BaseSHA: pr.Base.SHA, HeadSHA: pr.Head.SHA,
			BaseRef: pr.Base.Ref, HeadRef: pr.Head.Ref, Draft: pr.Draft,
		}
		if pr.Base.Repo != nil {
			ev.PR.BaseRepo = pr.Base.Repo.FullName
			if ev.DefaultBranch == "" {
				ev.DefaultBranch = pr.Base.Repo.DefaultBranch
			}
		}
		if ev.PR.BaseRepo == "" {
			ev.PR.BaseRepo = ev.Repo
		}
		if pr.Head.Repo != nil {
			ev.PR.HeadRepo = pr.Head.Repo.FullName
		}
		if pr.User != nil {
			ev.PR.Author = pr.User.Login
		}
		if pr.Number <= 0 {
			return nil, fmt.Errorf("the %s event payload has no pull request number", name)
		}
	case "push":
		if !IsSHA(p.After) || !IsSHA(p.Before) {
			return nil, errors.New("the push event payload lacks before or after")
		}
		ev.Push = &Push{Ref: p.Ref, Before: p.Before, After: p.After, Created: p.Created, Deleted: p.Deleted, Forced: p.Forced}
	case "workflow_run":
		wr := p.WorkflowRun
		if wr == nil || !IsSHA(wr.HeadSHA) {
			return nil, errors.New("the workflow_run event payload lacks workflow_run.head_sha")
		}
		ev.Run = &WorkflowRun{ID: wr.ID, Event: wr.Event, HeadSHA: wr.HeadSHA, Conclusion: wr.Conclusion}
		if wr.HeadRepository != nil {
			ev.Run.HeadRepo = wr.HeadRepository.FullName
		}
		for _, pr := range wr.PullRequests {
			ev.Run.PRNumbers = append(ev.Run.PRNumbers, pr.Number)
		}
	}
	return ev, nil
}
