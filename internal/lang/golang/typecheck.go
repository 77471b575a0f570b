package golang

import (
	"context"

	"github.com/ripple-dev/ripple/internal/model"
)

// typeVerdicts is the type checker's view of the head state; nil when the
// precise tier did not run.
type typeVerdicts struct{}

func (a *analyzer) typecheck(ctx context.Context, refs []*ref) *typeVerdicts { return nil }

func (tv *typeVerdicts) verdictFor(r *ref, syn verdict) (verdict, bool) { return verdict{}, false }

func (tv *typeVerdicts) extraFindings(a *analyzer, seen map[string]bool) []*model.Finding { return nil }
