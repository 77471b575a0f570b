package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/tools/txtar"

	"github.com/ripple-dev/ripple/internal/langtest"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// The SARIF contract: every log this package writes validates against the
// SARIF 2.1.0 JSON schema (testdata/sarif-schema, see its README for the
// source and version) and keeps the rules GitHub code scanning documents
// for uploads ("SARIF support for code scanning" and "SARIF results exceed
// limit" in GitHub's documentation), checked one by one by uploadRules.

// GitHub's hard limits on an uploaded SARIF file (a file over one is
// rejected whole) and the display limits below which nothing is dropped.
const (
	maxRuns             = 20
	maxResultsPerRun    = 25000
	maxRulesPerRun      = 25000
	maxLocationsPerRes  = 1000 // locations and related locations
	maxShownLocations   = 100
	maxThreadFlowLocs   = 10000
	maxShownThreadFlows = 1000
	maxTagsPerRule      = 20
	maxShownTags        = 10
)

var contractSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	f, err := os.Open(filepath.Join("testdata", "sarif-schema", "sarif-schema-2.1.0.json"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, fmt.Errorf("sarif schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat() // uri, uri-reference and date-time are part of the contract
	const loc = "sarif-schema-2.1.0.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, err
	}
	return c.Compile(loc)
})

// validateSARIF fails the test for every way data breaks the contract.
func validateSARIF(t *testing.T, data []byte, repo string) {
	t.Helper()
	for _, e := range sarifViolations(data, repo) {
		t.Error(e)
	}
}

// sarifViolations checks one SARIF log against the schema and GitHub's
// upload rules; repo, when set, is the repository the log describes, and
// every location must then name an existing file and line of it.
func sarifViolations(data []byte, repo string) []error {
	sch, err := contractSchema()
	if err != nil {
		return []error{fmt.Errorf("sarif schema: %w", err)}
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return []error{fmt.Errorf("sarif output is not JSON: %w", err)}
	}
	var errs []error
	if err := sch.Validate(inst); err != nil {
		errs = append(errs, fmt.Errorf("sarif output does not validate against the SARIF 2.1.0 schema:\n%v", err))
	}
	var log sarifLog
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields() // what the writer emits is what the rules below see
	if err := dec.Decode(&log); err != nil {
		return append(errs, fmt.Errorf("decode sarif: %w", err))
	}
	return append(errs, uploadRules(&log, repo)...)
}

// uploadRules lists every way log breaks what GitHub code scanning
// requires of an upload or would drop from it.
func uploadRules(log *sarifLog, repo string) []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if log.Version != "2.1.0" {
		fail("version %q: code scanning takes SARIF 2.1.0 only", log.Version)
	}
	if n := len(log.Runs); n < 1 || n > maxRuns {
		fail("%d runs: code scanning takes 1 to %d", n, maxRuns)
	}
	for ri, run := range log.Runs {
		p := fmt.Sprintf("runs[%d]", ri)
		d := run.Tool.Driver
		if d.Name == "" {
			fail("%s.tool.driver.name is empty: code scanning names the tool by it", p)
		}
		if len(d.Rules) > maxRulesPerRun {
			fail("%s: %d rules, more than %d", p, len(d.Rules), maxRulesPerRun)
		}
		ids := map[string]bool{}
		for i, r := range d.Rules {
			rp := fmt.Sprintf("%s.tool.driver.rules[%d]", p, i)
			if r.ID == "" || ids[r.ID] {
				fail("%s: id %q empty or repeated", rp, r.ID)
			}
			ids[r.ID] = true
			// the alert page shows these three; an empty one shows nothing
			for name, m := range map[string]sarifMessage{"shortDescription": r.ShortDescription, "fullDescription": r.FullDescription, "help": r.Help} {
				if strings.TrimSpace(m.Text) == "" {
					fail("%s.%s.text is empty", rp, name)
				}
			}
			if !slices.Contains([]string{"error", "warning", "note"}, r.DefaultConfiguration.Level) {
				fail("%s.defaultConfiguration.level %q: want error, warning or note", rp, r.DefaultConfiguration.Level)
			}
			tags, _ := r.Properties["tags"].([]any)
			if len(tags) > maxShownTags {
				fail("%s: %d tags; code scanning rejects more than %d and shows %d", rp, len(tags), maxTagsPerRule, maxShownTags)
			}
		}
		bases := map[string]bool{}
		for id, b := range run.OriginalURIBaseIDs {
			bases[id] = true
			u, err := url.Parse(b.URI)
			if err != nil || !u.IsAbs() || !strings.HasSuffix(b.URI, "/") {
				fail("%s.originalUriBaseIds[%s].uri %q: want an absolute URI ending in '/' (SARIF 3.14.14)", p, id, b.URI)
			}
		}
		loc := func(lp string, l sarifLocation, needRegion bool) {
			pl := l.PhysicalLocation
			if pl == nil {
				if needRegion {
					fail("%s: no physicalLocation: code scanning shows no alert without one", lp)
				}
				return
			}
			errs = append(errs, artifactRules(lp, pl, bases, repo)...)
			if needRegion && pl.Region == nil {
				fail("%s: no region: code scanning places an alert by its startLine", lp)
			}
		}
		if n := len(run.Results); n > maxResultsPerRun {
			fail("%s: %d results, more than %d", p, n, maxResultsPerRun)
		}
		fingerprints := map[string]string{}
		for i, r := range run.Results {
			rp := fmt.Sprintf("%s.results[%d]", p, i)
			if r.RuleIndex < 0 || r.RuleIndex >= len(d.Rules) || d.Rules[r.RuleIndex].ID != r.RuleID {
				fail("%s: ruleIndex %d does not name rule %q", rp, r.RuleIndex, r.RuleID)
			}
			if !slices.Contains([]string{"error", "warning", "note"}, r.Level) {
				fail("%s.level %q", rp, r.Level)
			}
			if strings.TrimSpace(r.Message.Text) == "" {
				fail("%s.message.text is empty", rp)
			}
			if len(r.Locations) != 1 {
				fail("%s: %d locations; one, the site, is what code scanning shows", rp, len(r.Locations))
			}
			if n := len(r.Locations) + len(r.RelatedLocations); n > maxShownLocations {
				fail("%s: %d locations; code scanning rejects more than %d and shows %d", rp, n, maxLocationsPerRes, maxShownLocations)
			}
			for j, l := range r.Locations {
				loc(fmt.Sprintf("%s.locations[%d]", rp, j), l, true)
			}
			related := map[int]bool{}
			for j, l := range r.RelatedLocations {
				lp := fmt.Sprintf("%s.relatedLocations[%d]", rp, j)
				if l.ID < 1 || related[l.ID] {
					fail("%s: id %d missing or repeated (messages link related locations by id)", lp, l.ID)
				}
				related[l.ID] = true
				if l.Message == nil || l.Message.Text == "" {
					fail("%s: no message", lp)
				}
				loc(lp, l, false)
			}
			flows := 0
			for _, cf := range r.CodeFlows {
				for _, tf := range cf.ThreadFlows {
					flows += len(tf.Locations)
					for j, l := range tf.Locations {
						loc(fmt.Sprintf("%s.codeFlows.threadFlows.locations[%d]", rp, j), l.Location, false)
					}
				}
			}
			if flows > maxShownThreadFlows {
				fail("%s: %d thread flow locations; code scanning rejects more than %d and shows %d", rp, flows, maxThreadFlowLocs, maxShownThreadFlows)
			}
			// Alerts are matched across runs by partialFingerprints: a
			// missing one makes the upload action compute its own from
			// the file, and two results with one fingerprint become one
			// alert.
			fp := r.PartialFingerprints[fingerprintKey]
			if fp == "" {
				fail("%s: no partialFingerprints[%q]", rp, fingerprintKey)
			} else if other, ok := fingerprints[fp]; ok {
				fail("%s: fingerprint of %s repeated", rp, other)
			}
			fingerprints[fp] = rp
		}
		for _, inv := range run.Invocations {
			for i, n := range inv.ToolExecutionNotifications {
				np := fmt.Sprintf("%s.invocations.toolExecutionNotifications[%d]", p, i)
				if n.Message.Text == "" {
					fail("%s.message.text is empty", np)
				}
				for j, l := range n.Locations {
					loc(fmt.Sprintf("%s.locations[%d]", np, j), l, false)
				}
			}
		}
	}
	return errs
}

// artifactRules checks one physical location: a relative URI under a
// declared base id (code scanning resolves it against the checkout), a
// region with a positive start, and, given the repository, an existing
// file and line whose trimmed text is the snippet.
func artifactRules(p string, pl *sarifPhysicalLocation, bases map[string]bool, repo string) []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(p+": "+format, args...)) }
	al := pl.ArtifactLocation
	u, err := url.Parse(al.URI)
	if err != nil || u.IsAbs() || strings.HasPrefix(al.URI, "/") || al.URI == "" {
		fail("uri %q is not a relative reference to a file of the repository", al.URI)
		return errs
	}
	if al.URIBaseID == "" || len(bases) > 0 && !bases[al.URIBaseID] {
		fail("uriBaseId %q is not declared in originalUriBaseIds", al.URIBaseID)
	}
	reg := pl.Region
	if reg != nil && (reg.StartLine < 1 || reg.StartColumn < 0) {
		fail("region starts at %d:%d", reg.StartLine, reg.StartColumn)
	}
	if repo == "" {
		return errs
	}
	data, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(u.Path)))
	if err != nil {
		fail("uri %q names no file of the repository: %v", al.URI, err)
		return errs
	}
	if reg == nil {
		return errs
	}
	lines := strings.Split(string(data), "\n")
	if reg.StartLine > len(lines) {
		fail("line %d past the end of %s (%d lines)", reg.StartLine, u.Path, len(lines))
		return errs
	}
	line := strings.TrimSuffix(lines[reg.StartLine-1], "\r")
	if reg.Snippet != nil && reg.Snippet.Text != strings.TrimSpace(line) {
		fail("snippet %q is not line %d of %s (%q)", reg.Snippet.Text, reg.StartLine, u.Path, line)
	}
	if n := len([]rune(line)); reg.StartColumn > n+1 {
		fail("column %d past the end of line %d of %s (%d code points)", reg.StartColumn, reg.StartLine, u.Path, n)
	}
	return errs
}

// TestSARIFContractRejects: each way of breaking the contract is caught,
// by the schema or by a rule of GitHub's, in a log that passes unbroken.
func TestSARIFContractRejects(t *testing.T) {
	var buf bytes.Buffer
	if err := SARIF(&buf, mixedResult(), Options{ToolVersion: "1.2.3", RepoRoot: "/src/repo"}); err != nil {
		t.Fatal(err)
	}
	if errs := sarifViolations(buf.Bytes(), ""); len(errs) > 0 {
		t.Fatalf("the unbroken log fails: %v", errs)
	}
	for _, tc := range []struct {
		name, want string
		breakIt    func(run map[string]any, res map[string]any)
	}{
		{"level not in the schema", "schema", func(_, res map[string]any) { res["level"] = "fatal" }},
		{"message without text", "schema", func(_, res map[string]any) { res["message"] = map[string]any{} }},
		{"property unknown to SARIF", "schema", func(_, res map[string]any) { res["severity"] = "high" }},
		{"column zero", "schema", func(_, res map[string]any) { region(res)["startColumn"] = 0 }},
		{"absolute uri", "relative reference", func(_, res map[string]any) { artifact(res)["uri"] = "/src/repo/a.go" }},
		{"undeclared base id", "not declared", func(_, res map[string]any) { artifact(res)["uriBaseId"] = "%SRCROOT%" }},
		{"no location", "locations", func(_, res map[string]any) { res["locations"] = []any{} }},
		{"no fingerprint", "partialFingerprints", func(_, res map[string]any) { res["partialFingerprints"] = map[string]any{} }},
		{"rule index off", "ruleIndex", func(_, res map[string]any) { res["ruleIndex"] = 99 }},
		{"empty help", "help.text", func(run, _ map[string]any) {
			rule(run)["help"] = map[string]any{"text": " "}
		}},
		{"too many tags", "tags", func(run, _ map[string]any) {
			props := rule(run)["properties"].(map[string]any)
			props["tags"] = []any{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}
		}},
		{"repeated fingerprint", "repeated", func(run, res map[string]any) {
			other := run["results"].([]any)[1].(map[string]any)
			other["partialFingerprints"] = res["partialFingerprints"]
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var doc map[string]any
			if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			run := doc["runs"].([]any)[0].(map[string]any)
			tc.breakIt(run, run["results"].([]any)[0].(map[string]any))
			broken, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			errs := sarifViolations(broken, "")
			if !slices.ContainsFunc(errs, func(e error) bool { return strings.Contains(e.Error(), tc.want) }) {
				t.Errorf("no violation mentioning %q; got %v", tc.want, errs)
			}
		})
	}
}

func artifact(res map[string]any) map[string]any {
	return physicalOf(res)["artifactLocation"].(map[string]any)
}

func region(res map[string]any) map[string]any {
	return physicalOf(res)["region"].(map[string]any)
}

func physicalOf(res map[string]any) map[string]any {
	return res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
}

func rule(run map[string]any) map[string]any {
	return run["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any)[0].(map[string]any)
}

// TestSARIFSchemaFixtures holds the hand-made fixtures' SARIF to the
// contract (no repository behind them: files are not resolved).
func TestSARIFSchemaFixtures(t *testing.T) {
	for _, fx := range fixtures() {
		t.Run(fx.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := SARIF(&buf, fx.r(), Options{Verbose: true, ToolVersion: "1.2.3", RepoRoot: "/src/repo"}); err != nil {
				t.Fatal(err)
			}
			validateSARIF(t, buf.Bytes(), "")
		})
	}
}

// TestSARIFContract runs the real check on every scenario of the
// front-ends and internal/check (every change label, relation, verdict
// and precision the front-ends produce, generated files, diagnostics)
// and on this package's testdata/sarif scenarios (aggregated findings),
// writes SARIF as `hook check --format sarif` does, and holds each log to
// the contract with the repository behind it. It then checks that the
// logs covered every level, every relation, aggregates, missing evidence
// and diagnostics, so that losing a scenario cannot silently narrow the
// contract. Under -short it runs one front-end scenario in four (and all
// of its own) and skips the coverage check, which needs them all.
func TestSARIFContract(t *testing.T) {
	var files []string
	for _, g := range []string{"../check/testdata/scenarios/*.txtar", "../lang/*/testdata/scenarios/*.txtar", "testdata/sarif/*.txtar"} {
		m, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no scenarios")
	}
	if testing.Short() {
		sample := files[:0]
		for i, f := range files {
			if i%4 == 0 || strings.HasPrefix(f, "testdata/") {
				sample = append(sample, f)
			}
		}
		files = sample
	}
	seen := map[string]bool{}
	note := func(keys ...string) {
		for _, k := range keys {
			seen[k] = true
		}
	}
	t.Run("scenarios", func(t *testing.T) {
		for _, file := range files {
			t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
				res, dir := runScenario(t, file)
				var buf bytes.Buffer
				if err := SARIF(&buf, res, Options{ToolVersion: "test", RepoRoot: dir}); err != nil {
					t.Fatal(err)
				}
				validateSARIF(t, buf.Bytes(), dir)
				for _, f := range res.Findings {
					if f.Level.Rank() == 0 {
						continue
					}
					note("level:"+string(f.Level), "relation:"+string(f.Relation), "verdict:"+f.Verdict.String(), "precision:"+string(f.Precision))
					if len(f.Also) > 0 {
						note("aggregate")
					}
					if len(f.Trail) > 2 {
						note("trail")
					}
					if strings.HasSuffix(f.Message, "; generated file: regenerate it") {
						note("generated")
					}
				}
				if len(res.Diagnostics) > 0 {
					note("diagnostics")
				}
			})
		}
	})
	if t.Failed() || testing.Short() {
		return
	}
	// (Finding.Missing is not listed: no front-end sets it yet;
	// TestAggregateShown holds a result with one to the contract.)
	want := []string{"level:error", "level:warning", "level:note", "aggregate", "trail", "generated", "diagnostics",
		"verdict:" + model.Inconsistent.String(), "verdict:" + model.MayBeImpacted.String(), "verdict:" + model.MayFollow.String(),
		"precision:" + string(model.PrecisionTypes), "precision:" + string(model.PrecisionSyntax), "precision:" + string(model.PrecisionName)}
	for _, r := range model.Relations {
		want = append(want, "relation:"+string(r))
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("no scenario wrote a SARIF result with %s: the contract no longer covers it", w)
		}
	}
}

// runScenario builds the scenario's repository and runs the check as the
// scenario tests do (internal/langtest).
func runScenario(t *testing.T, file string) (*model.Result, string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sc := testrepo.FromTxtar(t, ar)
	langtest.NeedTools(t, sc.Comment)
	top, err := filepath.EvalSymlinks(sc.Dir) // as git names the top level
	if err != nil {
		t.Fatal(err)
	}
	return langtest.Check(t, sc), top
}
