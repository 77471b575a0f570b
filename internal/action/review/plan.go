package review

import (
	"github.com/ripple-dev/ripple/internal/action/findings"
	"github.com/ripple-dev/ripple/internal/action/md"
)

// NoFindings is the reason no review is posted on a clean pull request
// that Ripple never reviewed.
const NoFindings = "no findings"

// DefaultMaxComments is the inline comment cap of one review.
const DefaultMaxComments = 25

// MaxCommentsLimit is the most inline comments one review ever carries,
// whatever the options say. GitHub documents no number of comments per
// review; it documents a limit on content creation (secondary rate
// limits: about 80 content-generating requests a minute, 500 an hour,
// lower for some endpoints), and every inline comment is a thread and a
// notification. 50 keeps one review below the per-minute figure even if
// each of its comments counted as one request, with room for the edits
// of earlier comments the same run makes; the findings past it are
// listed in the review body.
const MaxCommentsLimit = 50

// Options shape a review.
type Options struct {
	// MaxComments caps new inline comments; the rest go to the body.
	// 0 means DefaultMaxComments, a negative number no inline comments;
	// above MaxCommentsLimit it is MaxCommentsLimit.
	MaxComments int
	Links       findings.Links
	// RunURL links the workflow run, whose job summary lists everything.
	RunURL string
	// Note is a paragraph (Markdown written by trusted code) at the top
	// of the body: what fix mode did. With NoteIsNews a review is posted
	// even when no finding is new (commits were pushed, a pull request
	// opened).
	Note       string
	NoteIsNews bool
}

func (o Options) maxComments() int {
	switch {
	case o.MaxComments == 0:
		return DefaultMaxComments
	case o.MaxComments < 0:
		return 0
	}
	return min(o.MaxComments, MaxCommentsLimit)
}

// Existing is a review comment already on the pull request.
type Existing struct {
	ID   int64
	Path string
	// Line is where GitHub anchors it now; 0 when it is outdated.
	Line int
	Body string
	// Ours: written by Ripple (a bot's comment carrying a fingerprint).
	Ours bool
}

// ExistingReview is a review already on the pull request.
type ExistingReview struct {
	ID   int64
	Body string
	Ours bool
}

// Suggestion replaces lines StartLine..EndLine with Replacement.
type Suggestion struct {
	StartLine, EndLine int
	Replacement        string
	// Note says where the edit comes from (plain text).
	Note string
}

// Comment is a new inline comment.
type Comment struct {
	Finding *findings.Finding
	Path    string
	// StartLine is set (and below Line) for a multi-line comment.
	StartLine, Line int
	Body            string
	Suggestion      *Suggestion
}

// Update edits an existing comment.
type Update struct {
	ID   int64
	Body string
	Why  string // resolved | superseded
}

// Plan is what one run does on the pull request.
type Plan struct {
	Comments []Comment
	InBody   []*findings.Finding
	Updates  []Update
	Kept     int // live comments of findings still reported
	OverCap  int // findings in the body because of MaxComments
	Resolved int // comments edited to say resolved
	Digest   string
	// Note is an extra paragraph for the body (a fallback's reason).
	Note string
	Body string
	// Skip, when set, says why no review is posted.
	Skip string
}

// MakePlan decides where each finding goes and what to edit. With inline
// false every finding goes to the body (the fallback after a 422).
func MakePlan(rep *findings.Report, dm *DiffMap, comments []Existing, reviews []ExistingReview, o Options, inline bool) *Plan {
	p := &Plan{Digest: Digest(rep)}
	live := map[string]bool{}
	outdated := map[string][]*Existing{}
	for i := range comments {
		c := &comments[i]
		fp := parseFP(c.Body)
		if !c.Ours || fp == "" {
			continue
		}
		switch st := parseState(c.Body); {
		case st == stateResolved || st == stateSuperseded:
		case c.Line > 0:
			live[fp] = true
		default:
			outdated[fp] = append(outdated[fp], c)
		}
	}
	reported := map[string]bool{}
	for i := range rep.Findings {
		f := &rep.Findings[i]
		reported[f.Fingerprint] = true
		if live[f.Fingerprint] {
			p.Kept++
			continue
		}
		c, ok := placeInline(rep, f, dm, o.Links)
		if !ok || !inline {
			p.InBody = append(p.InBody, f)
			continue
		}
		if len(p.Comments) >= o.maxComments() {
			p.InBody = append(p.InBody, f)
			p.OverCap++
			continue
		}
		p.Comments = append(p.Comments, c)
		where := md.Link(md.Text(findings.Where(f)), o.Links.Site(rep, f))
		for _, old := range outdated[f.Fingerprint] {
			p.Updates = append(p.Updates, Update{ID: old.ID, Body: supersededBody(old.Body, where), Why: stateSuperseded})
		}
		delete(outdated, f.Fingerprint)
	}
	for i := range comments {
		c := &comments[i]
		fp := parseFP(c.Body)
		st := parseState(c.Body)
		if !c.Ours || fp == "" || reported[fp] || st == stateResolved || st == stateSuperseded {
			continue
		}
		p.Updates = append(p.Updates, Update{ID: c.ID, Body: resolvedBody(c.Body, rep.Head), Why: stateResolved})
		p.Resolved++
	}
	p.Body = reviewBody(rep, p, o)
	var last *ExistingReview
	for i := range reviews {
		if r := &reviews[i]; r.Ours && parseDigest(r.Body) != "" && (last == nil || r.ID > last.ID) {
			last = r
		}
	}
	switch {
	case len(p.Comments) > 0 || p.Resolved > 0:
	case o.Note != "" && o.NoteIsNews:
	case last != nil && parseDigest(last.Body) == p.Digest:
		p.Skip = "nothing new since Ripple's last review"
	case last == nil && len(rep.Findings) == 0:
		p.Skip = NoFindings
	}
	return p
}

// placeInline makes the inline comment of f, if GitHub can take one.
func placeInline(rep *findings.Report, f *findings.Finding, dm *DiffMap, links findings.Links) (Comment, bool) {
	if dm == nil || f.Rev != "" {
		// a line the head does not have (the merge check's, on the base
		// branch) takes no comment: it is listed in the body
		return Comment{}, false
	}
	c := Comment{Finding: f, Path: f.Path, Line: f.Line}
	if fx := f.Fix; fx != nil && fx.Replacement != nil && dm.InOneHunk(f.Path, fx.StartLine, fx.EndLine) {
		c.Suggestion = &Suggestion{StartLine: fx.StartLine, EndLine: fx.EndLine, Replacement: *fx.Replacement, Note: fx.Note}
		c.Line = fx.EndLine
		if fx.StartLine < fx.EndLine {
			c.StartLine = fx.StartLine
		}
	} else if !dm.Commentable(f.Path, f.Line) {
		return Comment{}, false
	}
	var suggested bool
	c.Body, suggested = commentBody(rep, f, c.Suggestion, links)
	if !suggested {
		c.Suggestion = nil // too long for a comment: the range is commented on without it
	}
	return c, true
}
