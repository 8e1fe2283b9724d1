package driver

import (
	"bytes"
	"fmt"
	"os"
	"sort"
)

// -fix and -diff. The first suggested fix of every finding is a candidate.
// A round:
//
//  1. drops candidates whose edits overlap an earlier candidate's (they are
//     retried in the next round, on the fixed code), or that edit a
//     read-only file or a file outside the analysed packages;
//  2. renders every file with its candidates (render.go: only the
//     declarations an edit touched are formatted; imports that fixes add are
//     placed in goimports' groups, imports.go);
//  3. type-checks every package the candidates edit, with the rendered files
//     (typecheck.go). A package that does not type-check is checked again
//     with its candidates added a chunk at a time, in order: a chunk that
//     breaks the build is split, and a single fix that does is dropped ("not
//     applied: would not compile: ..."). An import that the fixes left
//     unused is removed;
//  4. analyses the fixed code again (in memory): a finding that the fixes
//     made and that has a fix of its own is fixed in the next round; one
//     without a fix drops the fixes of its declaration ("not applied: the
//     fixed code would be reported: ...") and the round is redone.
//
// Rounds repeat until one has nothing left to apply, so that a second -fix
// changes nothing. Only then is anything written (write.go) or printed.

// maxRounds bounds the rounds; maxRuns the analyses of fixed code.
const (
	maxRounds = 4
	maxRuns   = 6
)

// A candidate is the fix -fix applies for one finding.
type candidate struct {
	f       *Finding
	fix     Fix
	order   int
	group   *checkGroup
	edits   map[string][]edit       // per file, the edits other than added imports
	imports map[string][]importSpec // per file, the imports it adds
	files   []string                // the files it edits, sorted

	applied  bool
	resolved bool   // not applied, but its finding is gone after the other fixes
	reason   string // why it was not applied ("" while pending or applied)
	retry    bool   // dropped for a conflict: retried in the next round
	round    int
}

// fixState is the state of one -fix run.
type fixState struct {
	d        *run
	res      *Result
	orig     map[string][]byte   // file contents when first read
	cur      map[string][]byte   // file contents after the rounds so far
	trans    map[string][]placed // original -> current content, per file
	last     map[string][]placed // the last round's base -> current content
	cands    []*candidate
	fileOf   map[string][]string // file -> the IDs of the packages that hold it
	imports  map[string]*fileImports
	readOnly map[string]error
}

// fix applies the candidates of found (the findings that survived the
// filters; all is every finding before -baseline and -new-from-rev) and
// returns the exit code, given the engine's.
func (d *run) fixFindings(res *Result, all, found []Finding, status int) int {
	st := &fixState{d: d, res: res, orig: map[string][]byte{}, cur: map[string][]byte{}, trans: map[string][]placed{},
		fileOf: map[string][]string{}, imports: map[string]*fileImports{}, readOnly: map[string]error{}}
	for _, p := range res.Packages {
		for _, f := range p.Files {
			st.fileOf[f] = append(st.fileOf[f], p.ID)
		}
	}
	known := map[string]int{}
	for _, f := range all {
		known[d.findingKey(f)]++
	}
	for i := range found {
		if len(found[i].Fixes) > 0 {
			st.cands = append(st.cands, st.candidate(&found[i], len(st.cands), 1))
		}
	}
	round := st.cands
	runs := 0
	var left []Finding // findings the fixes made that have no fix and no culprit
	for r := 1; r <= maxRounds && len(round) > 0; r++ {
		var next []*candidate
		for redo := 0; ; redo++ {
			before := st.snapshot()
			changed := st.runRound(round, r)
			if len(changed) == 0 {
				// Nothing applied: conflicts are retried on the same code.
				for _, c := range round {
					if c.retry {
						c.retry = false
						next = append(next, c)
					}
				}
				break
			}
			if bad := st.vetCulprits(round, changed, before); len(bad) > 0 {
				st.restore(before)
				for c, why := range bad {
					c.applied, c.reason = false, why
				}
				if redo >= 2 {
					st.drop(round, "not applied: go vet would report the fixed code")
					break
				}
				round = st.again(round)
				continue
			}
			var after []Finding
			ok := runs < maxRuns
			if ok {
				runs++
				after, ok = st.reanalyse()
			}
			if !ok {
				st.restore(before)
				st.drop(round, "not applied: the fixed code could not be analysed again")
				break
			}
			v := st.compare(after, round, r, known)
			if len(v.culprits) > 0 {
				for _, c := range v.culprits {
					c.applied, c.reason = false, v.why[c]
				}
				st.restore(before)
				if redo >= 2 {
					st.drop(round, "not applied: the fixed code would be reported again")
					next = nil
					break
				}
				round = st.again(round)
				continue
			}
			for _, k := range v.made {
				known[k]++
			}
			for c, f := range v.retried {
				c.retry, c.round = false, r+1
				st.setEdits(c, f.Pkg, f.Fixes[0])
			}
			for c, reason := range v.why {
				c.reason, c.retry = reason, false
			}
			for _, c := range v.resolved {
				c.retry, c.resolved = false, true
			}
			st.cands = append(st.cands, v.made2...)
			next = v.next
			left = append(left, v.left...)
			break
		}
		round = next
	}
	for _, c := range st.cands {
		if c.retry {
			c.retry = false
			c.reason = "not applied: it conflicts with another fix"
		}
		if !c.applied && !c.resolved && c.reason == "" {
			c.reason = "not applied: -fix did not reach a fixpoint in time"
		}
	}
	return st.finish(found, left, status)
}

// again returns the candidates of a round to redo: those not dropped.
func (st *fixState) again(round []*candidate) []*candidate {
	var out []*candidate
	for _, c := range round {
		if c.reason == "" {
			c.applied, c.retry = false, false
			out = append(out, c)
		}
	}
	return out
}

// drop marks the applied candidates of a round as not applied.
func (st *fixState) drop(round []*candidate, reason string) {
	for _, c := range round {
		if c.applied || c.retry {
			c.applied, c.retry, c.reason = false, false, reason
		}
	}
}

// A verdict is what the findings of the fixed code say about a round.
type verdict struct {
	next     []*candidate            // the next round: fixes of findings the fixes made, retried conflicts
	made2    []*candidate            // the new candidates among next
	retried  map[*candidate]*Finding // conflicts retried, with their finding on the fixed code
	culprits []*candidate            // fixes that made a finding without a fix
	why      map[*candidate]string   // why a candidate is not applied
	resolved []*candidate            // conflicts whose finding is gone
	left     []Finding               // findings the fixes made, without a fix or culprit
	made     []string                // the keys of the findings the fixes made
}

// compare reads the findings of the fixed code; known counts the findings
// seen so far by key. It changes nothing: the caller applies the verdict,
// or redoes the round without the culprits.
func (st *fixState) compare(after []Finding, round []*candidate, r int, known map[string]int) verdict {
	d := st.d
	v := verdict{retried: map[*candidate]*Finding{}, why: map[*candidate]string{}}
	expected := map[string]int{}
	for k, n := range known {
		expected[k] = n
	}
	for _, c := range st.cands {
		if c.applied {
			expected[d.findingKey(*c.f)]--
		}
	}
	retries := map[string][]*candidate{}
	for _, c := range round {
		if c.retry {
			k := d.findingKey(*c.f)
			retries[k] = append(retries[k], c)
		}
	}
	present := map[string]bool{}
	for i := range after {
		f := &after[i]
		k := d.findingKey(*f)
		present[k] = true
		if list := retries[k]; len(list) > 0 && len(f.Fixes) > 0 {
			// A fix dropped for a conflict, now on the fixed code.
			c := list[0]
			retries[k] = list[1:]
			v.retried[c] = f
			v.next = append(v.next, c)
			expected[k]--
			continue
		}
		if expected[k] > 0 {
			expected[k]--
			continue
		}
		// A finding the fixes made.
		v.made = append(v.made, k)
		if len(f.Fixes) > 0 {
			nc := st.candidate(f, len(st.cands)+len(v.made2), r+1)
			v.made2 = append(v.made2, nc)
			v.next = append(v.next, nc)
			continue
		}
		if cs := st.culprits(round, *f); len(cs) > 0 {
			for _, c := range cs {
				v.why[c] = fmt.Sprintf("not applied: the fixed code would be reported: %s: %s", f.Analyzer, f.Message)
			}
			v.culprits = append(v.culprits, cs...)
			continue
		}
		v.left = append(v.left, *f)
	}
	for _, list := range retries {
		for _, c := range list {
			if present[d.findingKey(*c.f)] {
				v.why[c] = "not applied: it conflicts with another fix"
			} else {
				v.resolved = append(v.resolved, c)
			}
		}
	}
	return v
}

// findingKey identifies a finding across edits that move it: analyzer,
// file and message (line numbers blanked).
func (d *run) findingKey(f Finding) string {
	msg := posRef.ReplaceAllString(lineRef.ReplaceAllString(f.Message, "line N"), "$1")
	return f.Analyzer + "\x00" + f.Posn.Filename + "\x00" + msg
}

// candidate makes the candidate of a finding's first fix.
func (st *fixState) candidate(f *Finding, order, round int) *candidate {
	c := &candidate{f: f, order: order, round: round}
	st.setEdits(c, f.Pkg, f.Fixes[0])
	return c
}

// setEdits sorts a fix's edits by file, separating the imports it adds,
// and finds the group of packages it is checked with (pkg's).
func (st *fixState) setEdits(c *candidate, pkg string, fix Fix) {
	c.fix = fix
	c.edits = map[string][]edit{}
	c.imports = map[string][]importSpec{}
	c.files = nil
	c.group = nil
	c.reason = ""
	for _, e := range fix.Edits {
		if e.File == "" || e.Start < 0 || e.End < e.Start {
			c.reason = "not applied: the fix has an invalid edit"
			return
		}
		if _, ok := st.fileOf[e.File]; !ok {
			c.reason = "not applied: it edits " + relPath(e.File) + ", which is not in the analysed packages"
			return
		}
		if err := st.writable(e.File); err != nil {
			c.reason = "not applied: " + relPath(e.File) + " " + err.Error()
			return
		}
		src := st.content(e.File)
		if src == nil || e.End > len(src) {
			c.reason = "not applied: " + relPath(e.File) + " changed since it was analysed"
			return
		}
		ed := edit{e.Start, e.End, string(e.New)}
		if specs, ok := st.importsOf(e.File).importEdit(ed); ok {
			c.imports[e.File] = append(c.imports[e.File], specs...)
		} else {
			c.edits[e.File] = append(c.edits[e.File], ed)
		}
		if len(c.files) == 0 || !contains(c.files, e.File) {
			c.files = append(c.files, e.File)
		}
	}
	sort.Strings(c.files)
	for _, list := range c.edits {
		sortEdits(list)
	}
	// The group: the packages of the finding's package path.
	var key string
	for _, p := range st.res.Packages {
		if p.ID == pkg {
			key = groupKey(p.ID, p.Path)
		}
	}
	if key == "" {
		key = pkg
	}
	c.group = &checkGroup{key: key}
	for _, p := range st.res.Packages {
		if groupKey(p.ID, p.Path) == key {
			c.group.ids = append(c.group.ids, p.ID)
		}
	}
	for _, file := range c.files {
		for _, id := range st.fileOf[file] {
			if !contains(c.group.ids, id) {
				c.reason = "not applied: it edits more than one package"
				return
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// content returns a file's current content, read once.
func (st *fixState) content(name string) []byte {
	if data, ok := st.cur[name]; ok {
		return data
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	st.orig[name] = data
	st.cur[name] = data
	return data
}

func (st *fixState) importsOf(name string) *fileImports {
	if fi, ok := st.imports[name]; ok {
		return fi
	}
	fi := parseImports(name, st.content(name))
	st.imports[name] = fi
	return fi
}

type snapshot struct {
	cur     map[string][]byte
	trans   map[string][]placed
	imports map[string]*fileImports
}

func (st *fixState) snapshot() snapshot {
	s := snapshot{cur: map[string][]byte{}, trans: map[string][]placed{}, imports: map[string]*fileImports{}}
	for k, v := range st.cur {
		s.cur[k] = v
	}
	for k, v := range st.trans {
		s.trans[k] = v
	}
	for k, v := range st.imports {
		s.imports[k] = v
	}
	return s
}

func (st *fixState) restore(s snapshot) {
	st.cur, st.trans, st.imports = s.cur, s.trans, s.imports
}

// runRound applies a round's candidates to the current contents and
// returns the files it changed.
func (st *fixState) runRound(round []*candidate, r int) []string {
	// 1. Conflicts, in order.
	sort.SliceStable(round, func(i, j int) bool { return round[i].order < round[j].order })
	accepted := map[string]*editSet{}
	var live []*candidate
	st.last = map[string][]placed{}
	for _, c := range round {
		c.retry, c.applied = false, false
		if c.reason != "" {
			continue
		}
		c.round = r
		clash := false
		for file, list := range c.edits {
			if accepted[file] != nil && accepted[file].clashes(list) {
				clash = true
			}
		}
		if clash {
			c.retry = true
			continue
		}
		for file, list := range c.edits {
			if accepted[file] == nil {
				accepted[file] = &editSet{}
			}
			accepted[file].add(list)
		}
		live = append(live, c)
	}
	if len(live) == 0 {
		return nil
	}
	// 2 and 3. Render and type-check, per group.
	groups := map[string][]*candidate{}
	var keys []string
	for _, c := range live {
		if groups[c.group.key] == nil {
			keys = append(keys, c.group.key)
		}
		groups[c.group.key] = append(groups[c.group.key], c)
	}
	sort.Strings(keys)
	var gs []*checkGroup
	overlay := map[string][]byte{}
	for name, data := range st.cur {
		if !bytes.Equal(data, st.orig[name]) {
			overlay[name] = data
		}
	}
	full := map[string]map[string]rendered{}
	for _, k := range keys {
		gs = append(gs, groups[k][0].group)
		r := st.renderAll(groups[k], nil)
		full[k] = r
		for name, out := range r {
			if out.err == nil {
				overlay[name] = out.data
			}
		}
	}
	tc := st.d.loadForCheck(gs, st.res, overlay, st.content)
	var changed []string
	for _, k := range keys {
		cs := groups[k]
		g := cs[0].group
		ok, out := st.tryGroup(tc, g, cs, full[k])
		if !ok {
			var acc []*candidate
			out = st.greedy(tc, g, nil, cs, &acc)
			for _, c := range cs {
				c.applied = contains2(acc, c)
			}
		} else {
			for _, c := range cs {
				c.applied = true
			}
		}
		for name, r := range out {
			if bytes.Equal(r.data, st.cur[name]) {
				continue
			}
			st.trans[name] = compose(st.trans[name], r.placed)
			st.last[name] = r.placed
			st.cur[name] = r.data
			st.imports[name] = parseImports(name, r.data)
			changed = append(changed, name)
		}
	}
	sort.Strings(changed)
	return changed
}

func contains2(list []*candidate, c *candidate) bool {
	for _, x := range list {
		if x == c {
			return true
		}
	}
	return false
}

// rendered is one file with a set of fixes.
type rendered struct {
	data   []byte
	placed []placed // its regions, as placements in the current content
	err    error
}

// renderAll renders the files of a set of candidates; drop lists imports
// to remove per file (left unused by the fixes).
func (st *fixState) renderAll(cs []*candidate, drop map[string][]string) map[string]rendered {
	edits := map[string][]edit{}
	specs := map[string][]importSpec{}
	files := map[string]bool{}
	for _, c := range cs {
		for _, f := range c.files {
			files[f] = true
		}
		for f, list := range c.edits {
			edits[f] = append(edits[f], list...)
		}
		for f, list := range c.imports {
			specs[f] = append(specs[f], list...)
		}
	}
	for f := range drop {
		files[f] = true
	}
	out := map[string]rendered{}
	for f := range files {
		src := st.content(f)
		list := append([]edit(nil), edits[f]...)
		fi := st.importsOf(f)
		if fi != nil {
			list = append(list, fi.plan(specs[f])...)
			list = append(list, fi.remove(drop[f])...)
		}
		data, regions, err := render(f, src, dedupEdits(list))
		if err != nil {
			out[f] = rendered{err: err}
			continue
		}
		out[f] = rendered{data: data, placed: placements(regions)}
	}
	return out
}

// dedupEdits drops repeated identical edits (two fixes deleting the same
// import).
func dedupEdits(list []edit) []edit {
	sortEdits(list)
	out := list[:0]
	for i, e := range list {
		if i > 0 && e == list[i-1] && e.start != e.end {
			continue
		}
		if i > 0 && e == list[i-1] && e.start == e.end {
			continue
		}
		out = append(out, e)
	}
	return out
}

// tryGroup renders and checks a set of candidates of a group, removing
// imports the fixes left unused; it returns the rendered files when they
// type-check.
func (st *fixState) tryGroup(tc *typeChecker, g *checkGroup, cs []*candidate, r map[string]rendered) (bool, map[string]rendered) {
	ok, _, out := st.tryGroupErr(tc, g, cs, r)
	if !ok {
		return false, nil
	}
	return ok, out
}

func (st *fixState) tryGroupErr(tc *typeChecker, g *checkGroup, cs []*candidate, r map[string]rendered) (bool, []checkErr, map[string]rendered) {
	if r == nil {
		r = st.renderAll(cs, nil)
	}
	var drop map[string][]string
	for attempt := 0; attempt < 2; attempt++ {
		var errs []checkErr
		for name, out := range r {
			if out.err != nil {
				errs = append(errs, checkErr{file: name, offset: -1, msg: relPath(name) + ": " + out.err.Error()})
			}
		}
		if len(errs) > 0 {
			return false, errs, r
		}
		errs = tc.check(g, func(name string) []byte {
			if out, ok := r[name]; ok {
				return out.data
			}
			return st.content(name)
		})
		if len(errs) == 0 {
			return true, nil, r
		}
		// Imports the fixes left unused are removed.
		onlyUnused := attempt == 0
		next := map[string][]string{}
		for _, e := range errs {
			_, path, ok := unusedImport(e.msg)
			if !ok || e.file == "" || r[e.file].data == nil || st.importsOf(e.file) == nil || !st.importsOf(e.file).hasPath(path) {
				onlyUnused = false
				break
			}
			next[e.file] = append(next[e.file], path)
		}
		if !onlyUnused {
			return false, errs, r
		}
		drop = next
		r = st.renderAll(cs, drop)
	}
	return false, []checkErr{msgErr("the fixes leave imports unused")}, r
}

// greedy adds candidates to acc a chunk at a time, keeping a chunk when the
// group still type-checks with it; when not, the candidates in the
// declarations the errors are in are set apart and added after the others,
// one declaration at a time, and a chunk whose errors point nowhere is
// split; a single candidate that breaks the build is dropped with the
// first error. It returns the rendered files of the accepted set.
func (st *fixState) greedy(tc *typeChecker, g *checkGroup, out map[string]rendered, chunk []*candidate, acc *[]*candidate) map[string]rendered {
	if len(chunk) == 0 {
		return out
	}
	try := append(append([]*candidate(nil), *acc...), chunk...)
	ok, errs, r := st.tryGroupErr(tc, g, try, nil)
	if ok {
		*acc = try
		return r
	}
	if len(chunk) == 1 {
		chunk[0].reason = "not applied: would not compile: " + errs[0].msg
		return out
	}
	if suspects, rest := st.attribute(chunk, errs, r); len(suspects) > 0 && len(rest) > 0 {
		out = st.greedy(tc, g, out, rest, acc)
		for _, group := range suspects {
			out = st.greedy(tc, g, out, group, acc)
		}
		return out
	}
	mid := len(chunk) / 2
	out = st.greedy(tc, g, out, chunk[:mid], acc)
	return st.greedy(tc, g, out, chunk[mid:], acc)
}

// attribute splits a chunk by the errors of its check: the candidates with
// an edit in a declaration that holds an error (grouped by declaration),
// and the others. It gives up (no suspects) when an error points nowhere.
func (st *fixState) attribute(chunk []*candidate, errs []checkErr, r map[string]rendered) ([][]*candidate, []*candidate) {
	type declKey struct {
		file  string
		start int
	}
	spans := map[string][]span{}
	bad := map[declKey]bool{}
	for _, e := range errs {
		out, ok := r[e.file]
		if e.file == "" || e.offset < 0 || !ok || out.data == nil {
			return nil, nil
		}
		if spans[e.file] == nil {
			spans[e.file] = declSpansOf(e.file, out.data)
		}
		sp, found := spanAt(spans[e.file], e.offset)
		if !found {
			return nil, nil
		}
		bad[declKey{e.file, sp.start}] = true
	}
	byDecl := map[declKey][]*candidate{}
	var order []declKey
	var rest []*candidate
	for _, c := range chunk {
		var hit *declKey
		for file, list := range c.edits {
			if spans[file] == nil {
				continue
			}
			for _, e := range list {
				at := mapForward(r[file].placed, e.start)
				if sp, ok := spanAt(spans[file], at); ok && bad[declKey{file, sp.start}] {
					hit = &declKey{file, sp.start}
				}
			}
		}
		if hit == nil {
			rest = append(rest, c)
			continue
		}
		if byDecl[*hit] == nil {
			order = append(order, *hit)
		}
		byDecl[*hit] = append(byDecl[*hit], c)
	}
	var suspects [][]*candidate
	for _, k := range order {
		suspects = append(suspects, byDecl[k])
	}
	return suspects, rest
}

// spanAt returns the span that holds off.
func spanAt(spans []span, off int) (span, bool) {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].end > off })
	if i < len(spans) && spans[i].start <= off {
		return spans[i], true
	}
	return span{}, false
}

// reanalyse runs the engine on the fixed code and returns its findings,
// filtered as the first run's were (before -baseline and -new-from-rev).
func (st *fixState) reanalyse() ([]Finding, bool) {
	overlay := map[string][]byte{}
	for name, data := range st.cur {
		if !bytes.Equal(data, st.orig[name]) {
			overlay[name] = data
		}
	}
	res, _ := st.d.engine(st.d.patterns, overlay, true)
	if res == nil {
		return nil, false
	}
	return st.d.dedupe(res), true
}

// culprits returns the candidates of a round applied in the declaration
// that holds a finding of the fixed code.
func (st *fixState) culprits(round []*candidate, f Finding) []*candidate {
	name := f.Posn.Filename
	data := st.cur[name]
	decl := declAt(name, data, f.Posn.Offset)
	var out []*candidate
	for _, c := range round {
		if !c.applied || !contains(c.files, name) {
			continue
		}
		// The candidate's edits, in current coordinates.
		for _, e := range c.edits[name] {
			at := mapForward(st.last[name], e.start)
			if decl.start <= at && at <= decl.end {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// declAt returns the span of the top-level declaration holding off (the
// whole file when there is none).
func declAt(name string, src []byte, off int) span {
	for _, sp := range declSpansOf(name, src) {
		if sp.start <= off && off < sp.end {
			return sp
		}
	}
	return span{0, len(src)}
}

// editSet is the accepted edits of one file, sorted.
type editSet struct{ list []edit }

// clashes reports whether any of the edits overlaps an accepted one.
// Identical edits do not clash; neither do insertions at one offset.
func (s *editSet) clashes(edits []edit) bool {
	for _, e := range edits {
		i := sort.Search(len(s.list), func(i int) bool { return s.list[i].end >= e.start })
		for ; i < len(s.list) && s.list[i].start <= e.end; i++ {
			a := s.list[i]
			if a == e {
				continue
			}
			if overlaps(a, e) {
				return true
			}
		}
	}
	return false
}

func (s *editSet) add(edits []edit) {
	for _, e := range edits {
		i := sort.Search(len(s.list), func(i int) bool {
			return s.list[i].start > e.start || s.list[i].start == e.start && s.list[i].end > e.end
		})
		s.list = append(s.list, edit{})
		copy(s.list[i+1:], s.list[i:])
		s.list[i] = e
	}
}

// overlaps reports whether two edits touch the same text: replacements
// that share bytes, or an insertion strictly inside a replacement.
func overlaps(a, b edit) bool {
	if a.start == a.end && b.start == b.end {
		return false
	}
	if a.start == a.end {
		return b.start < a.start && a.start < b.end
	}
	if b.start == b.end {
		return a.start < b.start && b.start < a.end
	}
	return a.start < b.end && b.start < a.end
}

// finish writes or prints the result and returns the exit code.
func (st *fixState) finish(found, left []Finding, status int) int {
	d := st.d
	var names []string
	for name, data := range st.cur {
		if !bytes.Equal(data, st.orig[name]) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	failed := false
	for _, name := range names {
		if d.diff {
			rel := d.rel(name)
			regions := regionsOf(st.orig[name], st.cur[name], st.trans[name])
			if text := unifiedDiffOf("a/"+rel, "b/"+rel, st.orig[name], regionChanges(st.orig[name], regions)); text != "" {
				fmt.Fprintf(d.stdout, "diff --git a/%s b/%s\n%s", rel, rel, text)
			}
			continue
		}
		if err := writeFixed(name, st.orig[name], st.cur[name]); err != nil {
			fmt.Fprintf(d.stderr, "resilint: %v\n", err)
			failed = true
			for _, c := range st.cands {
				if c.applied && contains(c.files, name) {
					c.applied, c.reason = false, "not applied: "+err.Error()
				}
			}
		}
	}
	// The report.
	byFinding := map[*Finding]*candidate{}
	for _, c := range st.cands {
		byFinding[c.f] = c
	}
	d.fixStatus = map[*Finding]*candidate{}
	var notApplied, nLeft, nApplied int
	var lines []string
	for i := range found {
		f := &found[i]
		c := byFinding[f]
		pos := fmt.Sprintf("%s:%d", relPath(f.Posn.Filename), f.Posn.Line)
		switch {
		case c == nil:
			nLeft++
		case c.applied:
			nApplied++
			lines = append(lines, fmt.Sprintf("%s: %s: %s", pos, f.Analyzer, c.fix.Message))
		case c.resolved:
			nApplied++
			lines = append(lines, fmt.Sprintf("%s: %s: fixed by the other fixes", pos, f.Analyzer))
		default:
			notApplied++
			nLeft++
			lines = append(lines, fmt.Sprintf("%s: %s: %s: %s", pos, f.Analyzer, c.fix.Message, c.reason))
		}
		d.fixStatus[f] = c
	}
	// Fixes of findings the earlier fixes made.
	for _, c := range st.cands {
		if c.round > 1 && byFinding[c.f] == c && !isIn(found, c.f) {
			pos := fmt.Sprintf("%s:%d", relPath(c.f.Posn.Filename), c.f.Posn.Line)
			if c.applied {
				nApplied++
				lines = append(lines, fmt.Sprintf("%s: %s: %s (after the fixes above)", pos, c.f.Analyzer, c.fix.Message))
			} else {
				notApplied++
				nLeft++
				lines = append(lines, fmt.Sprintf("%s: %s: %s: %s", pos, c.f.Analyzer, c.fix.Message, c.reason))
			}
		}
	}
	var rest []Finding
	for i := range found {
		if c := byFinding[&found[i]]; c == nil || !c.applied && !c.resolved {
			rest = append(rest, found[i])
		}
	}
	rest = append(rest, left...)
	nLeft += len(left)
	d.fixed = true
	d.fixLines = lines
	if err := d.writeOutputs(st.res, found, rest, status); err != nil {
		fmt.Fprintf(d.stderr, "resilint: %v\n", err)
		return ExitError
	}
	switch {
	case failed || notApplied > 0 || status == ExitError:
		return ExitError
	case nLeft > 0:
		return ExitFindings
	}
	return status
}

func isIn(found []Finding, f *Finding) bool {
	for i := range found {
		if &found[i] == f {
			return true
		}
	}
	return false
}
