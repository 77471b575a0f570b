package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/model"
)

// obj and arr walk a decoded JSON document, failing the test on a
// missing or mistyped field.
func obj(t *testing.T, v any, path string) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: want an object, got %T", path, v)
	}
	return m
}

func arr(t *testing.T, v any, path string) []any {
	t.Helper()
	a, ok := v.([]any)
	if !ok {
		t.Fatalf("%s: want an array, got %T", path, v)
	}
	return a
}

func str(t *testing.T, m map[string]any, key, path string) string {
	t.Helper()
	s, ok := m[key].(string)
	if !ok || s == "" {
		t.Fatalf("%s.%s: want a non-empty string, got %#v", path, key, m[key])
	}
	return s
}

func num(t *testing.T, m map[string]any, key, path string) int {
	t.Helper()
	n, ok := m[key].(float64)
	if !ok || n != float64(int(n)) {
		t.Fatalf("%s.%s: want an integer, got %#v", path, key, m[key])
	}
	return int(n)
}

// TestSARIFStructure decodes the SARIF of every fixture, in plain and
// verbose mode, and checks the fields SARIF 2.1.0 and GitHub code
// scanning require, and that results are exactly the reported findings
// with their levels.
func TestSARIFStructure(t *testing.T) {
	for _, fx := range fixtures() {
		for _, verbose := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/verbose=%v", fx.name, verbose), func(t *testing.T) {
				r := fx.r()
				var buf bytes.Buffer
				if err := SARIF(&buf, r, Options{Verbose: verbose, ToolVersion: "1.2.3", RepoRoot: "/src/repo"}); err != nil {
					t.Fatal(err)
				}
				var doc any
				if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
					t.Fatal(err)
				}
				checkSARIF(t, r, obj(t, doc, "$"))
			})
		}
	}
}

func checkSARIF(t *testing.T, r *model.Result, root map[string]any) {
	if got := str(t, root, "$schema", "$"); got != "https://json.schemastore.org/sarif-2.1.0.json" {
		t.Errorf("$schema = %q", got)
	}
	if got := str(t, root, "version", "$"); got != "2.1.0" {
		t.Errorf("version = %q", got)
	}
	runs := arr(t, root["runs"], "runs")
	if len(runs) != 1 {
		t.Fatalf("%d runs, want 1", len(runs))
	}
	run := obj(t, runs[0], "run")
	driver := obj(t, obj(t, run["tool"], "tool")["driver"], "driver")
	if str(t, driver, "name", "driver") != "ripple" || str(t, driver, "version", "driver") != "1.2.3" ||
		str(t, driver, "informationUri", "driver") != "https://github.com/ripple-dev/ripple" {
		t.Errorf("driver = %v", driver)
	}
	if got := str(t, run, "columnKind", "run"); got != "unicodeCodePoints" {
		t.Errorf("columnKind = %q", got)
	}
	base := obj(t, obj(t, run["originalUriBaseIds"], "originalUriBaseIds")["SRCROOT"], "SRCROOT")
	if got := str(t, base, "uri", "SRCROOT"); got != "file:///src/repo/" {
		t.Errorf("SRCROOT = %q", got)
	}
	inv := obj(t, arr(t, run["invocations"], "invocations")[0], "invocations[0]")
	if inv["executionSuccessful"] != true {
		t.Error("invocations[0].executionSuccessful is not true")
	}
	notes, _ := inv["toolExecutionNotifications"].([]any)
	if len(notes) != len(r.Diagnostics) {
		t.Errorf("%d notifications for %d diagnostics", len(notes), len(r.Diagnostics))
	}
	for i, n := range notes {
		p := fmt.Sprintf("notification[%d]", i)
		n := obj(t, n, p)
		if str(t, n, "level", p) != "warning" || str(t, obj(t, n["message"], p), "text", p) != r.Diagnostics[i].Message {
			t.Errorf("%s = %v", p, n)
		}
	}

	rules := arr(t, driver["rules"], "rules")
	ruleIDs := map[string]bool{}
	for i, rule := range rules {
		p := fmt.Sprintf("rules[%d]", i)
		rule := obj(t, rule, p)
		id := str(t, rule, "id", p)
		if ruleIDs[id] {
			t.Errorf("%s: rule %s twice", p, id)
		}
		ruleIDs[id] = true
		for _, k := range []string{"shortDescription", "fullDescription", "help"} {
			str(t, obj(t, rule[k], p+"."+k), "text", p+"."+k)
		}
		lvl := str(t, obj(t, rule["defaultConfiguration"], p), "level", p+".defaultConfiguration")
		if lvl != "error" && lvl != "warning" && lvl != "note" {
			t.Errorf("%s: default level %q", p, lvl)
		}
	}

	// Expected results: the reported findings, deduplicated, one per
	// site of an aggregate.
	want := map[string]model.Level{} // path:line:message → level
	used := map[string]bool{}
	for _, f := range r.Findings {
		if f.Level.Rank() == 0 {
			continue
		}
		for _, s := range append([]model.Site{f.Site}, f.Also...) {
			k := fmt.Sprintf("%s:%d:%d:%s:%s", s.Path, s.Line, s.Col, f.Rule(), f.Message)
			if f.Level.Rank() > want[k].Rank() {
				want[k] = f.Level
			}
		}
		used[f.Rule()] = true
	}
	if len(used) != len(rules) {
		t.Errorf("%d rules, want one for each of %d rules used", len(rules), len(used))
	}

	results := arr(t, run["results"], "results")
	if len(results) != len(want) {
		t.Errorf("%d results, want %d reported findings", len(results), len(want))
	}
	fps := map[string]bool{}
	for i, res := range results {
		p := fmt.Sprintf("results[%d]", i)
		res := obj(t, res, p)
		id := str(t, res, "ruleId", p)
		idx := num(t, res, "ruleIndex", p)
		if idx < 0 || idx >= len(rules) || obj(t, rules[idx], "rule")["id"] != id {
			t.Errorf("%s: ruleIndex %d does not name %s", p, idx, id)
		}
		text := str(t, obj(t, res["message"], p), "text", p+".message")
		if !strings.Contains(text, " (seed: ") {
			t.Errorf("%s: message %q names no seed", p, text)
		}
		locs := arr(t, res["locations"], p+".locations")
		pl := obj(t, obj(t, locs[0], p)["physicalLocation"], p+".physicalLocation")
		al := obj(t, pl["artifactLocation"], p+".artifactLocation")
		uri := str(t, al, "uri", p)
		if str(t, al, "uriBaseId", p) != "SRCROOT" {
			t.Errorf("%s: uriBaseId %v", p, al["uriBaseId"])
		}
		u, err := url.Parse(uri)
		if err != nil || u.IsAbs() || strings.ContainsAny(uri, " \\") {
			t.Errorf("%s: uri %q is not a relative URI reference (%v)", p, uri, err)
		}
		path, _ := url.PathUnescape(uri)
		region := obj(t, pl["region"], p+".region")
		line := num(t, region, "startLine", p+".region")
		if line < 1 {
			t.Errorf("%s: startLine %d", p, line)
		}
		if _, ok := region["startColumn"]; ok && num(t, region, "startColumn", p) < 1 {
			t.Errorf("%s: startColumn %v", p, region["startColumn"])
		}

		lvl := str(t, res, "level", p)
		msg := strings.SplitN(text, " (seed: ", 2)[0]
		// a site the head does not have (the merge check's, on a line of
		// the branch merged with) is named in the message, and the
		// result stands elsewhere in the head
		elsewhere := ""
		if m := atRE.FindStringSubmatch(msg); m != nil {
			elsewhere, msg = m[0], strings.TrimSuffix(msg, m[0])
			path = m[2]
			line, _ = strconv.Atoi(m[3])
		}
		var col int
		for _, f := range r.Findings {
			for _, s := range append([]model.Site{f.Site}, f.Also...) {
				if s.Path == path && s.Line == line && f.Message == msg && f.Rule() == id {
					col = s.Col
				}
			}
		}
		k := fmt.Sprintf("%s:%d:%d:%s:%s", path, line, col, id, msg)
		wantLevel, ok := want[k]
		if !ok {
			t.Errorf("%s: no reported finding %s", p, k)
		} else if lvl != string(wantLevel) {
			t.Errorf("%s: level %q, want %q", p, lvl, wantLevel)
		}
		delete(want, k)

		fp := str(t, obj(t, res["partialFingerprints"], p), "rippleFingerprint/v1", p+".partialFingerprints")
		if len(fp) != 64 || fps[fp] {
			t.Errorf("%s: fingerprint %q not hex SHA-256 or not unique", p, fp)
		}
		fps[fp] = true
		props := obj(t, res["properties"], p+".properties")
		for _, k := range []string{"precision", "relation", "verdict", "label"} {
			str(t, props, k, p+".properties")
		}
		if props["verdict"] == "consistent" {
			t.Errorf("%s: consistent finding in SARIF", p)
		}

		related, _ := res["relatedLocations"].([]any)
		for j, rl := range related {
			rp := fmt.Sprintf("%s.relatedLocations[%d]", p, j)
			if got := num(t, obj(t, rl, rp), "id", rp); got != j+1 {
				t.Errorf("%s: id %d, want %d", rp, got, j+1)
			}
			str(t, obj(t, obj(t, rl, rp)["message"], rp), "text", rp+".message")
		}
		if flows, ok := res["codeFlows"]; ok {
			tf := arr(t, obj(t, arr(t, obj(t, arr(t, flows, p)[0], p)["threadFlows"], p)[0], p)["locations"], p+".threadFlows[0].locations")
			if len(tf) < 2 {
				t.Errorf("%s: code flow of %d locations", p, len(tf))
			}
			last := obj(t, obj(t, tf[len(tf)-1], p)["location"], p)
			switch {
			case elsewhere == "" && !jsonEqual(last["physicalLocation"], pl):
				t.Errorf("%s: code flow does not end at the site", p)
			case elsewhere != "" && (last["physicalLocation"] != nil || !strings.HasSuffix(str(t, obj(t, last["message"], p), "text", p), elsewhere)):
				t.Errorf("%s: code flow does not end at the site%s", p, elsewhere)
			}
		}
	}
	for k := range want {
		t.Errorf("reported finding %s has no result", k)
	}
}

// atRE is how a SARIF message names a site the head does not have.
var atRE = regexp.MustCompile(` \(at ([^:]+):(.+):(\d+)\)(; one of \d+ sites for the same reason)?$`)

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// TestSARIFColumns checks the column conversion end to end on the
// non-ASCII fixture line.
func TestSARIFColumns(t *testing.T) {
	var buf bytes.Buffer
	if err := SARIF(&buf, mixedResult(), Options{}); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	cols := map[string]int{}
	for _, res := range log.Runs[0].Results {
		pl := res.Locations[0].PhysicalLocation
		cols[pl.ArtifactLocation.URI] = pl.Region.StartColumn
	}
	// "\t\tlog.Printf(\"größe %d → %v\", n, w.client.Do(req))": byte 38,
	// code point 34 (ö and ß are 2 bytes, → is 3).
	if got := cols["internal/sync/worker.go"]; got != 34 {
		t.Errorf("worker.go column = %d, want 34", got)
	}
	if got := cols["cmd/get/main.go"]; got != 15 {
		t.Errorf("main.go column = %d, want 15", got)
	}
	if _, ok := cols["tools/my%20dir/run%20tool.go"]; !ok {
		t.Errorf("no result for the path with spaces; URIs: %v", cols)
	}
	if log.Runs[0].OriginalURIBaseIDs != nil {
		t.Error("originalUriBaseIds without RepoRoot")
	}
}
