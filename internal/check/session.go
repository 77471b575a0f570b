package check

import (
	"context"
	"time"

	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
)

// Session is one check as a command runs it: the ranges it is given, all
// under one budget, each with the merge check its caller asks for, their
// results combined into one (Result), and the verdict under fail_on
// (Failing). The command line, the pre-push hook and the Action only
// turn their input into ranges and deliver the result; the budget, the
// order of the checks and how results combine live here.
type Session struct {
	Repo   *gitio.Repo
	Config *config.Config
	// SkipFrontier is Options.SkipFrontier for every check of the
	// session (a report that shows no notes).
	SkipFrontier bool

	deadline time.Time
	res      *model.Result
}

// NewSession starts a session: its budget (Config.Budget) runs from now,
// shared by every range and merge check.
func NewSession(repo *gitio.Repo, cfg *config.Config) *Session {
	if cfg == nil {
		cfg = config.Default()
	}
	return &Session{Repo: repo, Config: cfg, deadline: time.Now().Add(cfg.Budget)}
}

// Context bounds ctx by the budget and grace: what the budget does not
// cut (the seed's own dependents are always judged, the report is
// written) still ends.
func (s *Session) Context(ctx context.Context, grace time.Duration) (context.Context, context.CancelFunc) {
	return context.WithDeadline(ctx, s.deadline.Add(grace))
}

// Check checks one range: Base, Head, WorkTree and Frontends of o, the
// rest the session's. Its result joins the session's with Add, after its
// merge check if any.
func (s *Session) Check(ctx context.Context, o Options) (*model.Result, error) {
	o.Config, o.Deadline, o.SkipFrontier = s.Config, s.deadline, s.SkipFrontier
	return Run(ctx, s.Repo, o)
}

// Merge runs the merge check of a range's result (Ref, Name and Head of
// o, the rest the session's) and adds what it found to res.
func (s *Session) Merge(ctx context.Context, res *model.Result, o MergeOptions) error {
	o.Config, o.Deadline, o.SkipFrontier = s.Config, s.deadline, s.SkipFrontier
	mr, err := Merge(ctx, s.Repo, o)
	if err != nil {
		return err
	}
	mr.Into(res)
	return nil
}

// Result is the session's ranges combined: each change once (stacked
// branches share commits), every finding, the notes and the counts
// summed. With one range it is that range's result.
func (s *Session) Result() *model.Result {
	if s.res == nil {
		return &model.Result{}
	}
	return s.res
}

// Failing reports whether a result fails under the configuration's
// fail_on.
func Failing(res *model.Result, cfg *config.Config) bool {
	for _, f := range res.Findings {
		if cfg.Fails(f.Level) {
			return true
		}
	}
	return false
}

// Add combines one range's result into the session's.
func (s *Session) Add(src *model.Result) {
	if s.res == nil {
		s.res = src
		return
	}
	dst := s.res
	kept := map[string]*model.Change{}
	for _, c := range dst.Changes {
		kept[changeKey(c)] = c
	}
	same := map[*model.Change]*model.Change{} // a duplicate -> the change kept
	for _, c := range src.Changes {
		if k, ok := kept[changeKey(c)]; ok {
			same[c] = k
			continue
		}
		kept[changeKey(c)] = c
		dst.Changes = append(dst.Changes, c)
	}
	// a change derived in this range from a duplicate follows the change
	// kept (else the duplicate would be counted, as a cause, once more)
	for _, c := range src.Changes {
		if k, ok := same[c.Cause]; ok {
			c.Cause = k
		}
	}
	for _, f := range src.Findings {
		if k, ok := same[f.Change]; ok {
			f.Change = k
		}
	}
	dst.Findings = append(dst.Findings, src.Findings...)
	dst.Diagnostics = append(dst.Diagnostics, src.Diagnostics...)
	dst.PrecisionNotes = append(dst.PrecisionNotes, src.PrecisionNotes...)
	dst.Stats.ChangedFiles += src.Stats.ChangedFiles
	dst.Stats.ParsedFiles += src.Stats.ParsedFiles
	dst.Stats.TypedPackages += src.Stats.TypedPackages
	dst.Stats.Millis += src.Stats.Millis
	dst.Stats.BudgetCut = dst.Stats.BudgetCut || src.Stats.BudgetCut
	dst.Stats.FrontierSkipped += src.Stats.FrontierSkipped
	dst.Stats.Cold = dst.Stats.Cold || src.Stats.Cold
}
