package review

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/go-github/v92/github"

	"github.com/ripple-dev/ripple/internal/action/ghapi"
)

// ErrMovedOn: the pull request's head is not the analysed commit.
var ErrMovedOn = errors.New("the pull request moved on")

// maxFilePages bounds the files listed (GitHub lists at most 3,000).
const maxFilePages = 30

// VerifyPR checks that pull request n of the API's repository exists and
// that its head is headSHA: the posting job of the two-phase set-up
// trusts the commit of the finished run (set by GitHub), not the
// artifact that names the pull request.
func VerifyPR(ctx context.Context, api *ghapi.API, n int, headSHA string) error {
	var pr *github.PullRequest
	err := api.Call(ctx, fmt.Sprintf("read pull request #%d", n), false, func(ctx context.Context) (*github.Response, error) {
		var resp *github.Response
		var err error
		pr, resp, err = api.GH.PullRequests.Get(ctx, api.Owner, api.Repo, n)
		return resp, err
	})
	if err != nil {
		return err
	}
	want := api.Owner + "/" + api.Repo
	if got := pr.GetBase().GetRepo().GetFullName(); got != "" && !strings.EqualFold(got, want) {
		return fmt.Errorf("pull request #%d is on %s, not on %s", n, got, want)
	}
	if got := pr.GetHead().GetSHA(); got != headSHA {
		return fmt.Errorf("%w: pull request #%d's head is %s, but the analysed run was for %s; the run of its new head will post", ErrMovedOn, n, short(got), short(headSHA))
	}
	if pr.GetState() != "" && pr.GetState() != "open" {
		return fmt.Errorf("pull request #%d is %s", n, pr.GetState())
	}
	return nil
}

// FetchDiff builds the diff map of pull request n from the REST API's
// list of its files (files whose patch GitHub leaves out, as too large or
// binary, take no inline comments).
func FetchDiff(ctx context.Context, api *ghapi.API, n int) (*DiffMap, error) {
	m := NewDiffMap()
	opt := &github.ListOptions{PerPage: perPage}
	for page := 0; page < maxFilePages; page++ {
		var fs []*github.CommitFile
		var resp *github.Response
		err := api.Call(ctx, fmt.Sprintf("list the files of pull request #%d", n), false, func(ctx context.Context) (*github.Response, error) {
			var err error
			fs, resp, err = api.GH.PullRequests.ListFiles(ctx, api.Owner, api.Repo, n, opt)
			return resp, err
		})
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			if f.GetStatus() == "removed" {
				continue
			}
			if err := m.AddPatch(f.GetFilename(), f.GetPatch()); err != nil {
				return nil, err
			}
		}
		if resp == nil || resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	return m, nil
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
