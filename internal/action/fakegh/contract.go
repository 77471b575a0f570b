package fakegh

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// description is GitHub's REST API description cut down to the operations
// the action calls (testdata/README.md: source, version, how to refresh).
//
//go:embed testdata/api.github.com.trimmed.json
var description []byte

// loadDescription parses and validates the description once. Request
// bodies are closed (additionalProperties false where the description
// leaves it open): GitHub ignores a field it does not know, so a
// misspelt or invented field would silently do nothing there; here it is
// a violation.
var loadDescription = sync.OnceValues(func() (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(description)
	if err != nil {
		return nil, fmt.Errorf("github rest description: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("github rest description: %w", err)
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.RequestBody == nil || op.RequestBody.Value == nil {
				continue
			}
			for _, mt := range op.RequestBody.Value.Content {
				if mt.Schema != nil {
					closeObjects(mt.Schema.Value, map[*openapi3.Schema]bool{})
				}
			}
		}
	}
	return doc, nil
})

// closeObjects sets additionalProperties false on every object schema
// under s that names its properties and says nothing about others.
func closeObjects(s *openapi3.Schema, seen map[*openapi3.Schema]bool) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	if len(s.Properties) > 0 && s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil &&
		len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) == 0 {
		no := false
		s.AdditionalProperties.Has = &no
	}
	for _, p := range s.Properties {
		closeObjects(p.Value, seen)
	}
	if s.Items != nil {
		closeObjects(s.Items.Value, seen)
	}
	for _, group := range [][]*openapi3.SchemaRef{s.AllOf, s.AnyOf, s.OneOf} {
		for _, x := range group {
			closeObjects(x.Value, seen)
		}
	}
}

// contract holds one fake's requests and responses to the description.
type contract struct {
	router routers.Router
}

func newContract(serverURL string) (*contract, error) {
	doc, err := loadDescription()
	if err != nil {
		return nil, err
	}
	d := *doc // the fake's own server instead of api.github.com
	d.Servers = openapi3.Servers{{URL: strings.TrimSuffix(serverURL, "/")}}
	r, err := gorillamux.NewRouter(&d)
	if err != nil {
		return nil, fmt.Errorf("github rest description: %w", err)
	}
	return &contract{router: r}, nil
}

// exchange is one request matched to its operation.
type exchange struct {
	input *openapi3filter.RequestValidationInput
}

func (x *exchange) operation() string {
	if x == nil {
		return "no operation"
	}
	return x.input.Route.Operation.OperationID
}

// request finds r's operation and validates r against it: path and
// query parameters (no query parameter the operation does not declare),
// and the JSON body against the operation's request schema. The body is
// left readable for the handler.
func (c *contract) request(r *http.Request) (*exchange, []string) {
	route, params, err := c.router.FindRoute(r)
	if err != nil {
		return nil, []string{fmt.Sprintf("%s %s: no operation of GitHub's REST description (%v)", r.Method, r.URL.Path, err)}
	}
	x := &exchange{input: &openapi3filter.RequestValidationInput{
		Request: r, PathParams: params, Route: route,
		Options: &openapi3filter.Options{MultiError: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, SkipSettingDefaults: true},
	}}
	var problems []string
	for k := range r.URL.Query() {
		if p := route.Operation.Parameters.GetByInAndName("query", k); p == nil {
			problems = append(problems, fmt.Sprintf("query parameter %q: not a parameter of the operation", k))
		}
	}
	if err := openapi3filter.ValidateRequest(context.Background(), x.input); err != nil {
		problems = append(problems, describe(err)...)
	}
	sort.Strings(problems)
	for i, p := range problems {
		problems[i] = fmt.Sprintf("%s %s (operation %s): %s", r.Method, r.URL.Path, x.operation(), p)
	}
	return x, problems
}

// response completes a JSON body the fake wrote with what the
// operation's response schema requires and the fake does not model (see
// complete), then validates it; it returns the body to send.
func (c *contract) response(x *exchange, status int, header http.Header, body []byte) ([]byte, []string) {
	op := x.input.Route.Operation
	resp := op.Responses.Status(status)
	if resp == nil {
		resp = op.Responses.Default()
	}
	if resp == nil || resp.Value == nil {
		// GitHub documents an operation's usual answers, not every
		// failure (500, 429): nothing to hold an undocumented one to.
		return body, nil
	}
	if mt := resp.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil && len(body) > 0 {
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			return body, []string{fmt.Sprintf("response %d of %s is not JSON: %v", status, op.OperationID, err)}
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(complete(mt.Schema.Value, v)); err != nil {
			return body, []string{err.Error()}
		}
		body = buf.Bytes()
	}
	err := openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: x.input, Status: status, Header: header,
		Body: io.NopCloser(bytes.NewReader(body)), Options: &openapi3filter.Options{MultiError: true},
	})
	if err == nil {
		return body, nil
	}
	var problems []string
	for _, p := range describe(err) {
		problems = append(problems, fmt.Sprintf("response %d of %s %s (operation %s): %s", status, x.input.Request.Method, x.input.Request.URL.Path, op.OperationID, p))
	}
	return body, problems
}

// describe turns a validation error into one line per problem, each
// naming the field: "body comments/0/line: ...", "query parameter
// \"per_page\": ...".
func describe(err error) []string {
	if me, ok := err.(openapi3.MultiError); ok {
		var out []string
		for _, e := range me {
			out = append(out, describe(e)...)
		}
		return out
	}
	where, inner := "", err
	var re *openapi3filter.RequestError
	var rse *openapi3filter.ResponseError
	switch {
	case errors.As(err, &re):
		switch {
		case re.Parameter != nil:
			where = fmt.Sprintf("%s parameter %q", re.Parameter.In, re.Parameter.Name)
		case re.RequestBody != nil:
			where = "request body"
		}
		if re.Err != nil {
			inner = re.Err
		} else {
			inner = errors.New(re.Reason)
		}
	case errors.As(err, &rse):
		where = "response body"
		if rse.Err != nil {
			inner = rse.Err
		} else {
			inner = errors.New(rse.Reason)
		}
	}
	prefix := ""
	if where != "" {
		prefix = where + " "
	}
	if me, ok := inner.(openapi3.MultiError); ok {
		var out []string
		for _, e := range me {
			for _, d := range describe(e) {
				out = append(out, prefix+d)
			}
		}
		return out
	}
	var se *openapi3.SchemaError
	if errors.As(inner, &se) {
		msg := se.Reason
		if msg == "" {
			msg = se.Error()
		}
		if field := strings.Join(se.JSONPointer(), "/"); field != "" {
			return []string{fmt.Sprintf("%sfield %s: %s", prefix, field, msg)}
		}
		return []string{prefix + msg}
	}
	return []string{prefix + inner.Error()}
}

// complete adds to v, a decoded JSON value the fake answers with, every
// property that schema s requires and v lacks, with a placeholder of the
// right type (placeholder), recursing into the properties and items v
// has. The fake models what the action reads (numbers, heads, lines,
// bodies, users); the rest of GitHub's objects (node ids, URLs, dates,
// the repository's hundred fields) is filled in so that every answer is
// a complete object of the documented shape, and a field the action
// starts to read without the fake modelling it shows as a placeholder,
// not as a missing key the client would decode as zero by accident.
func complete(s *openapi3.Schema, v any) any {
	if s == nil || v == nil {
		return v
	}
	for _, a := range s.AllOf {
		v = complete(a.Value, v)
	}
	switch x := v.(type) {
	case map[string]any:
		if alt := alternative(s, x); alt != nil {
			return complete(alt, x)
		}
		for _, name := range s.Required {
			if _, ok := x[name]; !ok {
				x[name] = placeholder(s.Properties[name])
			}
		}
		for name, p := range s.Properties {
			if val, ok := x[name]; ok {
				x[name] = complete(p.Value, val)
			}
		}
	case []any:
		if s.Items != nil {
			for i := range x {
				x[i] = complete(s.Items.Value, x[i])
			}
		}
	}
	return v
}

// alternative is the anyOf/oneOf branch of s an object belongs to: the
// first object branch whose properties include every key the object has.
func alternative(s *openapi3.Schema, x map[string]any) *openapi3.Schema {
	for _, group := range [][]*openapi3.SchemaRef{s.OneOf, s.AnyOf} {
		for _, b := range group {
			if b.Value == nil || !b.Value.Type.Is("object") {
				continue
			}
			fits := true
			for k := range x {
				if _, ok := b.Value.Properties[k]; !ok {
					fits = false
					break
				}
			}
			if fits {
				return b.Value
			}
		}
	}
	return nil
}

// placeholder is a value of schema r's type: null where allowed, the
// first enum value, an empty array, a completed empty object, a fixed
// date or URL for those formats, zero (or the minimum), false, "".
func placeholder(r *openapi3.SchemaRef) any {
	if r == nil || r.Value == nil {
		return nil
	}
	s := r.Value
	switch {
	case s.Nullable:
		return nil
	case len(s.Enum) > 0:
		return s.Enum[0]
	case len(s.AllOf) > 0:
		v := map[string]any{}
		for _, a := range s.AllOf {
			complete(a.Value, v)
		}
		return v
	case len(s.OneOf) > 0:
		return placeholder(s.OneOf[0])
	case len(s.AnyOf) > 0:
		return placeholder(s.AnyOf[0])
	}
	switch {
	case s.Type.Is("object"):
		return complete(s, map[string]any{})
	case s.Type.Is("array"):
		return []any{}
	case s.Type.Is("string"):
		switch s.Format {
		case "date-time":
			return "2011-04-14T16:00:49Z"
		case "uri":
			return "https://api.github.com/"
		case "email":
			return "octocat@github.com"
		}
		return ""
	case s.Type.Is("integer"), s.Type.Is("number"):
		if s.Min != nil {
			return *s.Min
		}
		return 0
	case s.Type.Is("boolean"):
		return false
	}
	return nil
}

// recorder buffers a handler's answer so that the contract can complete
// and check it before it is sent.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}
