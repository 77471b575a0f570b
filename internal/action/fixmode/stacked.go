package fixmode

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-github/v92/github"

	"github.com/ripple-dev/ripple/internal/action/ghapi"
)

// StackedPR is the pull request that carries the fix when it cannot be
// pushed to the pull request's own branch.
type StackedPR struct {
	Number     int
	URL        string
	Head, Base string
	// Existing: an open pull request of the same branches was there
	// already (an earlier run's); its branch now holds the new commits.
	Existing bool
}

// OpenStacked opens a pull request of head (Ripple's branch) into base
// (the pull request's branch), or finds the one an earlier run opened.
func OpenStacked(ctx context.Context, api *ghapi.API, head, base, title, body string) (*StackedPR, error) {
	var pr *github.PullRequest
	err := api.Call(ctx, "open the pull request "+head+" → "+base, true, func(ctx context.Context) (*github.Response, error) {
		var resp *github.Response
		var err error
		pr, resp, err = api.GH.PullRequests.Create(ctx, api.Owner, api.Repo, github.CreatePullRequest{
			Title: new(title), Head: head, Base: base, Body: new(body),
		})
		return resp, err
	})
	if err == nil {
		return &StackedPR{Number: pr.GetNumber(), URL: pr.GetHTMLURL(), Head: head, Base: base}, nil
	}
	if ghapi.KindOf(err) != ghapi.KindUnprocessable || !strings.Contains(strings.ToLower(err.Error()), "already exists") {
		return nil, err
	}
	var prs []*github.PullRequest
	lerr := api.Call(ctx, "find the open pull request "+head+" → "+base, false, func(ctx context.Context) (*github.Response, error) {
		var resp *github.Response
		var err error
		prs, resp, err = api.GH.PullRequests.List(ctx, api.Owner, api.Repo, &github.PullRequestListOptions{
			State: "open", Head: api.Owner + ":" + head, Base: base, ListOptions: github.ListOptions{PerPage: 10},
		})
		return resp, err
	})
	if lerr != nil {
		return nil, fmt.Errorf("%v; and %w", err, lerr)
	}
	if len(prs) == 0 {
		return nil, err
	}
	return &StackedPR{Number: prs[0].GetNumber(), URL: prs[0].GetHTMLURL(), Head: head, Base: base, Existing: true}, nil
}
