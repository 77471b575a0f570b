package fix

import (
	"regexp"
	"strings"

	"github.com/ripple-dev/ripple/internal/model"
)

// The two phrasings of the details front-ends give a parameter that calls
// must now pass: "parameter ctx context.Context added", a name and a type,
// where every parameter is required (a variadic one, "...T", needs no
// value; an unnamed one cannot be given one by name), and "required
// parameter timeout added", where parameters may be optional.
var (
	typedAddedParam    = regexp.MustCompile(`^parameter (\w+) (\S.*) added$`)
	requiredAddedParam = regexp.MustCompile(`^required parameter (\w+) added$`)
)

// addedParams names the required parameters a change added.
func addedParams(c *model.Change) []string {
	var out []string
	for _, d := range c.Details {
		if m := typedAddedParam.FindStringSubmatch(d); m != nil && !strings.HasPrefix(m[2], "...") {
			out = append(out, m[1])
		} else if m := requiredAddedParam.FindStringSubmatch(d); m != nil {
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
