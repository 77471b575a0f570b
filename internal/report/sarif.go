package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ripple-dev/ripple/internal/model"
)

const (
	sarifSchema    = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion   = "2.1.0"
	informationURI = "https://github.com/ripple-dev/ripple"
	srcRoot        = "SRCROOT"
	fingerprintKey = "rippleFingerprint/v1"
)

// SARIF writes the result as a SARIF 2.1.0 log with one run: one result
// per reported finding (levels error, warning and note; never consistent
// or switched-off findings, even with o.Verbose), one reporting
// descriptor per rule used, and diagnostics as tool execution
// notifications. Columns are converted to Unicode code points
// (run.columnKind "unicodeCodePoints"); artifact URIs are relative to
// the base URI SRCROOT.
func SARIF(w io.Writer, r *model.Result, o Options) error {
	p := prepare(r)
	name := o.ToolName
	if name == "" {
		name = "ripple"
	}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           name,
			Version:        o.ToolVersion,
			InformationURI: informationURI,
			Rules:          []sarifRule{},
		}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: true}},
		ColumnKind:  "unicodeCodePoints",
		Results:     []sarifResult{},
	}
	if o.RepoRoot != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLocation{srcRoot: {URI: rootURI(o.RepoRoot)}}
	}
	if p.r.Base != "" || p.r.Head != "" {
		run.Properties = map[string]string{"base": p.r.Base, "head": p.r.Head}
	}

	findings := perSite(p, p.visible(false))
	ruleIndex := sarifRules(&run.Tool.Driver, findings)
	for _, f := range findings {
		run.Results = append(run.Results, sarifResultOf(p, f, ruleIndex[f.Rule()]))
	}
	for _, d := range p.r.Diagnostics {
		n := sarifNotification{Level: "warning", Message: sarifMessage{Text: d.Message}}
		if d.Path != "" {
			n.Locations = []sarifLocation{{PhysicalLocation: physical(d.Path, d.Line, 0, "")}}
		}
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications, n)
	}
	return encode(w, sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

// sarifRules adds one reporting descriptor per rule of findings, sorted
// by id, and returns each rule's index. The default level of a rule is the
// most severe level it is reported with in this run.
func sarifRules(d *sarifDriver, findings []*model.Finding) map[string]int {
	levels := map[string]model.Level{}
	first := map[string]*model.Finding{}
	for _, f := range findings {
		id := f.Rule()
		if first[id] == nil {
			first[id] = f
		}
		if f.Level.Rank() > levels[id].Rank() {
			levels[id] = f.Level
		}
	}
	ids := make([]string, 0, len(first))
	for id := range first {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	index := map[string]int{}
	for i, id := range ids {
		var label model.Label
		if c := first[id].Change; c != nil {
			label = c.Label
		}
		short, full, help := ruleText(label, first[id].Relation)
		d.Rules = append(d.Rules, sarifRule{
			ID:                   id,
			ShortDescription:     sarifMessage{Text: short},
			FullDescription:      sarifMessage{Text: full},
			DefaultConfiguration: sarifConfiguration{Level: string(levels[id])},
			Help:                 sarifMessage{Text: help},
			Properties:           map[string]any{"tags": tags("change-impact", string(label), string(first[id].Relation))},
		})
		index[id] = i
	}
	return index
}

// tags drops empty and repeated tags (SARIF wants unique strings).
func tags(ts ...string) []string {
	var out []string
	for _, t := range ts {
		if t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// sarifResultOf is finding f as a SARIF result: its location (where code
// scanning can show it), its seed and trail as related locations and a
// code flow, and the properties the Action reads back.
func sarifResultOf(p *prepared, f *model.Finding, ruleIndex int) sarifResult {
	sum := heading(f.Change)
	b, base := seed(f.Change)
	bRev := seedRev(f.Change)
	res := sarifResult{
		RuleID:    f.Rule(),
		RuleIndex: ruleIndex,
		Level:     string(f.Level),
		Message:   sarifMessage{Text: f.Message + elsewhere(f.Site.Rev, f.Merged, f.Site.Path, f.Site.Line) + " (seed: " + sum + ")"},
		Locations: []sarifLocation{{
			PhysicalLocation: physical(f.Site.Path, f.Site.Line, f.Site.Col, f.Site.Text),
		}},
		PartialFingerprints: map[string]string{fingerprintKey: p.fp[f]},
		Properties: sarifProperties{
			Precision: string(f.Precision),
			Relation:  string(f.Relation),
			Verdict:   f.Verdict.String(),
		},
	}
	if f.Site.Rev != "" {
		// Code scanning resolves a result's location against the head
		// checkout, which does not have the site's line (it is a line of
		// the branch merged with): the result stands at the change's
		// declaration when the head has it, else at the first line of the
		// site's file (the message says where the site is)
		res.Locations[0].PhysicalLocation = physical(f.Site.Path, 1, 0, "")
		if b != nil && !base && bRev == "" {
			res.Locations[0].PhysicalLocation = physical(b.Path, b.NameLine, 0, "")
		}
	}
	if f.Merged != nil {
		res.Properties.MergedWith = f.Merged.Ref
	}
	if f.Change != nil {
		res.Properties.Label = string(f.Change.Label)
	}
	if ll, ok := logical(f.Site.Enclosing); ok {
		res.Locations[0].LogicalLocations = []sarifLogicalLocation{ll}
	}

	var flow []sarifThreadFlowLocation
	res.RelatedLocations, flow = relatedLocations(f, sum)
	if f.Missing != "" {
		res.Properties.Missing = f.Missing
		res.Message.Text = f.Message + " (without " + f.Missing + ")" + elsewhere(f.Site.Rev, f.Merged, f.Site.Path, f.Site.Line) + " (seed: " + sum + ")"
	}
	if n := p.group[f]; n > 1 {
		res.Properties.Also = n - 1
		res.Message.Text += fmt.Sprintf("; one of %d sites for the same reason", n)
	}
	if len(f.Trail) > 0 {
		site := sarifLocation{
			PhysicalLocation: res.Locations[0].PhysicalLocation,
			Message:          &sarifMessage{Text: "impacted site (" + string(f.Relation) + "): " + f.Message},
		}
		if f.Site.Rev != "" {
			site.PhysicalLocation = nil
			site.Message.Text += elsewhere(f.Site.Rev, f.Merged, f.Site.Path, f.Site.Line)
			site.LogicalLocations = res.Locations[0].LogicalLocations
		}
		flow = append(flow, sarifThreadFlowLocation{Location: site})
		res.CodeFlows = []sarifCodeFlow{{ThreadFlows: []sarifThreadFlow{{Locations: flow}}}}
	}
	return res
}

// relatedLocations are a result's related locations, the seed and then
// each step of the trail, and the code flow that walks the same
// locations (the site, its end, is added by the caller). sum is the
// seed's heading.
func relatedLocations(f *model.Finding, sum string) (related []sarifLocation, flow []sarifThreadFlowLocation) {
	b, base := seed(f.Change)
	bRev := seedRev(f.Change)
	if b != nil {
		loc := sarifLocation{ID: len(related) + 1, Message: &sarifMessage{Text: "seed: " + sum}}
		switch {
		case base:
			// Code scanning resolves every physical location against the
			// head checkout, where a deleted declaration's file and line
			// are gone or hold other code: name it logically and say
			// where it was.
			loc.Message.Text += fmt.Sprintf(" (was at %s:%d in the base revision)", b.Path, b.NameLine)
			if ll, ok := logical(b.Display); ok {
				loc.LogicalLocations = []sarifLogicalLocation{ll}
			}
		case bRev != "":
			loc.Message.Text += elsewhere(bRev, f.Change.Merged, b.Path, b.NameLine)
			if ll, ok := logical(b.Display); ok {
				loc.LogicalLocations = []sarifLogicalLocation{ll}
			}
		default:
			loc.PhysicalLocation = physical(b.Path, b.NameLine, 0, "")
		}
		related = append(related, loc)
		flow = append(flow, sarifThreadFlowLocation{Location: withoutID(loc)})
	}
	for i, s := range f.Trail {
		if i == 0 && b != nil && s.Path == b.Path && s.Line == b.NameLine {
			continue // the trail starts at the seed itself
		}
		msg := s.Relation.Phrase() + " " + s.Display
		loc := sarifLocation{ID: len(related) + 1, Message: &sarifMessage{Text: msg}}
		if s.Rev == "" {
			loc.PhysicalLocation = physical(s.Path, s.Line, 0, "")
		} else {
			loc.Message.Text += elsewhere(s.Rev, f.Merged, s.Path, s.Line)
			if ll, ok := logical(s.Display); ok {
				loc.LogicalLocations = []sarifLogicalLocation{ll}
			}
		}
		related = append(related, loc)
		flow = append(flow, sarifThreadFlowLocation{Location: withoutID(loc)})
	}
	return related, flow
}

// elsewhere says where a location is when the head does not have it
// (" (at origin/main:a.go:12)"), "" when it does.
func elsewhere(rev string, m *model.Merged, path string, line int) string {
	if rev == "" {
		return ""
	}
	return " (at " + at(rev, m, path, line) + ")"
}

func withoutID(l sarifLocation) sarifLocation {
	l.ID = 0
	return l
}

// physical is a location in the head state: path relative to SRCROOT,
// and when known the line, the column converted to code points, and the
// trimmed line as the snippet.
func physical(path string, line, col int, text string) *sarifPhysicalLocation {
	if path == "" {
		return nil
	}
	pl := &sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{URI: uriPath(path), URIBaseID: srcRoot}}
	if line > 0 {
		reg := &sarifRegion{StartLine: line}
		if c, ok := codePointColumn(text, col); ok {
			reg.StartColumn = c
		}
		if t := strings.TrimSpace(text); t != "" {
			reg.Snippet = &sarifMessage{Text: t}
		}
		pl.Region = reg
	}
	return pl
}

// logical turns "func run" or "method (*Terminal).Loop" into a SARIF
// logical location.
func logical(enclosing string) (sarifLogicalLocation, bool) {
	enclosing = strings.TrimSpace(enclosing)
	if enclosing == "" {
		return sarifLogicalLocation{}, false
	}
	kinds := map[string]string{
		"func": "function", "function": "function", "method": "function", "constructor": "function",
		"type": "type", "interface": "type", "class": "type", "struct": "type",
		"var": "variable", "const": "variable", "field": "member",
		"package": "namespace", "module": "module",
	}
	// the last of the leading kind words names the kind: "interface
	// method API.Legacy" is a function
	kind, rest := "", enclosing
	for {
		word, after, _ := strings.Cut(rest, " ")
		k, ok := kinds[word]
		if !ok || after == "" {
			break
		}
		kind, rest = k, after
	}
	if kind != "" {
		return sarifLogicalLocation{Name: rest, FullyQualifiedName: enclosing, Kind: kind}, true
	}
	return sarifLogicalLocation{Name: enclosing, FullyQualifiedName: enclosing}, true
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	Invocations        []sarifInvocation                `json:"invocations"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                           `json:"columnKind"`
	Results            []sarifResult                    `json:"results"`
	Properties         map[string]string                `json:"properties,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	ShortDescription     sarifMessage       `json:"shortDescription"`
	FullDescription      sarifMessage       `json:"fullDescription"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
	Help                 sarifMessage       `json:"help"`
	Properties           map[string]any     `json:"properties,omitempty"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	CodeFlows           []sarifCodeFlow   `json:"codeFlows,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          sarifProperties   `json:"properties"`
}

type sarifProperties struct {
	Precision string `json:"precision"`
	Relation  string `json:"relation"`
	Verdict   string `json:"verdict"`
	Label     string `json:"label"`
	// Missing says what the verdict was established without; Also counts
	// the other sites of the aggregate the result belongs to (each is a
	// result of its own: perSite).
	Missing string `json:"missing,omitempty"`
	Also    int    `json:"also,omitempty"`
	// MergedWith names the branch the head must be merged with for the
	// site to be inconsistent (the merge check).
	MergedWith string `json:"mergedWith,omitempty"`
}

type sarifLocation struct {
	ID               int                    `json:"id,omitempty"`
	PhysicalLocation *sarifPhysicalLocation `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
	Message          *sarifMessage          `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int           `json:"startLine"`
	StartColumn int           `json:"startColumn,omitempty"`
	Snippet     *sarifMessage `json:"snippet,omitempty"`
}

type sarifLogicalLocation struct {
	Name               string `json:"name,omitempty"`
	FullyQualifiedName string `json:"fullyQualifiedName,omitempty"`
	Kind               string `json:"kind,omitempty"`
}

type sarifCodeFlow struct {
	ThreadFlows []sarifThreadFlow `json:"threadFlows"`
}

type sarifThreadFlow struct {
	Locations []sarifThreadFlowLocation `json:"locations"`
}

type sarifThreadFlowLocation struct {
	Location sarifLocation `json:"location"`
}

// perSite turns each aggregate (Finding.Also) back into one finding per
// site. A SARIF consumer shows a result at its first location only:
// GitHub code scanning makes one alert of it, and renders related
// locations only where the message links to them, so the other sites of
// an aggregate, as related locations, were shown nowhere, could not be
// dismissed one by one, and never reached a site's line in a pull
// request. Text and JSON keep the aggregate (one finding to read); in
// SARIF each result of a group says how many sites it has
// (properties.also counts the others). The other sites' trails end at
// their own enclosing declaration; their fingerprints are computed as
// every finding's.
func perSite(p *prepared, fs []*model.Finding) []*model.Finding {
	if p.group == nil {
		p.group = map[*model.Finding]int{}
	}
	var out []*model.Finding
	seen := map[string]int{} // occurrences of each fingerprint base, the reported findings' first
	for _, f := range p.findings {
		seen[fingerprint(f, 1)]++
	}
	for _, f := range fs {
		out = append(out, f)
		if len(f.Also) == 0 {
			continue
		}
		p.group[f] = len(f.Also) + 1
		for _, a := range f.Also {
			g := *f
			g.Site, g.Also = a, nil
			if k := len(f.Trail); k > 0 {
				g.Trail = append([]model.Step(nil), f.Trail...)
				last := &g.Trail[k-1]
				last.Display, last.Path, last.Line, last.Rev = a.Enclosing, a.Path, a.Line, a.Rev
				if last.Display == "" {
					last.Display = "file scope"
				}
			}
			base := fingerprint(&g, 1)
			seen[base]++
			p.fp[&g] = fingerprint(&g, seen[base])
			p.group[&g] = len(f.Also) + 1
			out = append(out, &g)
		}
	}
	return out
}
