package fixmode

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Author is who the fix commits are by (author and committer).
type Author struct{ Name, Email string }

// DefaultAuthor is the workflow token's bot.
var DefaultAuthor = Author{Name: "github-actions[bot]", Email: "41898282+github-actions[bot]@users.noreply.github.com"}

// ParseAuthor reads "Name <email>"; "" is DefaultAuthor. The name is
// git's, not RFC 5322's: git takes "github-actions[bot]" unquoted (and
// the action's own default is that), where a mail parser wants the
// brackets quoted.
func ParseAuthor(s string) (Author, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return DefaultAuthor, nil
	}
	m := authorRE.FindStringSubmatch(s)
	if m == nil {
		return Author{}, fmt.Errorf("%q is not Name <email>", s)
	}
	return Author{Name: strings.TrimSpace(m[1]), Email: m[2]}, nil
}

// authorRE is git's ident: a name without <, > or a newline, and an
// address with one @ in angle brackets.
var authorRE = regexp.MustCompile(`^([^<>\n\x00]*[^<>\s\x00][^<>\n\x00]*?)\s*<([^<>@\s\x00]+@[^<>@\s\x00]+)>$`)

func (a Author) String() string { return a.Name + " <" + a.Email + ">" }

// Commit is one fix commit made.
type Commit struct {
	SHA     string
	Subject string
	Message string
	Group   *Group
}

// Commit makes the plan's commits on top of the head, one per group, in
// a temporary index (the work tree, its index and HEAD are untouched,
// whatever actions/checkout put there). Each commit's tree is the head
// with the hunks of its group and of every earlier group applied; the
// last commit's tree must be the proven state exactly, or Commit fails
// and nothing is made visible (the commits are unreferenced objects).
// trailers end every message ("Ripple-Run: <url>").
func (p *Plan) Commit(ctx context.Context, g *Git, author Author, trailers []string) ([]Commit, error) {
	gc := g.With(
		"GIT_AUTHOR_NAME="+author.Name, "GIT_AUTHOR_EMAIL="+author.Email,
		"GIT_COMMITTER_NAME="+author.Name, "GIT_COMMITTER_EMAIL="+author.Email,
	)
	gi, done, err := tempIndex(gc)
	if err != nil {
		return nil, err
	}
	defer done()
	if _, err := gi.Run(ctx, "read-tree", p.Head); err != nil {
		return nil, err
	}
	parent := p.Head
	applied := map[string][]*hunk{}
	var commits []Commit
	tree := ""
	for _, grp := range p.Groups {
		if grp.whole {
			tree = p.fixedTree
		} else {
			touched := map[string]bool{}
			for _, h := range grp.hunks {
				applied[h.path] = append(applied[h.path], h)
				touched[h.path] = true
			}
			var paths []string
			for path := range touched {
				paths = append(paths, path)
			}
			sort.Strings(paths)
			var info strings.Builder
			for _, path := range paths {
				f := p.files[path]
				content := strings.Join(apply(f.head, applied[path], 0), "")
				blob, err := gi.RunIn(ctx, []byte(content), "hash-object", "-w", "--no-filters", "--stdin")
				if err != nil {
					return nil, err
				}
				fmt.Fprintf(&info, "%s %s\t%s\x00", f.mode, strings.TrimSpace(blob), path)
			}
			if _, err := gi.RunIn(ctx, []byte(info.String()), "update-index", "-z", "--index-info"); err != nil {
				return nil, err
			}
			out, err := gi.Run(ctx, "write-tree")
			if err != nil {
				return nil, err
			}
			tree = strings.TrimSpace(out)
		}
		msg := grp.Message(trailers)
		out, err := gc.RunIn(ctx, []byte(msg), "-c", "commit.gpgSign=false", "commit-tree", tree, "-p", parent, "-F", "-")
		if err != nil {
			return nil, err
		}
		parent = strings.TrimSpace(out)
		subject, _, _ := strings.Cut(msg, "\n")
		commits = append(commits, Commit{SHA: parent, Subject: subject, Message: msg, Group: grp})
	}
	if tree != p.fixedTree {
		return nil, fmt.Errorf("internal: the fix commits end at tree %s, not at the proven state %s; nothing was pushed", short(tree), short(p.fixedTree))
	}
	return commits, nil
}
