package gitio

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	godiff "github.com/sourcegraph/go-diff/diff"
)

// Status is how a file changed between two states.
type Status byte

const (
	Added    Status = 'A'
	Deleted  Status = 'D'
	Modified Status = 'M'
	Renamed  Status = 'R'
	Copied   Status = 'C'
	TypeChg  Status = 'T'
)

// FileChange is one changed file. OldPath is empty for an added file,
// NewPath for a deleted one.
type FileChange struct {
	Status  Status
	OldPath string
	NewPath string
	Binary  bool
	// Hunks are the changed line ranges; nil with Whole set means the
	// whole file is to be treated as changed (added, deleted, or a diff
	// without hunks).
	Hunks []Hunk
	Whole bool
}

// Hunk is one changed region: Old lines [OldStart, OldStart+OldLines) were
// replaced by New lines [NewStart, NewStart+NewLines). A count of 0 is a
// pure insertion or deletion, placed after line OldStart (or NewStart).
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
}

// NewLineChanged reports whether line (head numbering) lies in a hunk.
func (f *FileChange) NewLineChanged(line int) bool {
	if f.Whole {
		return true
	}
	for _, h := range f.Hunks {
		if h.NewLines > 0 && h.NewStart <= line && line < h.NewStart+h.NewLines {
			return true
		}
	}
	return false
}

// NewRangeChanged reports whether any line of [from, to] (head numbering)
// was added or changed, or lines were deleted just inside it.
func (f *FileChange) NewRangeChanged(from, to int) bool {
	if f.Whole {
		return true
	}
	for _, h := range f.Hunks {
		if h.NewLines == 0 {
			// pure deletion after line NewStart
			if from <= h.NewStart && h.NewStart < to {
				return true
			}
			continue
		}
		if h.NewStart <= to && from < h.NewStart+h.NewLines {
			return true
		}
	}
	return false
}

// OldRangeChanged is NewRangeChanged in base numbering.
func (f *FileChange) OldRangeChanged(from, to int) bool {
	if f.Whole {
		return true
	}
	for _, h := range f.Hunks {
		if h.OldLines == 0 {
			if from <= h.OldStart && h.OldStart < to {
				return true
			}
			continue
		}
		if h.OldStart <= to && from < h.OldStart+h.OldLines {
			return true
		}
	}
	return false
}

// Path is the file's path in the head state, or in the base state when it
// was deleted.
func (f *FileChange) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// Diff lists the files changed from base to head (head "" = the work tree,
// untracked files included) that match the pathspecs, with their hunks.
// Renames are detected. Files beyond maxFiles make it fail with an error
// that says how many there were.
func (r *Repo) Diff(ctx context.Context, base, head string, maxFiles int, pathspecs ...string) ([]*FileChange, error) {
	revs := []string{base}
	if head != "" {
		revs = append(revs, head)
	}
	nsArgs := append([]string{"diff", "--no-ext-diff", "--no-textconv", "--name-status", "-z", "-M"}, revs...)
	nsArgs = append(append(nsArgs, "--"), pathspecs...)
	out, err := r.Git(ctx, nsArgs...)
	if err != nil {
		return nil, err
	}
	files, err := parseNameStatus(out)
	if err != nil {
		return nil, err
	}
	if head == "" {
		untracked, err := r.Git(ctx, append([]string{"ls-files", "-z", "--others", "--exclude-standard", "--"}, pathspecs...)...)
		if err != nil {
			return nil, err
		}
		for _, p := range splitZ(untracked) {
			files = append(files, &FileChange{Status: Added, NewPath: p, Whole: true})
		}
	}
	if maxFiles > 0 && len(files) > maxFiles {
		return nil, fmt.Errorf("the diff changes %d files, more than the limit of %d (max_files in the config, --max-files)", len(files), maxFiles)
	}
	byPath := map[string]*FileChange{}
	var modified []string
	for _, f := range files {
		switch f.Status {
		case Added, Deleted:
			f.Whole = true
		default:
			byPath[f.NewPath] = f
			modified = append(modified, f.NewPath)
		}
	}
	if len(modified) == 0 {
		return files, nil
	}
	patchArgs := append([]string{"diff", "--no-ext-diff", "--no-textconv", "-U0", "-M", "--src-prefix=a/", "--dst-prefix=b/"}, revs...)
	patchArgs = append(append(patchArgs, "--"), pathspecs...)
	patch, err := r.Git(ctx, patchArgs...)
	if err != nil {
		return nil, err
	}
	fds, err := godiff.ParseMultiFileDiff(patch)
	if err != nil {
		// an unparsable patch costs precision, not the check: every
		// modified file is treated as changed throughout
		for _, f := range byPath {
			f.Whole = true
		}
		return files, nil
	}
	for _, fd := range fds {
		name := strings.TrimPrefix(UnquotePath(fd.NewName), "b/")
		f := byPath[name]
		if f == nil {
			continue
		}
		for _, x := range fd.Extended {
			if strings.HasPrefix(x, "Binary files ") || x == "GIT binary patch" {
				f.Binary = true
			}
		}
		for _, h := range fd.Hunks {
			f.Hunks = append(f.Hunks, Hunk{
				OldStart: int(h.OrigStartLine), OldLines: int(h.OrigLines),
				NewStart: int(h.NewStartLine), NewLines: int(h.NewLines),
			})
		}
		delete(byPath, name)
	}
	for _, f := range byPath {
		if len(f.Hunks) == 0 && !f.Binary {
			f.Whole = true // not matched in the patch (odd path): be safe
		}
	}
	return files, nil
}

// UnquotePath undoes git's C-style quoting of a path with unusual
// characters: "caf\303\251.go" is café.go (core.quotePath, on by
// default, writes every byte above 0x7f as an octal escape).
func UnquotePath(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	var b strings.Builder
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s)-1 {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '0', '1', '2', '3':
			if i+2 < len(s)-1 {
				v := (s[i]-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0')
				b.WriteByte(v)
				i += 2
			}
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// parseNameStatus parses `git diff --name-status -z` output.
func parseNameStatus(out []byte) ([]*FileChange, error) {
	fields := bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0})
	var files []*FileChange
	for i := 0; i < len(fields); i++ {
		st := string(fields[i])
		if st == "" {
			continue
		}
		f := &FileChange{Status: Status(st[0])}
		next := func() (string, error) {
			i++
			if i >= len(fields) {
				return "", fmt.Errorf("git diff --name-status: truncated output")
			}
			return string(fields[i]), nil
		}
		var err error
		switch f.Status {
		case Renamed, Copied:
			if f.OldPath, err = next(); err != nil {
				return nil, err
			}
			if f.NewPath, err = next(); err != nil {
				return nil, err
			}
			if f.Status == Copied {
				f.Status, f.OldPath, f.Whole = Added, "", true
			}
		case Added:
			f.NewPath, err = next()
		case Deleted:
			f.OldPath, err = next()
		default: // M, T, U (unmerged), X
			f.OldPath, err = next()
			f.NewPath = f.OldPath
			f.Status = Modified
		}
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}
