package fix

import (
	"regexp"
	"strings"

	"github.com/ripple-dev/ripple/internal/model"
)

// The details a front-end gives a parameter that calls must now pass: Go's
// "parameter ctx context.Context added" (every Go parameter is required;
// an unnamed one cannot be given a value by name, a variadic one needs
// none) and Python's "required parameter timeout added".
var (
	goAddedParam = regexp.MustCompile(`^parameter (\w+) (\S.*) added$`)
	pyAddedParam = regexp.MustCompile(`^required parameter (\w+) added$`)
)

// addedParams names the required parameters a change added.
func addedParams(c *model.Change) []string {
	var out []string
	for _, d := range c.Details {
		if m := goAddedParam.FindStringSubmatch(d); m != nil && !strings.HasPrefix(m[2], "...") {
			out = append(out, m[1])
		} else if m := pyAddedParam.FindStringSubmatch(d); m != nil {
			out = append(out, m[1])
		}
	}
	return out
}

// missingDefaults names the parameters a change added that calls the
// run did not fix mechanically (left to the model, or unfixed) lack a
// value for, and that param_defaults does not give: with
// -param-defaults NAME=EXPR those calls are fixed mechanically.
func missingDefaults(obs []*Obligation, given map[string]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, ob := range obs {
		if ob.Method == "mechanical" && ob.Status == Done {
			continue
		}
		for _, r := range ob.Reasons {
			if !r.Must || r.Fix != nil || r.Change == nil || r.Relation != model.CalledBy && r.Relation != model.InstantiatedBy {
				continue
			}
			for _, name := range addedParams(r.Change) {
				if _, ok := given[name]; ok || seen[name] {
					continue
				}
				seen[name] = true
				out = append(out, name)
			}
		}
	}
	return out
}
