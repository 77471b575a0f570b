// Package md writes GitHub-flavoured Markdown from untrusted text: source
// lines, messages and names that come from the code of a pull request.
//
// What it guarantees: Text never starts an HTML tag, a link, emphasis, a
// heading or a table cell boundary, and never mentions a user or a team
// (an @ is followed by a zero-width joiner, so "@org/team" notifies
// no-one); Code is one inline code span whatever backticks the text
// holds; Cell is safe inside a table cell; Fence returns a code fence
// longer than any backtick run in the block it encloses, as a
// `suggestion` block needs. Line breaks and control characters are
// flattened to spaces and every output is cut at a length limit.
package md
