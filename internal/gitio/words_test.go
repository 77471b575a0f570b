package gitio

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// TestWordIndexDecides holds the index's verdict to the text search on
// random texts and word sets: a hit is a file the search matches, a file
// the search matches is a hit or one to read (a word with non-word
// bytes), never a miss.
func TestWordIndexDecides(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "ab", "Run", "run_", "x1", ".", "/", " ", "\"", "é", "\n", "(", "_"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	for i := range 5000 {
		doc := []byte(text(rng.IntN(30)))
		var words []string
		for range 1 + rng.IntN(3) {
			words = append(words, text(1+rng.IntN(3)))
		}
		ws := newWordSet(words)
		if ws.empty() || !ws.indexable() {
			continue
		}
		in, v := ws.in(doc), ws.decide(wordsOf(doc))
		if v == indexHit && !in || in && v == indexNo {
			t.Fatalf("case %d: %q in %q: search %v, index %v", i, words, doc, in, v)
		}
	}
}

// TestWordIndexFile reads back what it saved, ignores a file that is not
// whole (truncated, a flipped byte, another layout), and drops entries
// unused for keepRuns saved checks.
func TestWordIndexFile(t *testing.T) {
	dir := t.TempDir()
	x := OpenWordIndex(dir, "/repo/.git")
	x.put("blob1", []byte("func Run() { Helper() }"))
	x.put("blob2", []byte("package p"))
	x.Save()
	y := OpenWordIndex(dir, "/repo/.git")
	w, ok := y.get("blob1")
	if !ok || newWordSet([]string{"Helper"}).decide(w) != indexHit || newWordSet([]string{"Help"}).decide(w) != indexNo {
		t.Fatalf("read back: %v %v", w, ok)
	}
	if other := OpenWordIndex(dir, "/other/.git"); other.knows("blob1") {
		t.Error("another repository's index holds the blob")
	}
	good, err := os.ReadFile(x.path)
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string][]byte{
		"truncated":    good[:len(good)-9],
		"flipped byte": append(append([]byte{}, good[:30]...), append([]byte{good[30] ^ 1}, good[31:]...)...),
		"other layout": append([]byte("ripple-words-v0\n"), good[len(wordsMagic):]...),
		"empty":        {},
	} {
		if err := os.WriteFile(x.path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if z := OpenWordIndex(dir, "/repo/.git"); z.knows("blob1") {
			t.Errorf("%s: the index was read", name)
		}
	}
	// blob2 is used in each check after the first, blob1 in none: after
	// keepRuns checks that saved, blob1 is gone and blob2 kept
	if err := os.WriteFile(x.path, good, 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range keepRuns + 1 {
		z := OpenWordIndex(dir, "/repo/.git")
		if _, ok := z.get("blob2"); !ok {
			t.Fatalf("check %d: blob2 dropped", i)
		}
		z.put("new"+string(rune('a'+i)), []byte("x"))
		z.Save()
	}
	z := OpenWordIndex(dir, "/repo/.git")
	if z.knows("blob1") || !z.knows("blob2") {
		t.Errorf("after %d checks: blob1 kept %v, blob2 kept %v", keepRuns+1, z.knows("blob1"), z.knows("blob2"))
	}
}
