package fix

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// Missing declarations. A developer's edit often calls a helper, names a
// constant or reads a field that does not exist yet (they meant to write
// it next), and a model's block may do the same. The oracle says
// "undefined"; no edit of the block that uses the name can help, and
// reverting the developer's edit is not allowed. So such a diagnostic
// becomes an obligation to declare the name: on the type's block when a
// member of a type the engine may edit is missing, else a new
// declaration appended to a file of the scope (lang.Declarer.Scope: a
// package directory, a module file), judged by the front-end (whole
// declarations, new names only, the wanted one among them).
//
// A name the base state declared in that scope is not declared again:
// the developer's change removed or renamed it, and its users must
// follow (the diagnostic stays on the user's block).

// missingObligation plans a diagnostic about a missing declaration. It
// reports false when the diagnostic is not one, or must be handled on the
// block that holds it.
func (e *engine) missingObligation(ctx context.Context, d oracle.Diagnostic, byKey map[string]*Obligation, obs *[]*Obligation, round int) bool {
	fe := e.frontendFor(d.Path)
	dc, ok := fe.(lang.Declarer)
	if !ok {
		return false
	}
	m, ok := dc.MissingIn(d.Message)
	if !ok {
		return false
	}
	scope := dc.Scope(d.Path)
	if m.Qualifier != "" {
		src, err := e.sc.read(d.Path)
		if err != nil {
			return false
		}
		if scope, ok = dc.ImportScope(ctx, &gitio.WorkTree{R: e.sc.repo}, d.Path, src, m.Qualifier); !ok {
			return false // another module's package: not ours to extend
		}
	}
	want := m.Name
	if m.Type != "" {
		want = m.Type + "." + m.Name
	}
	if e.declaredAtBase(ctx, scope)[want] {
		return false // the change removed it: its users follow
	}
	now := e.declaredNow(scope)
	if now[want] != nil {
		return false // declared: the diagnostic is about something else
	}
	reason := Reason{Message: d.Tool + ": " + d.Message, Line: d.Line, Oracle: &d, Must: true}
	file := d.Path
	if m.Type != "" {
		td := now[m.Type]
		if td == nil {
			return false
		}
		file = td.Path
		if k := blockKey(td.Path, td.Display); !e.seeds[k] && td.Kind == model.KindType {
			// the type's block gains the field or the method
			if e.attempts[k] >= maxAttempts+1 {
				return true
			}
			ob := byKey[k]
			if ob == nil {
				ob = &Obligation{Path: td.Path, Block: td.Display, Span: td.Span, Status: Pending}
				byKey[k] = ob
				*obs = append(*obs, ob)
				e.adopt(ob, round)
			}
			reason.Message += fmt.Sprintf(" (at %s:%d; add the field or method %s)", d.Path, d.Line, m.Name)
			ob.Reasons = append(ob.Reasons, e.linkUse(ob, d, reason))
			return true
		}
	} else if m.Qualifier != "" {
		if file = e.homeFile(dc, scope); file == "" {
			return false
		}
	}
	k := blockKey(file, "new "+want)
	if e.attempts[k] >= maxAttempts {
		return true
	}
	ob := byKey[k]
	if ob == nil {
		ob = &Obligation{Path: file, Block: "new " + want, Declare: want, Status: Pending}
		byKey[k] = ob
		*obs = append(*obs, ob)
		e.adopt(ob, round)
	}
	ob.Reasons = append(ob.Reasons, e.linkUse(ob, d, reason))
	return true
}

// linkUse ties an obligation to declare a name to the edit that uses it:
// the seed change whose block holds the use (the reason carries it), or
// the engine's edit of that block (the obligation's parent). The
// Action's fix mode commits the declaration with that seed change.
func (e *engine) linkUse(ob *Obligation, d oracle.Diagnostic, r Reason) Reason {
	blk := e.enclosing(d.Path, d.Line)
	if blk == nil {
		return r
	}
	k := blockKey(d.Path, blk.Display)
	if e.seeds[k] && e.res.Seed != nil {
		for _, c := range e.res.Seed.Changes {
			if c.New != nil && !c.Derived && blockKey(c.New.Path, c.New.Display) == k {
				r.Change = c
				break
			}
		}
	} else if p := e.all[k]; p != nil && p != ob && p.Status == Done && ob.Parent == nil {
		ob.Parent, ob.ParentID = p, p.ID
	}
	return r
}

// declName is how Declarer names a declaration: Name, or Container.Name
// for a method or a field.
func declName(d *lang.Decl) string {
	if d.Container != "" {
		return d.Container + "." + d.Name
	}
	return d.Name
}

// scopeFiles lists the files of a scope (a directory's files, or the
// scope itself when it is a file a front-end handles) among paths.
func (e *engine) scopeFiles(scope string, paths []string) []string {
	if e.frontendFor(scope) != nil {
		if slices.Contains(paths, scope) {
			return []string{scope}
		}
		return nil
	}
	var out []string
	for _, p := range paths {
		if path.Dir(p) == scope && e.frontendFor(p) != nil {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// declaredAtBase are the names the scope declared in the base state.
func (e *engine) declaredAtBase(ctx context.Context, scope string) map[string]bool {
	if names, ok := e.baseNames[scope]; ok {
		return names
	}
	names := map[string]bool{}
	spec := path.Join(scope, "*")
	if e.frontendFor(scope) != nil {
		spec = scope
	}
	files, _ := e.baseTree.List(ctx, spec)
	for _, f := range e.scopeFiles(scope, files) {
		src, err := e.baseTree.ReadFile(ctx, f)
		if err != nil {
			continue
		}
		ds, _ := e.frontendFor(f).Decls(f, src)
		for _, d := range ds {
			if d.Kind != model.KindImport {
				names[declName(d)] = true
			}
		}
	}
	if e.baseNames == nil {
		e.baseNames = map[string]map[string]bool{}
	}
	e.baseNames[scope] = names
	return names
}

// scratchFiles lists the files of a scope in the scratch state.
func (e *engine) scratchFiles(scope string) []string {
	dir := scope
	if e.frontendFor(scope) != nil {
		dir = path.Dir(scope)
	}
	ents, err := os.ReadDir(filepath.Join(e.sc.dir, filepath.FromSlash(dir)))
	if err != nil {
		return nil
	}
	var paths []string
	for _, ent := range ents {
		if !ent.IsDir() {
			paths = append(paths, path.Join(dir, ent.Name()))
		}
	}
	return e.scopeFiles(scope, paths)
}

// scopeDecls parses the files of a scope in the scratch state, each with
// the front-end that handles it.
func (e *engine) scopeDecls(scope string) []*lang.Decl {
	var out []*lang.Decl
	for _, f := range e.scratchFiles(scope) {
		src, err := e.sc.read(f)
		if err != nil {
			continue
		}
		ds, _ := e.frontendFor(f).Decls(f, src)
		out = append(out, ds...)
	}
	return out
}

// declaredNow are the declarations of the scope in the scratch state, by
// name.
func (e *engine) declaredNow(scope string) map[string]*lang.Decl {
	out := map[string]*lang.Decl{}
	for _, d := range e.scopeDecls(scope) {
		if d.Kind != model.KindImport {
			out[declName(d)] = d
		}
	}
	return out
}

// homeFile is the file of a scope where a name another unit needs is
// declared: the scope itself when it is a file, else its first source
// file that is not a test.
func (e *engine) homeFile(dc lang.Declarer, scope string) string {
	files := e.scratchFiles(scope)
	for _, f := range files {
		if !dc.IsTest(f) {
			return f
		}
	}
	if len(files) > 0 {
		return files[0]
	}
	return ""
}

// declare asks the model for a missing declaration and appends it to the
// obligation's file. It reports whether the file changed.
func (e *engine) declare(ctx context.Context, ob *Obligation) bool {
	e.attempts[ob.key()]++
	ob.Method = "model"
	fe := e.frontendFor(ob.Path)
	dc, _ := fe.(lang.Declarer)
	ed, _ := fe.(lang.BlockEditor)
	src, err := e.sc.read(ob.Path)
	if err == nil && (dc == nil || ed == nil) {
		err = fmt.Errorf("no front-end can check new declarations in %s", ob.Path)
	}
	if err != nil {
		ob.Status, ob.Note = Failed, err.Error()
		return false
	}
	if e.declaredNow(dc.Scope(ob.Path))[ob.Declare] != nil {
		ob.Status, ob.Note = Skipped, "declared by an earlier edit (a helper of another new declaration)"
		return false
	}
	code, imports, ok := e.ask(ctx, ob, e.promptForNew(ctx, ob))
	if !ok {
		return false
	}
	if strings.TrimSpace(code) == "" {
		return e.declareByImport(ob, fe, ed, src, imports)
	}
	code = strings.Trim(code, "\n") + "\n"
	taken := map[string]bool{}
	for n := range e.declaredNow(dc.Scope(ob.Path)) {
		taken[n] = true
	}
	// the use's file, unless the imports the declaration needs clash with
	// that file's (a name bound to another package): then another file of
	// the package that can take it
	var firstErr error
	for _, file := range e.placements(dc, ob.Path) {
		if file != ob.Path {
			if src, err = e.sc.read(file); err != nil {
				continue
			}
		}
		out, _, err := ed.AddImports(src, imports)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		var from int
		from, out = e.placeNew(dc, ed, file, out, ob.Declare, code)
		err = dc.CheckNew(file, out, from, from+strings.Count(code, "\n")-1, ob.Declare, taken)
		if err == nil {
			err = e.sc.write(file, out)
		}
		if err != nil {
			ob.Status, ob.Note = Failed, "rejected: "+err.Error()
			e.res.Rejected++
			return false
		}
		if file != ob.Path {
			e.note(fmt.Sprintf("declared %s in %s: %s", ob.Declare, file, firstErr))
			ob.Path = file
			e.all[ob.key()] = ob
		}
		ob.Status = Done
		ob.Diff = lineDiff(ob.Path, "", code)
		return true
	}
	ob.Status, ob.Note = Failed, "rejected: "+firstErr.Error()
	e.res.Rejected++
	return false
}

// declareByImport takes a reply that is imports alone: the name is one
// an import provides (a seed that uses a module alias or a name its
// commit imports, which the partial change did not bring). The imports
// go into the use's file when they are new there and one of them names
// the wanted name (lang.ImportNames); the oracle's next run judges the
// rest.
func (e *engine) declareByImport(ob *Obligation, fe lang.Frontend, ed lang.BlockEditor, src []byte, imports []string) bool {
	reject := func(why string) bool {
		ob.Status, ob.Note = Failed, "rejected: "+why
		e.res.Rejected++
		return false
	}
	out, n, err := ed.AddImports(src, imports)
	if err != nil {
		return reject(err.Error())
	}
	if n == 0 {
		return reject("the reply's imports are in " + ob.Path + " already")
	}
	before := map[string]bool{}
	ds, _ := fe.Decls(ob.Path, src)
	for _, d := range ds {
		before[d.Display] = true
	}
	binds := false
	ds, _ = fe.Decls(ob.Path, out)
	for _, d := range ds {
		binds = binds || !before[d.Display] && lang.ImportNames(d, ob.Declare)
	}
	if !binds {
		return reject(fmt.Sprintf("the reply's imports (%s) do not provide %s", strings.Join(imports, "; "), ob.Declare))
	}
	if err := e.sc.write(ob.Path, out); err != nil {
		return reject(err.Error())
	}
	ob.Status = Done
	ob.Diff = lineDiff(ob.Path, "", strings.Join(imports, "\n")+"\n")
	return true
}

// placeNew puts the code of a new declaration of want into src, and
// returns the line it starts at: appended to the file, or, where
// top-level code runs in order (lang.Declarer's InOrder), above the
// first top-level declaration that names want (and the comment lines
// directly above it), with two blank lines after it.
func (e *engine) placeNew(dc lang.Declarer, ed lang.BlockEditor, file string, src []byte, want, code string) (int, []byte) {
	if dc.InOrder() && !strings.Contains(want, ".") {
		if at := firstUse(e.frontendFor(file), ed, file, src, want); at > 0 {
			lines := strings.SplitAfter(string(src), "\n")
			out := strings.Join(lines[:at-1], "") + code + "\n\n" + strings.Join(lines[at-1:], "")
			return at, []byte(out)
		}
	}
	head := strings.TrimRight(string(src), "\n") + "\n\n"
	return strings.Count(head, "\n") + 1, []byte(head + code)
}

// firstUse is the line above the first top-level declaration of src
// (not an import) that names want as a whole word, with the comment lines
// directly above it; 0 when none does.
func firstUse(fe lang.Frontend, ed lang.BlockEditor, file string, src []byte, want string) int {
	ds, _ := fe.Decls(file, src)
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(want) + `\b`)
	lines := strings.SplitAfter(string(src), "\n")
	best := 0
	for _, d := range ds {
		if d.Container != "" || d.Kind == model.KindImport || best > 0 && d.Span.StartLine >= best {
			continue
		}
		if d.Span.StartLine < 1 || d.Span.EndLine > len(lines) {
			continue
		}
		if word.MatchString(strings.Join(lines[d.Span.StartLine-1:d.Span.EndLine], "")) {
			best = d.Span.StartLine
		}
	}
	for best > 1 && ed.IsComment(lines[best-2]) {
		best--
	}
	return best
}

// placements are the files a new declaration wanted in file may go to:
// the file itself, then, when the scope has several files and file is
// one every build sees, the scope's other such files (lang.Declarer's
// Placeable: files every build compiles, never tests).
func (e *engine) placements(dc lang.Declarer, file string) []string {
	out := []string{file}
	scope := dc.Scope(file)
	src, err := e.sc.read(file)
	if scope == file || err != nil || !dc.Placeable(file, src) {
		return out
	}
	for _, f := range e.scratchFiles(scope) {
		if f == file {
			continue
		}
		if src, err := e.sc.read(f); err == nil && dc.Placeable(f, src) {
			out = append(out, f)
		}
	}
	return out
}

// promptForNew is the user message of a missing declaration: where the
// name is used and why, the changes that led there, the code that uses
// it and the declarations of its file.
func (e *engine) promptForNew(ctx context.Context, ob *Obligation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "ripple-block: path=%s block=%q\n\n", ob.Path, ob.Block)
	fmt.Fprintf(&b, "Declare %s in %s: the code uses it and nothing declares it.\n\nWhere it is used:\n", ob.Declare, ob.Path)
	var uses []*model.Block
	seen := map[string]bool{}
	for _, r := range ob.Reasons {
		p := ob.Path
		if r.Oracle != nil {
			p = r.Oracle.Path
		}
		fmt.Fprintf(&b, "- %s:%d: %s\n", p, r.Line, r.Message)
		if blk := e.enclosing(p, r.Line); blk != nil && !seen[blockKey(p, blk.Display)] && len(uses) < 3 {
			seen[blockKey(p, blk.Display)] = true
			uses = append(uses, blk)
		}
	}
	var diffs []string
	for _, u := range uses {
		k := blockKey(u.Path, u.Display)
		if e.seeds[k] {
			for _, c := range e.res.Seed.Changes {
				if c.New != nil && blockKey(c.New.Path, c.New.Display) == k {
					diffs = append(diffs, e.changeDiff(ctx, c))
				}
			}
		} else if o := e.all[k]; o != nil && o.Diff != "" {
			diffs = append(diffs, o.Diff)
		}
	}
	if len(diffs) > 0 {
		b.WriteString("\nThe changes already made that use it (do not undo them):\n```diff\n" + strings.Join(diffs, "") + "```\n")
	}
	for _, u := range uses {
		src, err := e.sc.read(u.Path)
		if err != nil {
			continue
		}
		if text, err := blockLines(src, u.Span.StartLine, u.Span.EndLine); err == nil {
			fmt.Fprintf(&b, "\nThe code that uses it (%s, lines %d-%d):\n```\n%s```\n", u.Path, u.Span.StartLine, u.Span.EndLine, text)
		}
	}
	var sigs []string
	for _, d := range e.dirDecls(ob.Path) {
		switch {
		case d.Path != ob.Path || len(sigs) >= 60:
		case d.Kind == model.KindImport:
			// the names the file binds: an import the reply needs must
			// not rebind one of them
			sigs = append(sigs, d.Display)
		case d.Signature != "":
			sigs = append(sigs, d.Signature)
		}
	}
	if len(sigs) > 0 {
		fmt.Fprintf(&b, "\nWhat %s declares now:\n```\n%s\n```\n", ob.Path, strings.Join(sigs, "\n"))
	}
	fmt.Fprintf(&b, "\nReply with the new declaration of %s (and of any new helper it needs) in one fenced code block; declare nothing the package already has. If an import provides %s (a module, or a name another module declares), reply with that import alone.\n", ob.Declare, ob.Declare)
	return b.String()
}

// receiverFieldObligation plans, as a review, the type of a method's
// receiver when a type error is on a line of the method that uses one of
// the receiver's fields: the field's type may be what must follow (a
// generated mock records each call's arguments in a struct field that
// the method's new parameters no longer fit). The type's block is
// planned only when the engine may edit it.
func (e *engine) receiverFieldObligation(d oracle.Diagnostic, blk *model.Block, byKey map[string]*Obligation, obs *[]*Obligation, round int) {
	dc, ok := e.frontendFor(d.Path).(lang.Declarer)
	if !ok || blk.Container == "" || !dc.TypeMismatch(d.Message) {
		return
	}
	recv := dc.Receiver(blk)
	if recv == "" {
		return
	}
	src, err := e.sc.read(d.Path)
	if err != nil {
		return
	}
	line, err := blockLines(src, d.Line, d.Line)
	if err != nil {
		return
	}
	now := e.declaredNow(dc.Scope(d.Path))
	td := now[blk.Container]
	if td == nil || td.Kind != model.KindType {
		return
	}
	k := blockKey(td.Path, td.Display)
	if e.seeds[k] || e.attempts[k] >= maxAttempts {
		return
	}
	fieldRE := regexp.MustCompile(`\b` + regexp.QuoteMeta(recv) + `\.(\w+)`)
	for _, f := range fieldRE.FindAllStringSubmatch(line, -1) {
		fd := now[blk.Container+"."+f[1]]
		if fd == nil || fd.Kind != model.KindField {
			continue
		}
		ob := byKey[k]
		if ob == nil {
			ob = &Obligation{Path: td.Path, Block: td.Display, Span: td.Span, Status: Pending}
			byKey[k] = ob
			*obs = append(*obs, ob)
			e.adopt(ob, round)
		}
		ob.Reasons = append(ob.Reasons, Reason{
			Message: fmt.Sprintf("%s: %s (at %s:%d, which uses the field %s: its type may have to follow)", d.Tool, d.Message, d.Path, d.Line, f[1]),
			Line:    fd.Span.StartLine, Oracle: &d,
		})
		return
	}
}
