package diffclassify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// MaxFileSize is the largest file state that is parsed; larger ones are
// skipped with a diagnostic (generated tables, vendored blobs).
const MaxFileSize = 4 << 20

// Input is what Classify reads.
type Input struct {
	Files      []*gitio.FileChange
	Base, Head gitio.Tree
	Frontends  lang.Set
	Ignored    func(path string) bool
}

// Output is the classified seed.
type Output struct {
	Changes     []*model.Change
	Diagnostics []model.Diagnostic
	// Parsed counts the file states that were parsed.
	Parsed int
}

type side struct {
	decl *lang.Decl
	fc   *gitio.FileChange
}

// Classify computes the atomic changes of the diff.
func Classify(ctx context.Context, in Input) (*Output, error) {
	out := &Output{}
	ds, err := readSides(ctx, in, out)
	if err != nil {
		return nil, err
	}
	deleted, added := ds.pair(out)
	r := matchRenames(deleted, added)
	r.pairMembers(deleted, added, out)
	r.unpaired(deleted, added, out)
	sort.SliceStable(out.Changes, func(i, j int) bool {
		bi, bj := out.Changes[i].Block(), out.Changes[j].Block()
		if bi.Path != bj.Path {
			return bi.Path < bj.Path
		}
		return bi.NameLine < bj.NameLine
	})
	return out, nil
}

// bucket holds the old and new states of the declarations of one key.
type bucket struct {
	fe       lang.Frontend
	old, new []side
}

// declSides are the declarations of both states of the diff, bucketed by
// front-end, package, unit and key (in the order first seen) so that a
// declaration meets its other state.
type declSides struct {
	buckets map[string]*bucket
	order   []string
	// a file state that does not parse lists only the declarations before
	// the error: what it lacks is unknown, not deleted (or added)
	brokenOld, brokenNew map[*gitio.FileChange]bool
}

// add files d, read from fc's old or new state, in its bucket.
func (s *declSides) add(fe lang.Frontend, d *lang.Decl, fc *gitio.FileChange, isNew bool) {
	k := fe.Name() + "\x00" + d.Package + "\x00" + d.Unit + "\x00" + d.Key()
	b := s.buckets[k]
	if b == nil {
		b = &bucket{fe: fe}
		s.buckets[k] = b
		s.order = append(s.order, k)
	}
	if isNew {
		b.new = append(b.new, side{d, fc})
	} else {
		b.old = append(b.old, side{d, fc})
	}
}

// readSides reads the declarations of each changed file's old and new
// state through the front-end that owns its path, skipping ignored,
// unowned and binary files (the last with a diagnostic).
func readSides(ctx context.Context, in Input, out *Output) (*declSides, error) {
	ds := &declSides{
		buckets:   map[string]*bucket{},
		brokenOld: map[*gitio.FileChange]bool{},
		brokenNew: map[*gitio.FileChange]bool{},
	}
	for _, fc := range in.Files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if in.Ignored != nil && in.Ignored(fc.Path()) {
			continue
		}
		// each side is read by the front-end that owns its path (a rename
		// across languages is a deletion in one and an addition in the
		// other)
		var oldFE, newFE lang.Frontend
		if fc.OldPath != "" {
			oldFE = in.Frontends.For(fc.OldPath)
		}
		if fc.NewPath != "" {
			newFE = in.Frontends.For(fc.NewPath)
		}
		if oldFE == nil && newFE == nil {
			continue
		}
		if fc.Binary {
			out.Diagnostics = append(out.Diagnostics, model.Diagnostic{Path: fc.Path(), Message: "binary file skipped"})
			continue
		}
		if oldFE != nil {
			decls, broken, err := readDecls(ctx, oldFE, in.Base, fc.OldPath, &out.Diagnostics)
			if err != nil {
				return nil, err
			}
			ds.brokenOld[fc] = broken
			out.Parsed++
			for _, d := range decls {
				ds.add(oldFE, d, fc, false)
			}
		}
		if newFE != nil {
			decls, broken, err := readDecls(ctx, newFE, in.Head, fc.NewPath, &out.Diagnostics)
			if err != nil {
				return nil, err
			}
			ds.brokenNew[fc] = broken
			out.Parsed++
			for _, d := range decls {
				ds.add(newFE, d, fc, true)
			}
		}
	}
	return ds, nil
}

// loose is a declaration state left without a partner of its key: a
// deletion or an addition, unless it pairs as a rename.
type loose struct {
	fe lang.Frontend
	s  side
}

// pair compares the declarations that have both states and returns the
// ones left: deleted (old states whose new file parsed) and added (new
// states whose old file parsed).
func (ds *declSides) pair(out *Output) (deleted, added []loose) {
	for _, k := range ds.order {
		b := ds.buckets[k]
		pairs, oldLeft, newLeft := pairSides(b.old, b.new)
		for _, p := range pairs {
			if c := compare(b.fe, p[0], p[1]); c != nil {
				out.add(c)
			}
		}
		for _, s := range oldLeft {
			if !ds.brokenNew[s.fc] {
				deleted = append(deleted, loose{b.fe, s})
			}
		}
		for _, s := range newLeft {
			if !ds.brokenOld[s.fc] {
				added = append(added, loose{b.fe, s})
			}
		}
	}
	return deleted, added
}

// renames records which deleted and added declarations (by index) pair
// up: renamedTo as renames, used for those consumed by any pairing.
type renames struct {
	usedD, usedA map[int]bool
	renamedTo    map[int]int
}

// matchRenames pairs deleted and added declarations as renames, the
// best-scoring pairs first, each declaration at most once.
func matchRenames(deleted, added []loose) *renames {
	// renames: best-scoring pairs first
	type cand struct {
		i, j  int
		score float64
	}
	var cands []cand
	for i, d := range deleted {
		for j, a := range added {
			if d.fe != a.fe || !renameCompatible(d.s.decl, a.s.decl) {
				continue
			}
			if s := renameScore(d.s.decl, a.s.decl); s > 0 {
				cands = append(cands, cand{i, j, s})
			}
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].score > cands[b].score })
	r := &renames{usedD: map[int]bool{}, usedA: map[int]bool{}, renamedTo: map[int]int{}}
	for _, c := range cands {
		if r.usedD[c.i] || r.usedA[c.j] {
			continue
		}
		r.usedD[c.i], r.usedA[c.j] = true, true
		r.renamedTo[c.i] = c.j
	}
	return r
}

// pairMembers compares the members of a renamed type as the same
// members: a deleted T.m with an added U.m when T was renamed U.
func (r *renames) pairMembers(deleted, added []loose, out *Output) {
	typeRenames := map[string]string{} // pkg, unit, old type -> new type
	for i, j := range r.renamedTo {
		d, a := deleted[i].s.decl, added[j].s.decl
		if d.Kind == model.KindType || d.Kind == model.KindInterface {
			typeRenames[d.Package+"\x00"+d.Unit+"\x00"+d.Name] = a.Name
		}
	}
	if len(typeRenames) == 0 {
		return
	}
	for i, d := range deleted {
		dd := d.s.decl
		nt, ok := typeRenames[dd.Package+"\x00"+dd.Unit+"\x00"+dd.Container]
		if !ok || dd.Container == "" || r.usedD[i] {
			continue
		}
		for j, a := range added {
			ad := a.s.decl
			if r.usedA[j] || ad.Container != nt || ad.Name != dd.Name || ad.Package != dd.Package || ad.Unit != dd.Unit {
				continue
			}
			r.usedD[i], r.usedA[j] = true, true
			if c := compare(d.fe, d.s, a.s); c != nil {
				out.add(c)
			}
			break
		}
	}
}

// unpaired adds the changes of the declarations no same-key pairing
// consumed: renames (as deletions naming the new name), then deletions,
// then additions.
func (r *renames) unpaired(deleted, added []loose, out *Output) {
	for i, d := range deleted {
		if r.usedD[i] {
			if _, renamed := r.renamedTo[i]; !renamed {
				continue // a member of a renamed type, paired above
			}
		}
		if j, ok := r.renamedTo[i]; ok {
			a := added[j]
			c := &model.Change{Label: deletedLabel(d.s.decl.Kind), Old: &d.s.decl.Block, New: &a.s.decl.Block}
			c.Details = append(c.Details, "renamed to "+a.s.decl.Name)
			if d.s.decl.Sig != a.s.decl.Sig {
				c.Details = append(c.Details, d.fe.Details(d.s.decl, a.s.decl)...)
			}
			out.add(c)
			continue
		}
		out.add(&model.Change{Label: deletedLabel(d.s.decl.Kind), Old: &d.s.decl.Block, Details: []string{"deleted"}})
	}
	for j, a := range added {
		if r.usedA[j] {
			continue
		}
		out.add(&model.Change{Label: addedLabel(a.s.decl.Kind), New: &a.s.decl.Block, Details: []string{"added"}})
	}
}

func (o *Output) add(c *model.Change) { o.Changes = append(o.Changes, c) }

// readDecls parses one file state; broken reports a state whose
// declarations are not all known (it does not parse, is binary or too
// large).
func readDecls(ctx context.Context, fe lang.Frontend, t gitio.Tree, path string, diags *[]model.Diagnostic) (decls []*lang.Decl, broken bool, err error) {
	src, err := t.ReadFile(ctx, path)
	if err != nil {
		if errors.Is(err, gitio.ErrNotExist) {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(src) > MaxFileSize {
		*diags = append(*diags, model.Diagnostic{Path: path, Message: fmt.Sprintf("file of %d bytes skipped (limit %d)", len(src), MaxFileSize)})
		return nil, true, nil
	}
	if i := bytes.IndexByte(src[:min(len(src), 8000)], 0); i >= 0 {
		*diags = append(*diags, model.Diagnostic{Path: path, Message: "binary content skipped"})
		return nil, true, nil
	}
	decls, diag := fe.Decls(path, src)
	if diag != nil {
		*diags = append(*diags, *diag)
	}
	return decls, diag != nil && diag.Partial, nil
}

// pairSides pairs the states of one declaration key. Usually one each;
// build variants (the same function in foo_unix.go and foo_windows.go)
// pair by path first.
func pairSides(old, new []side) (pairs [][2]side, oldLeft, newLeft []side) {
	if len(old) == 1 && len(new) == 1 {
		return [][2]side{{old[0], new[0]}}, nil, nil
	}
	usedNew := make([]bool, len(new))
	usedOld := make([]bool, len(old))
	// within one file, states of one key are overloads (Java methods of
	// one name) or repeated declarations (Go init functions): pair the
	// unchanged ones first, then those whose signature is unchanged, then
	// the rest in order, so that one overload changed is one change
	for _, same := range []func(o, n *lang.Decl) bool{
		func(o, n *lang.Decl) bool { return o.Sig == n.Sig && o.Body == n.Body },
		func(o, n *lang.Decl) bool { return o.Sig == n.Sig },
		func(o, n *lang.Decl) bool { return true },
	} {
		for i, o := range old {
			if usedOld[i] {
				continue
			}
			for j, n := range new {
				if !usedNew[j] && o.fc == n.fc && same(o.decl, n.decl) {
					pairs = append(pairs, [2]side{o, n})
					usedNew[j], usedOld[i] = true, true
					break
				}
			}
		}
	}
	var unpairedOld []side
	for i, o := range old {
		if !usedOld[i] {
			unpairedOld = append(unpairedOld, o)
		}
	}
	var unpairedNew []side
	for j, n := range new {
		if !usedNew[j] {
			unpairedNew = append(unpairedNew, n)
		}
	}
	// a declaration moved between files of the package
	for len(unpairedOld) > 0 && len(unpairedNew) > 0 {
		pairs = append(pairs, [2]side{unpairedOld[0], unpairedNew[0]})
		unpairedOld, unpairedNew = unpairedOld[1:], unpairedNew[1:]
	}
	return pairs, unpairedOld, unpairedNew
}

// compare labels the change between two states of one declaration, or
// returns nil when nothing a dependent could see changed.
func compare(fe lang.Frontend, o, n side) *model.Change {
	od, nd := o.decl, n.decl
	if od.Sig != nd.Sig {
		c := &model.Change{Label: modifiedLabel(od.Kind, nd.Kind), Old: &od.Block, New: &nd.Block}
		if c.Details = fe.Details(od, nd); len(c.Details) > 0 {
			return c
		}
		// the fingerprint moved but nothing a dependent relies on did (a
		// parameter renamed): only the body can still matter
	}
	switch {
	case od.Body != nd.Body:
		switch nd.Kind {
		case model.KindFunc, model.KindMethod, model.KindConstructor, model.KindVar, model.KindConst:
		default:
			return nil
		}
		c := &model.Change{Label: model.MMB, Old: &od.Block, New: &nd.Block}
		oldCh := func(from, to int) bool { return o.fc.OldRangeChanged(from, to) }
		newCh := func(from, to int) bool { return n.fc.NewRangeChanged(from, to) }
		c.Escapes = fe.Escapes(od, nd, oldCh, newCh)
		if nd.Kind == model.KindVar || nd.Kind == model.KindConst {
			c.Details = []string{"value changed"}
		} else {
			c.Details = []string{"body changed"}
		}
		if len(c.Escapes) > 0 {
			c.Details[0] += " (escapes: " + strings.Join(c.Escapes, ", ") + ")"
		}
		return c
	}
	return nil
}

func modifiedLabel(old, new model.Kind) model.Label {
	if old != new && (old == model.KindType || old == model.KindInterface || new == model.KindType || new == model.KindInterface) {
		return model.MC
	}
	if old == model.KindField && new != model.KindField {
		// a field that became a method of its name (a getter): its reads
		// and literal keys are what it impacts, as a retyped field's
		return model.MF
	}
	switch new {
	case model.KindFunc, model.KindMethod, model.KindIfaceMethod:
		return model.MMS
	case model.KindConstructor:
		return model.MCC
	case model.KindField, model.KindVar, model.KindConst:
		return model.MF
	case model.KindType, model.KindInterface:
		return model.MC
	case model.KindImport:
		return model.MI
	}
	return model.MMS
}

func deletedLabel(k model.Kind) model.Label {
	switch k {
	case model.KindConstructor:
		return model.DCC
	case model.KindField, model.KindVar, model.KindConst:
		return model.DF
	case model.KindType, model.KindInterface:
		return model.DC
	case model.KindImport:
		return model.DI
	}
	return model.DM
}

func addedLabel(k model.Kind) model.Label {
	switch k {
	case model.KindConstructor:
		return model.ACC
	case model.KindField, model.KindVar, model.KindConst:
		return model.AF
	case model.KindType, model.KindInterface:
		return model.AC
	case model.KindImport:
		return model.AI
	}
	return model.AM
}

// renameCompatible: same language unit and container, compatible kinds.
func renameCompatible(d, a *lang.Decl) bool {
	if d.Package != a.Package || d.Unit != a.Unit || d.Container != a.Container {
		return false
	}
	if d.Kind == model.KindImport || a.Kind == model.KindImport {
		return false
	}
	kindGroup := func(k model.Kind) int {
		switch k {
		case model.KindFunc, model.KindConstructor:
			return 1
		case model.KindType, model.KindInterface:
			return 2
		case model.KindVar, model.KindConst:
			return 3
		}
		return 4 + len(k) // method, interface method, field: only with themselves
	}
	return kindGroup(d.Kind) == kindGroup(a.Kind)
}

// renameScore is > 0 when a (added) plausibly is d (deleted) renamed.
func renameScore(d, a *lang.Decl) float64 {
	sameFile := 0.0
	if d.Path == a.Path {
		sameFile = 0.01
	}
	if d.Body != "" && d.Body == a.Body {
		if d.Sig == a.Sig {
			return 3 + sameFile
		}
		return 2 + sameFile
	}
	if d.Body == "" && a.Body == "" {
		// fields and interface methods: the same type, in the same file
		if d.Sig == a.Sig && d.Path == a.Path {
			return 1 + sameFile
		}
		return 0
	}
	if d.Sig == a.Sig {
		if j := jaccard(d.Body, a.Body); j >= 0.6 {
			return j + sameFile
		}
	}
	return 0
}

// jaccard is the token-set similarity of two canonical bodies.
func jaccard(a, b string) float64 {
	ta, tb := map[string]bool{}, map[string]bool{}
	for _, t := range strings.Fields(a) {
		ta[t] = true
	}
	for _, t := range strings.Fields(b) {
		tb[t] = true
	}
	if len(ta) == 0 && len(tb) == 0 {
		return 1
	}
	inter := 0
	for t := range ta {
		if tb[t] {
			inter++
		}
	}
	return float64(inter) / float64(len(ta)+len(tb)-inter)
}
