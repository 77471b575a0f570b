package review

import (
	"context"
	"fmt"

	"github.com/google/go-github/v92/github"

	"github.com/ripple-dev/ripple/internal/action/findings"
	"github.com/ripple-dev/ripple/internal/action/ghapi"
)

// Outcome states.
const (
	Posted    = "posted"    // a review was created
	Unchanged = "unchanged" // nothing new: no request that writes was needed
	Skipped   = "skipped"   // not attempted (no pull request, turned off)
	Failed    = "failed"    // attempted and given up: Reason says why
)

// Outcome is what happened on the pull request.
type Outcome struct {
	State  string
	Reason string
	// Kind classifies a failure (ghapi.KindForbidden: a read-only token).
	Kind      ghapi.Kind
	ReviewURL string
	Inline    int // new inline comments
	InBody    int // findings listed in the body
	Kept      int // earlier comments still applying
	Resolved  int // earlier comments marked resolved
	Updated   int // comments edited (resolved or superseded)
	// BodyOnly: GitHub refused the inline comments (422) and the review
	// was posted with every finding in its body.
	BodyOnly bool
}

// Target is the pull request to review.
type Target struct {
	Number  int
	HeadSHA string
}

const (
	maxCommentPages = 10 // 1,000 review comments
	maxReviewPages  = 5  // 500 reviews
	perPage         = 100
)

// Run posts the review of rep on the pull request: it reads what Ripple
// wrote before, plans, creates one review and edits earlier comments.
func Run(ctx context.Context, api *ghapi.API, t Target, rep *findings.Report, dm *DiffMap, o Options) *Outcome {
	comments, err := listComments(ctx, api, t.Number)
	if err != nil {
		return failed(err, "reading the pull request's review comments")
	}
	reviews, err := listReviews(ctx, api, t.Number)
	if err != nil {
		return failed(err, "reading the pull request's reviews")
	}
	p := MakePlan(rep, dm, comments, reviews, o, true)
	out := &Outcome{Kept: p.Kept}
	if p.Skip != "" {
		out.State, out.Reason = Unchanged, p.Skip
		return out
	}
	rv, err := createReview(ctx, api, t, p)
	if ghapi.KindOf(err) == ghapi.KindUnprocessable && len(p.Comments) > 0 {
		// GitHub refused the inline comments (a line it does not
		// consider part of the diff, a head that moved on): keep the
		// review, with every finding in its body.
		p = MakePlan(rep, dm, comments, reviews, o, false)
		p.Note = fmt.Sprintf("_GitHub refused this review's inline comments (%s); every finding is listed below instead._", err)
		p.Body = reviewBody(rep, p, o)
		out.BodyOnly = true
		rv, err = createReview(ctx, api, Target{Number: t.Number}, p)
	}
	if err != nil {
		return failed(err, "posting the review")
	}
	out.State = Posted
	out.ReviewURL = rv.GetHTMLURL()
	out.Inline, out.InBody, out.Kept = len(p.Comments), len(p.InBody), p.Kept
	for _, u := range p.Updates {
		body := u.Body
		err := api.Call(ctx, fmt.Sprintf("edit review comment %d", u.ID), true, func(ctx context.Context) (*github.Response, error) {
			_, resp, err := api.GH.PullRequests.UpdateComment(ctx, api.Owner, api.Repo, u.ID, github.UpdatePullRequestCommentRequest{Body: body})
			return resp, err
		})
		if err != nil {
			out.Reason = fmt.Sprintf("review posted, but editing earlier comments stopped: %v", err)
			break
		}
		out.Updated++
		if u.Why == stateResolved {
			out.Resolved++
		}
	}
	return out
}

func failed(err error, what string) *Outcome {
	why := ""
	switch ghapi.KindOf(err) {
	case ghapi.KindForbidden:
		why = "the token may not do this (pull requests from forks and from Dependabot get a read-only token; see the two-phase set-up in docs/action.md, or grant `pull-requests: write`)"
	case ghapi.KindNotFound:
		why = "GitHub does not show this pull request to the token (a private repository without `pull-requests: read`, or a closed and deleted one)"
	case ghapi.KindRateLimited:
		why = "GitHub's rate limit outlasted the time this run may wait"
	case ghapi.KindCapReached:
		why = "the run reached its cap of API requests"
	}
	r := fmt.Sprintf("%s failed: %v", what, err)
	if why != "" {
		r += "; " + why
	}
	return &Outcome{State: Failed, Reason: r, Kind: ghapi.KindOf(err)}
}

func createReview(ctx context.Context, api *ghapi.API, t Target, p *Plan) (*github.PullRequestReview, error) {
	req := &github.PullRequestReviewRequest{
		Body:  new(p.Body),
		Event: new("COMMENT"),
	}
	if t.HeadSHA != "" {
		req.CommitID = new(t.HeadSHA)
	}
	for _, c := range p.Comments {
		dc := &github.DraftReviewComment{
			Path: new(c.Path),
			Body: new(c.Body),
			Line: new(c.Line),
			Side: new("RIGHT"),
		}
		if c.StartLine > 0 && c.StartLine < c.Line {
			dc.StartLine = new(c.StartLine)
			dc.StartSide = new("RIGHT")
		}
		req.Comments = append(req.Comments, dc)
	}
	var rv *github.PullRequestReview
	err := api.Call(ctx, "create the review", true, func(ctx context.Context) (*github.Response, error) {
		r, resp, err := api.GH.PullRequests.CreateReview(ctx, api.Owner, api.Repo, t.Number, req)
		rv = r
		return resp, err
	})
	return rv, err
}

// isOurs: a bot's comment (the workflow token's github-actions[bot], or
// an app) carrying Ripple's marker. A person's comment quoting a marker
// is never edited nor taken as one of Ripple's.
func isOurs(u *github.User, body string) bool {
	return u != nil && u.GetType() == "Bot" && (parseFP(body) != "" || parseDigest(body) != "")
}

func listComments(ctx context.Context, api *ghapi.API, n int) ([]Existing, error) {
	var out []Existing
	opt := &github.PullRequestListCommentsOptions{ListOptions: github.ListOptions{PerPage: perPage}}
	for page := 0; page < maxCommentPages; page++ {
		var cs []*github.PullRequestComment
		var resp *github.Response
		err := api.Call(ctx, "list review comments", false, func(ctx context.Context) (*github.Response, error) {
			var err error
			cs, resp, err = api.GH.PullRequests.ListComments(ctx, api.Owner, api.Repo, n, opt)
			return resp, err
		})
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			out = append(out, Existing{ID: c.GetID(), Path: c.GetPath(), Line: c.GetLine(), Body: c.GetBody(), Ours: isOurs(c.User, c.GetBody())})
		}
		if resp == nil || resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	return out, nil
}

func listReviews(ctx context.Context, api *ghapi.API, n int) ([]ExistingReview, error) {
	var out []ExistingReview
	opt := &github.ListOptions{PerPage: perPage}
	for page := 0; page < maxReviewPages; page++ {
		var rs []*github.PullRequestReview
		var resp *github.Response
		err := api.Call(ctx, "list reviews", false, func(ctx context.Context) (*github.Response, error) {
			var err error
			rs, resp, err = api.GH.PullRequests.ListReviews(ctx, api.Owner, api.Repo, n, opt)
			return resp, err
		})
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			out = append(out, ExistingReview{ID: r.GetID(), Body: r.GetBody(), Ours: isOurs(r.User, r.GetBody())})
		}
		if resp == nil || resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	return out, nil
}
