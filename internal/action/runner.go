package action

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	githubactions "github.com/sethvargo/go-githubactions"

	"github.com/ripple-dev/ripple/internal/action/annotate"
)

// runner wraps go-githubactions so that nothing panics: its file commands
// (outputs, the job summary) panic when their file cannot be written or
// its variable is unset, which outside a runner (or in a misconfigured
// one) must cost a line in the log, never the step.
type runner struct {
	gha    *githubactions.Action
	getenv func(string) string
	w      io.Writer
}

func (r *runner) logf(format string, args ...any) {
	fmt.Fprintf(r.w, format+"\n", args...)
}

// fileCommand runs a go-githubactions file command when its variable is
// set, recovering from the library's panics.
func (r *runner) fileCommand(env, what string, f func()) (err error) {
	if r.getenv(env) == "" {
		return fmt.Errorf("%s is not set", env)
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	f()
	return nil
}

func (r *runner) setOutput(k, v string) {
	if err := r.fileCommand("GITHUB_OUTPUT", "output", func() { r.gha.SetOutput(k, v) }); err != nil {
		r.logf("ripple: output %s=%s (not set: %v)", k, v, err)
	}
}

func (r *runner) addSummary(markdown string) {
	err := r.fileCommand("GITHUB_STEP_SUMMARY", "job summary", func() { r.gha.AddStepSummary(markdown) })
	if err != nil {
		r.logf("ripple: the job summary could not be written (%v); here it is:", err)
		r.untrusted(markdown)
	}
}

func (r *runner) mask(secret string) {
	if secret != "" {
		r.gha.AddMask(secret)
	}
}

// untrusted prints text that holds content from the code under review
// with workflow commands stopped, so that a source line reading
// "::add-mask::..." or "::set-output ..." is only text.
func (r *runner) untrusted(text string) {
	var b [16]byte
	_, _ = rand.Read(b[:])
	tok := hex.EncodeToString(b[:])
	r.gha.IssueCommand(&githubactions.Command{Name: "stop-commands", Message: tok})
	fmt.Fprint(r.w, strings.TrimRight(text, "\n")+"\n")
	fmt.Fprintf(r.w, "::%s::\n", tok)
}

func (r *runner) group(title string, body func()) {
	r.gha.Group(title)
	defer r.gha.EndGroup()
	body()
}

func (r *runner) annotate(a annotate.Annotation) {
	g := r.gha.WithFieldsMap(a.Properties())
	switch a.Level {
	case "error":
		g.Errorf("%s", a.Message)
	case "warning":
		g.Warningf("%s", a.Message)
	default:
		g.Noticef("%s", a.Message)
	}
}

// errorf is an error annotation without a location.
func (r *runner) errorf(format string, args ...any) {
	r.gha.WithFieldsMap(map[string]string{"title": "ripple"}).Errorf(format, args...)
}

func (r *runner) warningf(format string, args ...any) {
	r.gha.WithFieldsMap(map[string]string{"title": "ripple"}).Warningf(format, args...)
}

func (r *runner) noticef(format string, args ...any) {
	r.gha.WithFieldsMap(map[string]string{"title": "ripple"}).Noticef(format, args...)
}
