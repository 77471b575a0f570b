package report

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/model"
)

// fixture is a hand-made Result the golden tests write in every format.
type fixture struct {
	name string
	r    func() *model.Result // a fresh result each time (tests shuffle it)
}

func fixtures() []fixture {
	return []fixture{
		{"mixed", mixedResult},
		{"clean", cleanResult},
		{"warnings", warningsResult},
		{"merged", mergedResult},
		{"frontier", frontierResult},
	}
}

// site builds a Site whose column is the byte offset of at in text.
func site(path string, line int, enclosing, text, at string) model.Site {
	col := 0
	if at != "" {
		i := strings.Index(text, at)
		if i < 0 {
			panic("fixture: " + at + " not in " + text)
		}
		col = i + 1
	}
	return model.Site{Path: path, Line: line, Col: col, Enclosing: enclosing, Text: text}
}

func goBlock(kind model.Kind, path, container, name, display string, nameLine, end int) *model.Block {
	return &model.Block{
		Lang: "go", Kind: kind, Path: path, Package: "example.com/app/" + strings.Split(path, "/")[0],
		Container: container, Name: name, Display: display,
		Span: model.Span{StartLine: nameLine, EndLine: end}, NameLine: nameLine,
	}
}

// mixedResult: a signature change with three call-site errors, a
// duplicate, a warning reached through a two-step trail and a consistent
// caller; a field rename with uses and an instantiation; a body change
// with only consistent findings; an added type without findings;
// diagnostics and a precision note. Sites include a non-ASCII line, a
// path with spaces and a line too long for a terminal.
func mixedResult() *model.Result {
	do := &model.Change{
		Label:   model.MMS,
		Old:     goBlock(model.KindMethod, "client/client.go", "Client", "Do", "func (*Client).Do", 40, 58),
		New:     goBlock(model.KindMethod, "client/client.go", "Client", "Do", "func (*Client).Do", 42, 61),
		Details: []string{"parameter ctx context.Context added"},
	}
	hidden := &model.Change{
		Label:   model.DF,
		Old:     goBlock(model.KindField, "config/options.go", "Options", "Hidden", "field Options.Hidden", 12, 12),
		New:     goBlock(model.KindField, "config/options.go", "Options", "Secret", "field Options.Secret", 12, 12),
		Details: []string{"renamed to Secret"},
	}
	parse := &model.Change{
		Label:   model.MMB,
		Old:     goBlock(model.KindFunc, "parse/parse.go", "", "parse", "func parse", 88, 120),
		New:     goBlock(model.KindFunc, "parse/parse.go", "", "parse", "func parse", 88, 124),
		Escapes: []string{"return values", "errors"},
	}
	widget := &model.Change{
		Label: model.AC,
		New:   goBlock(model.KindType, "ui/widget.go", "", "Widget", "type Widget", 5, 9),
	}

	callErr := "call passes 1 argument; (*Client).Do now takes 2"
	main17 := site("cmd/get/main.go", 17, "func main", "\tresp, err := c.Do(req)", "c.Do")
	findings := []*model.Finding{
		{Change: hidden, Relation: model.UsedBy, Verdict: model.Inconsistent, Level: model.LevelError, Precision: model.PrecisionTypes,
			Site:    site("ui/render.go", 77, "func render", "\tif opts.Hidden {", "opts.Hidden"),
			Message: "field Options.Hidden no longer exists (renamed to Secret)",
			Trail:   []model.Step{{Relation: model.UsedBy, Display: "func render", Path: "ui/render.go", Line: 70}}},
		{Change: do, Relation: model.CalledBy, Verdict: model.MayBeImpacted, Level: model.LevelWarning, Precision: model.PrecisionName,
			Site:    site("cmd/crawl/crawl.go", 44, "func crawl", "\tpages := fetchAll(ctx, urls)", "fetchAll"),
			Message: "calls fetchAll, which reaches (*Client).Do through (*Client).Get",
			Trail: []model.Step{
				{Display: "func (*Client).Do", Path: "client/client.go", Line: 40},
				{Relation: model.CalledBy, Display: "func (*Client).Get", Path: "client/client.go", Line: 70},
				{Relation: model.CalledBy, Display: "func fetchAll", Path: "cmd/crawl/crawl.go", Line: 30},
			}},
		{Change: do, Relation: model.CalledBy, Verdict: model.Inconsistent, Level: model.LevelError, Precision: model.PrecisionTypes,
			Site:    site("tools/my dir/run tool.go", 5, "func run", "\t_, _ = c.Do(nil) // retry once with the default timeout; this comment goes on and on, well past the width of any reasonable terminal window", "c.Do"),
			Message: callErr,
			Trail:   []model.Step{{Relation: model.CalledBy, Display: "func run", Path: "tools/my dir/run tool.go", Line: 3}}},
		{Change: parse, Relation: model.CalledBy, Verdict: model.Consistent, Level: model.LevelNone, Precision: model.PrecisionSyntax,
			Site:    site("parse/parse_test.go", 15, "func TestParse", "\tgot, err := parse(src)", "parse("),
			Message: "checks the error result"},
		{Change: do, Relation: model.CalledBy, Verdict: model.Inconsistent, Level: model.LevelError, Precision: model.PrecisionTypes,
			Site:    main17,
			Message: callErr,
			Trail:   []model.Step{{Relation: model.CalledBy, Display: "func main", Path: "cmd/get/main.go", Line: 9}}},
		{Change: hidden, Relation: model.InstantiatedBy, Verdict: model.Inconsistent, Level: model.LevelError, Precision: model.PrecisionTypes,
			Site:    site("config/defaults.go", 9, "var Defaults", "var Defaults = Options{Hidden: false, Verbose: true}", "Hidden:"),
			Message: "composite literal sets Hidden; the field is now Secret"},
		{Change: do, Relation: model.CalledBy, Verdict: model.Inconsistent, Level: model.LevelError, Precision: model.PrecisionTypes,
			Site:    site("internal/sync/worker.go", 88, "method (*Worker).flush", "\t\tlog.Printf(\"größe %d → %v\", n, w.client.Do(req))", "w.client.Do"),
			Message: callErr},
		// A duplicate of the main.go finding at a lower level: written once, as an error.
		{Change: do, Relation: model.CalledBy, Verdict: model.MayBeImpacted, Level: model.LevelWarning, Precision: model.PrecisionSyntax,
			Site: main17, Message: callErr},
		{Change: do, Relation: model.CalledBy, Verdict: model.Consistent, Level: model.LevelNone, Precision: model.PrecisionTypes,
			Site:    site("client/retry.go", 23, "method (*Client).retry", "\treturn c.Do(ctx, req)", "c.Do"),
			Updated: true},
		{Change: hidden, Relation: model.UsedBy, Verdict: model.Inconsistent, Level: model.LevelError, Precision: model.PrecisionTypes,
			Site:    site("config/load.go", 30, "func Load", "\to.Hidden = env.Bool(\"HIDDEN\") && !o.Public", "o.Hidden"),
			Message: "field Options.Hidden no longer exists (renamed to Secret)"},
		{Change: parse, Relation: model.CalledBy, Verdict: model.Consistent, Level: model.LevelNone, Precision: model.PrecisionTypes,
			Site:    site("parse/main.go", 31, "func Main", "\tast, err := parse(os.Stdin)", "parse("),
			Updated: true},
	}
	return &model.Result{
		Base:     "4f1c2a9e0b7d",
		Head:     "9a8b7c6d5e4f",
		Changes:  []*model.Change{do, hidden, parse, widget},
		Findings: findings,
		Diagnostics: []model.Diagnostic{
			{Path: "internal/gen/broken.go", Line: 3, Message: "does not parse: expected ';', found 'EOF'"},
			{Path: "assets/logo.png", Message: "binary file skipped"},
			{Message: "package example.com/app/internal/gen not type-checked"},
		},
		PrecisionNotes: []string{"cmd/crawl matched by name only: its package does not type-check"},
		Stats:          model.Stats{ChangedFiles: 6, ParsedFiles: 41, TypedPackages: 5, Millis: 3240},
	}
}

// cleanResult: every impacted site was updated in the diff.
func cleanResult() *model.Result {
	sum := &model.Change{
		Label:   model.MMS,
		Old:     goBlock(model.KindFunc, "mathx/sum.go", "", "Sum", "func Sum", 10, 18),
		New:     goBlock(model.KindFunc, "mathx/sum.go", "", "Sum", "func Sum", 10, 18),
		Details: []string{"result type changed from int to int64"},
	}
	timeout := &model.Change{
		Label: model.AF,
		New:   goBlock(model.KindField, "config/config.go", "Config", "Timeout", "field Config.Timeout", 21, 21),
	}
	wrap := &model.Change{
		Label:   model.MMS,
		Old:     goBlock(model.KindFunc, "mathx/total.go", "", "Total", "func Total", 4, 9),
		New:     goBlock(model.KindFunc, "mathx/total.go", "", "Total", "func Total", 4, 9),
		Details: []string{"result type must follow func Sum"},
		Derived: true,
		Cause:   sum,
	}
	return &model.Result{
		Base:    "main",
		Head:    "",
		Changes: []*model.Change{sum, timeout, wrap},
		Findings: []*model.Finding{
			{Change: sum, Relation: model.CalledBy, Verdict: model.Consistent, Level: model.LevelNone, Precision: model.PrecisionTypes,
				Site:    site("report/totals.go", 40, "func totals", "\tvar n int64 = mathx.Sum(xs)", "mathx.Sum"),
				Updated: true},
			{Change: sum, Relation: model.CalledBy, Verdict: model.Consistent, Level: model.LevelNone, Precision: model.PrecisionTypes,
				Site:    site("mathx/total.go", 6, "func Total", "\treturn Sum(xs)", "Sum("),
				Message: "returns the result unchanged", Updated: true},
			{Change: wrap, Relation: model.CalledBy, Verdict: model.Consistent, Level: model.LevelNone, Precision: model.PrecisionTypes,
				Site:    site("cmd/sum/main.go", 12, "func main", "\tfmt.Println(mathx.Total(os.Args[1:]))", "mathx.Total"),
				Message: "passes the result to fmt.Println"},
		},
		Stats: model.Stats{ChangedFiles: 3, ParsedFiles: 12, TypedPackages: 2, Millis: 420},
	}
}

// warningsResult: a deleted method with implementations that may be
// impacted, a name-only note, and a finding switched off by the
// configuration (level none, verdict inconsistent).
func warningsResult() *model.Result {
	legacy := &model.Change{
		Label: model.DM,
		Old:   goBlock(model.KindIfaceMethod, "client/api.go", "API", "Legacy", "interface method API.Legacy", 7, 7),
	}
	return &model.Result{
		Base:    "origin/main",
		Head:    "HEAD",
		Changes: []*model.Change{legacy},
		Findings: []*model.Finding{
			{Change: legacy, Relation: model.OverriddenBy, Verdict: model.MayBeImpacted, Level: model.LevelWarning, Precision: model.PrecisionSyntax,
				Site:    site("mock/client.go", 31, "method (*Mock).Legacy", "func (m *Mock) Legacy() error {", "Legacy"),
				Message: "implements API.Legacy, which was deleted; the method may now be dead code"},
			{Change: legacy, Relation: model.CalledBy, Verdict: model.MayBeImpacted, Level: model.LevelNote, Precision: model.PrecisionName,
				Site:    site("scripts/tool.go", 8, "func main", "\tx.Legacy()", "x.Legacy"),
				Message: "calls a method named Legacy; the receiver's type is unknown"},
			{Change: legacy, Relation: model.OverriddenBy, Verdict: model.MayBeImpacted, Level: model.LevelWarning, Precision: model.PrecisionSyntax,
				Site:    site("fake/fake.go", 12, "method fakeAPI.Legacy", "func (fakeAPI) Legacy() error { return nil }", "Legacy"),
				Message: "implements API.Legacy, which was deleted; the method may now be dead code"},
			{Change: legacy, Relation: model.CalledBy, Verdict: model.Inconsistent, Level: model.LevelNone, Precision: model.PrecisionTypes,
				Site:    site("examples/old/main.go", 14, "func main", "\tapi.Legacy()", "api.Legacy"),
				Message: "calls API.Legacy, which was deleted"},
		},
		Stats: model.Stats{ChangedFiles: 1, ParsedFiles: 9, TypedPackages: 3, Millis: 85},
	}
}

// mergedResult: a check with the merge check's findings added
// (check.MergeResult.Into): one of the head's own sites; a caller
// origin/main added of a function the head changed (a line only
// origin/main has, with another such site aggregated); and a call the
// head added to a function origin/main changed (a change origin/main
// made, declared on its lines).
func mergedResult() *model.Result {
	const tip = "2f6c1a9e0b7d4c3f8e5a1b2c3d4e5f60718293a4"
	mergedWith := &model.Merged{Ref: "origin/main", Commit: tip}
	sum := &model.Change{
		Label:   model.MMS,
		Old:     goBlock(model.KindFunc, "calc/sum.go", "", "Sum", "func Sum", 3, 3),
		New:     goBlock(model.KindFunc, "calc/sum.go", "", "Sum", "func Sum", 3, 3),
		Details: []string{"parameter b int added"},
	}
	scale := &model.Change{
		Label:   model.MMS,
		Old:     goBlock(model.KindFunc, "calc/scale.go", "", "Scale", "func Scale", 5, 7),
		New:     goBlock(model.KindFunc, "calc/scale.go", "", "Scale", "func Scale", 9, 11),
		Details: []string{"parameter f float64 added"},
		Merged:  &model.Merged{Ref: "origin/main", Commit: tip, Theirs: true, Rev: tip},
	}
	own := site("app/old.go", 5, "func Old", "func Old() int { return calc.Sum(9) }", "calc.Sum")
	onMain := site("app/b.go", 5, "func B", "func B() int { return calc.Sum(2) }", "calc.Sum")
	onMain.Rev = tip
	alsoOnMain := site("app/c.go", 7, "func C", "	return calc.Sum(x)", "calc.Sum")
	alsoOnMain.Rev = tip
	headCall := site("app/new.go", 8, "func New", "	return calc.Scale(3)", "calc.Scale")
	return &model.Result{
		Base:    "1111111111111111111111111111111111111111",
		Head:    "2222222222222222222222222222222222222222",
		Changes: []*model.Change{sum, scale},
		Findings: []*model.Finding{
			{Change: sum, Relation: model.CalledBy, Verdict: model.Inconsistent, Level: model.LevelError, Precision: model.PrecisionTypes,
				Site: own, Message: "call passes 1 argument; Sum now takes 2",
				Trail: []model.Step{{Display: "func Sum", Path: "calc/sum.go", Line: 3}, {Relation: model.CalledBy, Display: "func Old", Path: "app/old.go", Line: 5}}},
			{Change: sum, Relation: model.CalledBy, Verdict: model.Inconsistent, Level: model.LevelError, Precision: model.PrecisionTypes,
				Site: onMain, Also: []model.Site{alsoOnMain}, Merged: mergedWith,
				Message: "once merged with origin/main: call passes 1 argument; Sum now takes 2",
				Trail:   []model.Step{{Display: "func Sum", Path: "calc/sum.go", Line: 3}, {Relation: model.CalledBy, Display: "func B", Path: "app/b.go", Line: 5, Rev: tip}}},
			{Change: scale, Relation: model.CalledBy, Verdict: model.Inconsistent, Level: model.LevelError, Precision: model.PrecisionSyntax,
				Site: headCall, Merged: mergedWith,
				Message: "once merged with origin/main: call passes 1 argument; Scale now takes 2",
				Trail:   []model.Step{{Display: "func Scale", Path: "calc/scale.go", Line: 9, Rev: tip}, {Relation: model.CalledBy, Display: "func New", Path: "app/new.go", Line: 7}}},
		},
		PrecisionNotes: []string{"merge check: the head merged with origin/main (2f6c1a9e0b7d) was checked: 2 findings appear only once merged"},
		Stats:          model.Stats{ChangedFiles: 2, ParsedFiles: 9, Millis: 410},
	}
}

// frontierResult: a parameter added to Save; its caller persist is an
// error and may take the value from its own callers (a derived change),
// whose calls are the farther frontier: notes, listed with -verbose only
// in text.
func frontierResult() *model.Result {
	save := &model.Change{
		Label:   model.MMS,
		Old:     goBlock(model.KindFunc, "store/store.go", "", "Save", "func Save", 3, 3),
		New:     goBlock(model.KindFunc, "store/store.go", "", "Save", "func Save", 3, 3),
		Details: []string{"parameter table string added"},
	}
	persist := &model.Change{
		Label:   model.MMS,
		Old:     goBlock(model.KindFunc, "service/service.go", "", "persist", "func persist", 5, 5),
		New:     goBlock(model.KindFunc, "service/service.go", "", "persist", "func persist", 5, 5),
		Details: []string{"calls func Save, which may change: may have to take a new value from its callers"},
		Derived: true, Cause: save, Via: model.CalledBy,
	}
	return &model.Result{
		Base:    "4f1c2a9e0b7d",
		Head:    "9a8b7c6d5e4f",
		Changes: []*model.Change{save, persist},
		Findings: []*model.Finding{
			{Change: save, Relation: model.CalledBy, Verdict: model.Inconsistent, Level: model.LevelError, Precision: model.PrecisionSyntax,
				Site:    site("service/service.go", 5, "func persist", "func persist(rows []string) int { return store.Save(rows) }", "store.Save"),
				Message: "call passes 1 argument; Save now takes 2"},
			{Change: persist, Relation: model.CalledBy, Verdict: model.MayFollow, Level: model.LevelNote, Precision: model.PrecisionSyntax,
				Site:    site("service/service.go", 7, "func handle", "func handle(b []string) int { return persist(b) }", "persist("),
				Message: "calls func persist, which must change with func Save"},
			{Change: persist, Relation: model.CalledBy, Verdict: model.MayFollow, Level: model.LevelNote, Precision: model.PrecisionSyntax,
				Site:    site("cmd/tool/main.go", 9, "func main", "\tpersist(nil)", "persist("),
				Message: "calls func persist, which must change with func Save"},
		},
		Stats: model.Stats{Millis: 42},
	}
}
