package report

import "github.com/ripple-dev/ripple/internal/model"

// Rule descriptions are composed from a relation phrase (what the site
// is) and a label phrase (what happened to the declaration it depends
// on): ripple/MMS/CalledBy is "Caller of a function whose signature
// changed".

// labelObjects describe the changed declaration.
var labelObjects = map[model.Label]string{
	model.MMB: "a function whose body changed in a way callers can observe",
	model.MMS: "a function whose signature changed",
	model.MF:  "a field that changed",
	model.MC:  "a type whose declaration changed",
	model.MCC: "a constructor whose signature changed",
	model.MI:  "an imported package or member that changed",
	model.AM:  "a type that gained a method",
	model.AF:  "a type that gained a field",
	model.AC:  "a type that was added",
	model.ACC: "a type that gained a constructor",
	model.AI:  "an import that was added",
	model.DM:  "a function or method that was deleted or renamed",
	model.DF:  "a field that was deleted or renamed",
	model.DC:  "a type that was deleted or renamed",
	model.DCC: "a constructor that was deleted or renamed",
	model.DI:  "an imported package or member that was deleted",
}

// ruleText is the short and full description and the help text of the
// rule "ripple/<label>/<relation>".
func ruleText(l model.Label, r model.Relation) (short, full, help string) {
	w := r.Words()
	subj := [2]string{w.Subject, w.Long}
	obj, ok := labelObjects[l]
	if !ok {
		obj = "a declaration that changed"
		if l != "" {
			obj += " (" + string(l) + ")"
		}
	}
	short = subj[0] + " " + obj
	if r == model.Uses {
		short += " that does not fit a declaration it uses"
		full = subj[1] + " " + obj + " (change " + string(l) + ", relation " + string(r) + ") " +
			"does not fit a declaration it uses, as that declaration stands at the pushed head: " +
			"it changed in this diff or in an earlier one, and the new code was written against another form of it."
		help = "The type checker rejects a line this diff added or rewrote: it calls, constructs or converts to a declaration " +
			"of the repository whose current form it does not fit. Fix the new code, or the declaration."
		return short, full, help
	}
	full = subj[1] + " " + obj + " (change " + string(l) + ", relation " + string(r) + "). " +
		"The diff changed the declaration but left this dependent site as it was, " +
		"so the site may no longer compile or may no longer behave as intended."
	help = "Ripple found that a declaration changed by this diff (the seed, named at the end of the message) " +
		"has a dependent site the diff did not update. " +
		"Update the site to agree with the change, or revert the change. " +
		"The related locations and the code flow lead from the seed to the site. " +
		"An error means the site is provably inconsistent with the change; " +
		"a warning or note means it is related to the change and may be impacted."
	return short, full, help
}
