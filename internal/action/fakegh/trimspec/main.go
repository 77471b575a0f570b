// Command trimspec cuts GitHub's REST API OpenAPI description down to the
// operations the action calls, for fakegh to validate requests and
// responses against (fakegh/testdata/README.md says where the full
// description comes from and how to run this).
//
// It keeps, for each listed operation id, its path item with only that
// method, and every component the kept operations reach through $ref,
// transitively. It drops examples (media type "examples" and
// components/examples: documentation only, never validated) and the
// x-webhooks section; everything else is copied as it is, so that the
// trimmed description says exactly what the full one says about the
// operations kept.
//
//	go run ./internal/action/fakegh/trimspec -in api.github.com.json -out internal/action/fakegh/testdata/api.github.com.trimmed.json
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
)

// Operations is every REST operation the action sends (internal/action:
// ghapi, review, fixmode), by operation id.
var Operations = []string{
	"pulls/get",
	"pulls/list",
	"pulls/create",
	"pulls/list-files",
	"pulls/list-review-comments",
	"pulls/update-review-comment",
	"pulls/list-reviews",
	"pulls/create-review",
}

func main() {
	in := flag.String("in", "", "the full description (descriptions/api.github.com/api.github.com.json)")
	out := flag.String("out", "", "where to write the trimmed description")
	flag.Parse()
	if *in == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: trimspec -in api.github.com.json -out trimmed.json")
		os.Exit(2)
	}
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "trimspec:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	trimmed, err := trim(doc, Operations)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(trimmed); err != nil {
		return err
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

// trim keeps the operations ops of doc and what they reference.
func trim(doc map[string]any, ops []string) (map[string]any, error) {
	paths, _ := doc["paths"].(map[string]any)
	kept := map[string]any{}
	found := map[string]bool{}
	for p, item := range paths {
		item, _ := item.(map[string]any)
		for method, op := range item {
			op, ok := op.(map[string]any)
			if !ok {
				continue
			}
			id, _ := op["operationId"].(string)
			if !slices.Contains(ops, id) {
				continue
			}
			found[id] = true
			k, _ := kept[p].(map[string]any)
			if k == nil {
				k = map[string]any{}
				// path-level fields (summary, shared parameters) stay
				for f, v := range item {
					if _, isOp := v.(map[string]any); !isOp {
						k[f] = v
					}
				}
				kept[p] = k
			}
			k[method] = op
		}
	}
	for _, id := range ops {
		if !found[id] {
			return nil, fmt.Errorf("operation %s is not in the description", id)
		}
	}
	dropExamples(kept)

	// components reached from the kept paths, transitively
	comps, _ := doc["components"].(map[string]any)
	outComps := map[string]any{}
	queue := refs(kept)
	seen := map[string]bool{}
	for len(queue) > 0 {
		ref := queue[0]
		queue = queue[1:]
		if seen[ref] {
			continue
		}
		seen[ref] = true
		parts := strings.Split(strings.TrimPrefix(ref, "#/components/"), "/")
		if !strings.HasPrefix(ref, "#/components/") || len(parts) != 2 {
			return nil, fmt.Errorf("unsupported $ref %q", ref)
		}
		kind, name := parts[0], unescape(parts[1])
		if kind == "examples" {
			continue
		}
		section, _ := comps[kind].(map[string]any)
		v, ok := section[name]
		if !ok {
			return nil, fmt.Errorf("$ref %q names nothing", ref)
		}
		dropExamples(v)
		m, _ := outComps[kind].(map[string]any)
		if m == nil {
			m = map[string]any{}
			outComps[kind] = m
		}
		m[name] = v
		queue = append(queue, refs(v)...)
	}
	out := map[string]any{}
	for _, k := range []string{"openapi", "info", "servers", "externalDocs"} {
		if v, ok := doc[k]; ok {
			out[k] = v
		}
	}
	out["paths"] = kept
	out["components"] = outComps
	return out, nil
}

// refs lists the $ref values under v.
func refs(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		if r, ok := v["$ref"].(string); ok {
			out = append(out, r)
		}
		for _, x := range v {
			out = append(out, refs(x)...)
		}
	case []any:
		for _, x := range v {
			out = append(out, refs(x)...)
		}
	}
	return out
}

// dropExamples removes the "examples" maps of media types (objects with
// a "schema"), which only document.
func dropExamples(v any) {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v["schema"]; ok {
			delete(v, "examples")
		}
		for _, x := range v {
			dropExamples(x)
		}
	case []any:
		for _, x := range v {
			dropExamples(x)
		}
	}
}

// unescape undoes JSON pointer escaping (RFC 6901).
func unescape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}
