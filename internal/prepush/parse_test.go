package prepush

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	a := strings.Repeat("a", 40)
	b := strings.Repeat("b", 40)
	z := strings.Repeat("0", 40)
	s256 := strings.Repeat("c", 64)
	z256 := strings.Repeat("0", 64)
	tests := []struct {
		name    string
		in      string
		want    []Update
		wantErr []string // substrings of the error
	}{
		{name: "empty", in: ""},
		{name: "one line", in: "refs/heads/x " + a + " refs/heads/x " + b + "\n",
			want: []Update{{"refs/heads/x", a, "refs/heads/x", b}}},
		{name: "several lines, blank lines, CRLF, no final newline",
			in: "\nrefs/heads/x " + a + " refs/heads/x " + z + "\r\n\n(delete) " + z + " refs/heads/y " + b,
			want: []Update{
				{"refs/heads/x", a, "refs/heads/x", z},
				{"(delete)", z, "refs/heads/y", b},
			}},
		{name: "sha-256", in: "refs/tags/v1 " + s256 + " refs/tags/v1 " + z256 + "\n",
			want: []Update{{"refs/tags/v1", s256, "refs/tags/v1", z256}}},
		{name: "three fields", in: "refs/heads/x " + a + " refs/heads/x " + b + "\nrefs/heads/y " + a + " refs/heads/y\n",
			wantErr: []string{"line 2", `"refs/heads/y ` + a + ` refs/heads/y"`, "got 3"}},
		{name: "five fields", in: "refs/heads/x " + a + " refs/heads/x " + b + " extra\n",
			wantErr: []string{"line 1", "got 5"}},
		{name: "short sha", in: "refs/heads/x abc refs/heads/x " + b + "\n",
			wantErr: []string{"line 1", `local sha "abc"`}},
		{name: "upper-case remote sha", in: "refs/heads/x " + a + " refs/heads/x " + strings.ToUpper(strings.Repeat("e", 40)) + "\n",
			wantErr: []string{"line 1", "remote sha"}},
		{name: "mixed hash lengths", in: "refs/heads/x " + a + " refs/heads/x " + z256 + "\n",
			wantErr: []string{"line 1", "different lengths"}},
		{name: "not the protocol at all", in: "\n\nhello world\n",
			wantErr: []string{"line 3", `"hello world"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(strings.NewReader(tt.in))
			if tt.wantErr != nil {
				if err == nil {
					t.Fatalf("got %v, want an error", got)
				}
				for _, w := range tt.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not contain %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseLongLine(t *testing.T) {
	_, err := Parse(strings.NewReader(strings.Repeat("x", maxLine+10)))
	if err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("got %v, want an error about line 1", err)
	}
}
