package fix

import "testing"

func TestCodeBlock(t *testing.T) {
	for _, c := range []struct {
		name, reply, want string
		ok                bool
	}{
		{"plain", "```go\nfunc F() {}\n```\n", "func F() {}\n", true},
		{"words around", "Here:\n```python\ndef f():\n    pass\n```\nDone.", "def f():\n    pass\n", true},
		{"no fence", "  def f(): pass  ", "def f(): pass\n", true},
		{"closing on the code's line", "```go\nfunc F() {}```", "func F() {}", true},
		{"unclosed", "```go\nfunc F() {}\n", "", false},
		// a docstring with an example: the reply's longer fence holds it
		{"longer fence", "````python\ndef f():\n    \"\"\"Use:\n\n    ```\n    f()\n    ```\n    \"\"\"\n````\n",
			"def f():\n    \"\"\"Use:\n\n    ```\n    f()\n    ```\n    \"\"\"\n", true},
		// a fence inside a line of code does not close the block
		{"fence in a string", "```ts\nconst s = \"```\";\n```\n", "const s = \"```\";\n", true},
	} {
		got, ok := codeBlock(c.reply)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: codeBlock = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
