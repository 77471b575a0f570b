package handoff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/ripple-dev/ripple/internal/action/event"
	"github.com/ripple-dev/ripple/internal/action/findings"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/report"
)

// Version of the file format.
const Version = 1

// MaxSize bounds the file Read accepts.
const MaxSize = 20 << 20

// File is the handoff.
type File struct {
	Version     int             `json:"version"`
	Repository  string          `json:"repository"`
	PullRequest int             `json:"pull_request"`
	BaseSHA     string          `json:"base_sha"`
	HeadSHA     string          `json:"head_sha"`
	Report      json.RawMessage `json:"report"` // internal/report's JSON
}

// Write writes the handoff of a check of pull request pr to path.
func Write(path, repo string, pr int, res *model.Result) error {
	var rep bytes.Buffer
	if err := report.JSON(&rep, res, report.Options{}); err != nil {
		return err
	}
	f := File{Version: Version, Repository: repo, PullRequest: pr, BaseSHA: res.Base, HeadSHA: res.Head, Report: rep.Bytes()}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing the review handoff: %w", err)
	}
	return nil
}

// Read reads and validates a handoff. dropped counts findings left out
// because their coordinates cannot be real.
func Read(path string) (f *File, rep *findings.Report, dropped int, err error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("review-from: %w", err)
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, MaxSize+1))
	if err != nil {
		return nil, nil, 0, fmt.Errorf("review-from: %w", err)
	}
	if len(data) > MaxSize {
		return nil, nil, 0, fmt.Errorf("review-from: %s is larger than %d MiB", path, MaxSize>>20)
	}
	f = &File{}
	if err := json.Unmarshal(data, f); err != nil {
		return nil, nil, 0, fmt.Errorf("review-from: %s is not a ripple handoff: %w", path, err)
	}
	switch {
	case f.Version != Version:
		return nil, nil, 0, fmt.Errorf("review-from: %s has version %d, want %d (use the same ripple version in both phases)", path, f.Version, Version)
	case f.PullRequest <= 0:
		return nil, nil, 0, fmt.Errorf("review-from: %s names no pull request", path)
	case !event.IsSHA(f.HeadSHA):
		return nil, nil, 0, fmt.Errorf("review-from: %s names no head commit", path)
	}
	rep, err = findings.ReadJSON(bytes.NewReader(f.Report))
	if err != nil {
		return nil, nil, 0, fmt.Errorf("review-from: %s: %w", path, err)
	}
	if rep.Head != f.HeadSHA {
		return nil, nil, 0, fmt.Errorf("review-from: %s: its report is of %s, not of the head %s it names", path, findings.Short(rep.Head), findings.Short(f.HeadSHA))
	}
	dropped = rep.Validate()
	return f, rep, dropped, nil
}
