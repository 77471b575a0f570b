// Package corpus is the candidate search and the parse pool of one check,
// written once for every language.
//
// A front-end's analyzer holds one Corpus of its own files in the head
// state. The corpus lists them once (for a front-end that needs the whole
// layout, such as Go's package directories or Python's module roots),
// finds the files that mention given words with one whole-word `git grep`
// (over the work tree when the head is checked out, see gitio.RevTree),
// reads them in one pipelined round trip to git and parses each once,
// concurrently, with the front-end's parser. Parsed files are kept for the
// rest of the check.
//
// Policy:
//   - Paths the configuration ignores, and paths the front-end's filter
//     rejects (Go's testdata, TypeScript's node_modules), are never listed,
//     searched or parsed.
//   - A file that cannot be read is a diagnostic naming the file and the
//     cause; the check goes on without it. It is never silently dropped:
//     fewer candidates means fewer findings, and the report must say why.
//   - A file the parser rejects (binary, not the language) is skipped; the
//     parser reports why when it matters (a syntax error is a diagnostic).
//   - Cancellation stops the pool and is returned as an error.
package corpus
