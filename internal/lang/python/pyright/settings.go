package pyright

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Settings are a repository's own pyright settings, read from
// pyrightconfig.json or the [tool.pyright] table of pyproject.toml (the
// file pyright itself would read: pyrightconfig.json first), without
// the keys that choose files (the tier's configuration chooses them) or
// that it sets itself.
type Settings struct {
	From   string         // the file they were read from
	Values map[string]any // JSON values: strings, booleans, numbers, arrays of them
	// Skipped names the keys that could not be read (a TOML form this
	// reader does not know: inline tables, arrays of tables).
	Skipped []string
}

// dropped are the keys the tier's configuration decides.
var dropped = map[string]bool{"include": true, "exclude": true, "ignore": true, "strict": true,
	"executionEnvironments": true, "analyzeUnannotatedFunctions": true, "enableTypeIgnoreComments": true}

// pathKeys are the settings that hold a path relative to the project.
var pathKeys = []string{"stubPath", "venvPath", "typeshedPath"}

// ReadSettings reads the settings from the contents of the repository's
// pyrightconfig.json (cfg) or pyproject.toml (pyproject), either nil
// when absent; nil when neither configures pyright.
func ReadSettings(cfg, pyproject []byte) (*Settings, error) {
	if cfg != nil {
		var m map[string]any
		if err := json.Unmarshal(stripJSONComments(cfg), &m); err != nil {
			return nil, fmt.Errorf("pyrightconfig.json: %v", err)
		}
		s := &Settings{From: "pyrightconfig.json", Values: map[string]any{}}
		for k, v := range m {
			if !dropped[k] {
				s.Values[k] = v
			}
		}
		return s, nil
	}
	if pyproject == nil {
		return nil, nil
	}
	return readToolPyright(pyproject)
}

// stripJSONComments removes // and /* */ comments outside strings
// (pyright reads its configuration as JSON with comments).
func stripJSONComments(b []byte) []byte {
	var out bytes.Buffer
	in := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case in:
			out.WriteByte(c)
			if c == '\\' && i+1 < len(b) {
				i++
				out.WriteByte(b[i])
			} else if c == '"' {
				in = false
			}
		case c == '"':
			in = true
			out.WriteByte(c)
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			out.WriteByte('\n')
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := bytes.Index(b[i+2:], []byte("*/"))
			if end < 0 {
				return out.Bytes()
			}
			i += end + 3
		default:
			out.WriteByte(c)
		}
	}
	return out.Bytes()
}

// readToolPyright reads the [tool.pyright] table of a pyproject.toml:
// keys with strings, booleans, numbers and arrays of those (what pyright's
// settings take, but for execution environments). nil without the table.
func readToolPyright(src []byte) (*Settings, error) {
	lines := strings.Split(string(src), "\n")
	s := &Settings{From: "pyproject.toml", Values: map[string]any{}}
	found := false
	in := false
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(stripTOMLComment(lines[i]))
		if strings.HasPrefix(line, "[") {
			in = line == "[tool.pyright]"
			found = found || in
			continue
		}
		if !in || line == "" {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key = strings.Trim(strings.TrimSpace(key), `"'`)
		val = strings.TrimSpace(val)
		if strings.HasPrefix(val, "[") {
			// an array, maybe over several lines
			for depth(val) > 0 && i+1 < len(lines) {
				i++
				val += " " + strings.TrimSpace(stripTOMLComment(lines[i]))
			}
		}
		v, ok := tomlValue(val)
		if !ok {
			s.Skipped = append(s.Skipped, key)
			continue
		}
		if !dropped[key] {
			s.Values[key] = v
		}
	}
	if !found {
		return nil, nil
	}
	return s, nil
}

// depth is the number of brackets val opens and does not close, outside
// strings.
func depth(val string) int {
	d := 0
	var q byte
	for i := 0; i < len(val); i++ {
		c := val[i]
		switch {
		case q != 0:
			if c == '\\' && q == '"' {
				i++
			} else if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '[':
			d++
		case c == ']':
			d--
		}
	}
	return d
}

// stripTOMLComment drops a # comment outside strings.
func stripTOMLComment(line string) string {
	var q byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case q != 0:
			if c == '\\' && q == '"' {
				i++
			} else if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '#':
			return line[:i]
		}
	}
	return line
}

// tomlValue reads a TOML string, boolean, number or array of them.
func tomlValue(v string) (any, bool) {
	v = strings.TrimSpace(v)
	switch {
	case v == "true":
		return true, true
	case v == "false":
		return false, true
	case strings.HasPrefix(v, `"""`) || strings.HasPrefix(v, `'''`):
		return nil, false
	case strings.HasPrefix(v, `"`):
		s, err := strconv.Unquote(v)
		return s, err == nil
	case strings.HasPrefix(v, `'`) && strings.HasSuffix(v, `'`) && len(v) >= 2:
		return v[1 : len(v)-1], true
	case strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]"):
		var out []any
		for _, e := range splitTOMLArray(v[1 : len(v)-1]) {
			x, ok := tomlValue(e)
			if !ok {
				return nil, false
			}
			out = append(out, x)
		}
		if out == nil {
			out = []any{}
		}
		return out, true
	}
	if f, err := strconv.ParseFloat(strings.ReplaceAll(v, "_", ""), 64); err == nil {
		return f, true
	}
	return nil, false
}

// splitTOMLArray splits an array's inside at its top-level commas,
// dropping empty elements (a trailing comma).
func splitTOMLArray(s string) []string {
	var out []string
	var q byte
	d, start := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == '\\' && q == '"' {
				i++
			} else if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '[' || c == '{':
			d++
		case c == ']' || c == '}':
			d--
		case c == ',' && d == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	out = append(out, s[start:])
	var kept []string
	for _, e := range out {
		if e = strings.TrimSpace(e); e != "" {
			kept = append(kept, e)
		}
	}
	return kept
}
