package typescript

import (
	"reflect"
	"testing"
)

func TestInlineMembers(t *testing.T) {
	for _, c := range []struct {
		typ  string
		want map[string]bool
		ok   bool
	}{
		{"{ url: URL; parsedResult?: R }", map[string]bool{"url": true, "parsedResult": false}, true},
		// treesit.Compact's newline-separated members
		{"{ event: MessageEvent<Data> parsedResult: WebSocketHandlerParsedResult }", map[string]bool{"event": true, "parsedResult": true}, true},
		{"{ readonly id: string, run(x: number): void, cb: (a: string) => void }", map[string]bool{"id": true, "run": true, "cb": true}, true},
		{"{ a: { b: string }; c: T extends U ? X : Y }", map[string]bool{"a": true, "c": true}, true},
		{"{ [k: string]: number }", nil, false},
		{"Options", nil, false},
		{"{ a: string } | { b: string }", nil, false},
	} {
		got, ok := inlineMembers(c.typ)
		if ok != c.ok || ok && !reflect.DeepEqual(got, c.want) {
			t.Errorf("inlineMembers(%q) = %v, %v; want %v, %v", c.typ, got, ok, c.want, c.ok)
		}
	}
}
