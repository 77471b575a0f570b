package findings

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/report"
)

// TestSchemaMirrorsReport: every key this package reads is a key
// report.JSON writes, at the same place. The action reads the hook's JSON
// across a process boundary (the fork-safe two-phase run), so the two
// type sets must not drift: a field renamed on one side fails here.
func TestSchemaMirrorsReport(t *testing.T) {
	res := Result()
	f := res.Findings[0]
	f.Missing = "types"
	f.Also = []model.Site{{Path: "q/t.go", Line: 8}}
	res.Diagnostics = []model.Diagnostic{{Path: "x.go", Line: 1, Message: "does not parse"}}
	res.PrecisionNotes = []string{"no types"}
	f.Fix = &model.Fix{Description: "add c", Edits: []model.TextEdit{{Path: f.Site.Path, StartLine: f.Site.Line, EndLine: f.Site.Line, StartCol: 1, EndCol: 1, NewText: ""}}}
	var buf bytes.Buffer
	if err := report.JSON(&buf, res, report.Options{}); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	check(t, "report", reflect.TypeOf(Report{}), doc)
}

// check walks typ's json keys through v, the decoded report.
func check(t *testing.T, where string, typ reflect.Type, v any) {
	t.Helper()
	for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
		typ = typ.Elem()
		if arr, ok := v.([]any); ok {
			if len(arr) == 0 {
				t.Errorf("%s: the report wrote no element to check", where)
				return
			}
			v = arr[0]
		}
	}
	if typ.Kind() != reflect.Struct {
		return
	}
	obj, ok := v.(map[string]any)
	if !ok {
		t.Errorf("%s: the report wrote %T, the action reads an object", where, v)
		return
	}
	for i := range typ.NumField() {
		fld := typ.Field(i)
		key, _, _ := strings.Cut(fld.Tag.Get("json"), ",")
		if key == "" || key == "-" {
			continue
		}
		sub, ok := obj[key]
		if !ok {
			t.Errorf("%s.%s: read by the action, not written by report.JSON", where, key)
			continue
		}
		check(t, where+"."+key, fld.Type, sub)
	}
}
