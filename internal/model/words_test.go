package model

import "testing"

// TestEveryRelationHasWords: each relation is said in the one vocabulary
// (a relation added without its words would read "Dependent of" in a
// rule and "sites" in a heading).
func TestEveryRelationHasWords(t *testing.T) {
	for _, r := range Relations {
		w, ok := words[r]
		if !ok || w.Phrase == "" || w.Noun[0] == "" || w.Noun[1] == "" || w.Subject == "" || w.Long == "" {
			t.Errorf("%s: words %+v", r, w)
		}
	}
	if len(words) != len(Relations) {
		t.Errorf("%d relations have words, %d are listed in Relations", len(words), len(Relations))
	}
}
