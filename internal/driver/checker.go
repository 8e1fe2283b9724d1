package driver

import (
	"fmt"
	"go/token"
	"os"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// The in-process engine: go/packages loads the packages (test variants
// included), go/analysis/checker runs the analyzers, and the results are
// converted to the neutral Result.

// runChecker loads and analyzes the packages. It returns nil when nothing
// could be analyzed; the status is ExitError when a package failed to load
// (named on stderr) or an analyzer failed.
func (d *run) runChecker(patterns []string, overlay map[string][]byte, quiet bool) (*Result, int) {
	pkgs, code := d.load(patterns, overlay, quiet)
	if pkgs == nil {
		return nil, code
	}
	// Packages that failed to load or type-check were named by load; the
	// others are analyzed.
	var good []*packages.Package
	for _, p := range pkgs {
		if len(p.Errors) == 0 && !p.IllTyped {
			good = append(good, p)
		}
	}
	if len(good) == 0 {
		return nil, ExitError
	}
	graph, err := checker.Analyze(d.analyzers, good, nil)
	if err != nil {
		return nil, d.errorf("%v", err)
	}
	return convertGraph(graph, overlay), code
}

// convertGraph converts the checker's results to the neutral form.
// overlay holds the contents the packages were loaded with, over the disk.
func convertGraph(graph *checker.Graph, overlay map[string][]byte) *Result {
	res := &Result{}
	seenPkg := map[*packages.Package]*positions{}
	for _, act := range graph.Roots {
		p := act.Package
		pos := seenPkg[p]
		if pos == nil {
			pos = newPositions(p, overlay)
			seenPkg[p] = pos
			res.Packages = append(res.Packages, Package{ID: p.ID, Path: p.PkgPath, Files: append([]string(nil), p.GoFiles...)})
		}
		if act.Err != nil {
			continue
		}
		for _, diag := range act.Diagnostics {
			res.Findings = append(res.Findings, pos.diag(act.Analyzer.Name, p.ID, diag))
		}
	}
	for act := range graph.All() {
		if act.Err != nil {
			res.Errors = append(res.Errors, ActionError{Pkg: act.Package.ID, Analyzer: act.Analyzer.Name, Root: act.IsRoot, Err: act.Err.Error()})
		}
	}
	return res
}

// positions converts positions of one package to positions in its own
// files. A file of the package is read as it is: its //line directives
// move nothing. A file that cmd/cgo generated from one of the package's
// files is mapped back to that file through the //line directives cmd/cgo
// wrote, and an edit there is kept only when the text it replaces is the
// same in the package's file.
type positions struct {
	fset    *token.FileSet
	own     map[string]bool
	overlay map[string][]byte
	src     map[string][]byte
	lines   map[string][]int
}

func newPositions(p *packages.Package, overlay map[string][]byte) *positions {
	pos := &positions{fset: p.Fset, own: map[string]bool{}, overlay: overlay, src: map[string][]byte{}, lines: map[string][]int{}}
	for _, f := range p.GoFiles {
		pos.own[f] = true
	}
	return pos
}

func (pos *positions) content(name string) []byte {
	if data, ok := pos.src[name]; ok {
		return data
	}
	data, ok := pos.overlay[name]
	if !ok {
		data, _ = os.ReadFile(name)
	}
	pos.src[name] = data
	l := []int{0}
	for i, c := range data {
		if c == '\n' {
			l = append(l, i+1)
		}
	}
	pos.lines[name] = l
	return data
}

// offsetOf returns the byte offset of a line and column of a file, or -1.
func (pos *positions) offsetOf(name string, line, col int) int {
	data := pos.content(name)
	l := pos.lines[name]
	if line < 1 || line > len(l) {
		return -1
	}
	off := l[line-1] + col - 1
	if col < 1 || off > len(data) {
		return -1
	}
	return off
}

// position returns the position of p in the package's own files.
func (pos *positions) position(p token.Pos) token.Position {
	if !p.IsValid() {
		return token.Position{}
	}
	raw := pos.fset.PositionFor(p, false)
	if pos.own[raw.Filename] {
		return raw
	}
	adj := pos.fset.PositionFor(p, true)
	if pos.own[adj.Filename] {
		if off := pos.offsetOf(adj.Filename, adj.Line, adj.Column); off >= 0 {
			adj.Offset = off
			return adj
		}
	}
	return raw
}

// edit converts a text edit to byte offsets in the package's own file; an
// edit that cannot be placed there has no File.
func (pos *positions) edit(te analysis.TextEdit) Edit {
	end := te.End
	if !end.IsValid() {
		end = te.Pos
	}
	invalid := Edit{Start: -1, End: -1, New: te.NewText}
	tf := pos.fset.File(te.Pos)
	if tf == nil || tf != pos.fset.File(end) {
		return invalid
	}
	if pos.own[tf.Name()] {
		return Edit{File: tf.Name(), Start: tf.Offset(te.Pos), End: tf.Offset(end), New: te.NewText}
	}
	// A file cmd/cgo generated: the same text must be in the package's file.
	s, e := pos.position(te.Pos), pos.position(end)
	if s.Filename != e.Filename || !pos.own[s.Filename] || e.Offset < s.Offset {
		return invalid
	}
	gen := pos.content(tf.Name())
	orig := pos.content(s.Filename)
	gs, ge := tf.Offset(te.Pos), tf.Offset(end)
	if ge > len(gen) || e.Offset > len(orig) || string(gen[gs:ge]) != string(orig[s.Offset:e.Offset]) {
		return invalid
	}
	return Edit{File: s.Filename, Start: s.Offset, End: e.Offset, New: te.NewText}
}

// diag converts one diagnostic.
func (pos *positions) diag(analyzer, pkg string, diag analysis.Diagnostic) Finding {
	f := Finding{
		Analyzer: analyzer,
		Pkg:      pkg,
		Posn:     pos.position(diag.Pos),
		End:      pos.position(diag.End),
		Category: diag.Category,
		Message:  diag.Message,
	}
	for _, rel := range diag.Related {
		f.Related = append(f.Related, Related{Posn: pos.position(rel.Pos), End: pos.position(rel.End), Message: rel.Message})
	}
	for _, sf := range diag.SuggestedFixes {
		fix := Fix{Message: sf.Message}
		for _, te := range sf.TextEdits {
			fix.Edits = append(fix.Edits, pos.edit(te))
		}
		f.Fixes = append(f.Fixes, fix)
	}
	return f
}

// load loads the packages, test variants included, with everything the
// analyzers' facts need. Packages that fail to load or type-check are named
// on stderr and make the exit code non-zero; the others are still analyzed.
func (d *run) load(patterns []string, overlay map[string][]byte, quiet bool) ([]*packages.Package, int) {
	conf := &packages.Config{
		Mode:       packages.LoadAllSyntax | packages.NeedModule,
		Tests:      d.loadTests,
		Overlay:    overlay,
		BuildFlags: d.buildFlags(),
	}
	if d.tags != "" {
		conf.BuildFlags = []string{"-tags=" + d.tags}
	}
	pkgs, err := packages.Load(conf, patterns...)
	if err != nil {
		return nil, d.errorf("cannot load %s: %v", strings.Join(patterns, " "), err)
	}
	if len(pkgs) == 0 {
		return nil, d.errorf("%s matched no packages", strings.Join(patterns, " "))
	}
	status := ExitClean
	seen := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			// Named by ID, as the vet engine names it: an error in a
			// test file belongs to the test variant (p [p.test]), not to
			// the package, whose own findings stand.
			msg := fmt.Sprintf("resilint: package %s: %s", p.ID, e)
			if e.Pos != "" {
				msg = fmt.Sprintf("resilint: package %s: %s: %s", p.ID, relPath(e.Pos), e.Msg)
			}
			if !seen[msg] && !quiet {
				seen[msg] = true
				fmt.Fprintln(d.stderr, msg)
			}
			status = ExitError
		}
	})
	// The packages that load but import one that does not cannot be
	// analysed either: name them, and what they wait for.
	for _, p := range pkgs {
		if len(p.Errors) > 0 || !p.IllTyped || strings.HasSuffix(p.ID, ".test") {
			continue // a test main is not analysed anyway
		}
		cause, via := brokenDep(p, map[*packages.Package]bool{})
		if cause == nil {
			continue
		}
		name := p.PkgPath
		if isVariant(p.ID) {
			name = p.ID // its tests: "p [p.test]"
		}
		msg := fmt.Sprintf("resilint: package %s: not analysed: it imports %s, which does not load", name, cause.PkgPath)
		if via != cause {
			msg = fmt.Sprintf("resilint: package %s: not analysed: it imports %s, which depends on %s, which does not load", name, via.PkgPath, cause.PkgPath)
		}
		if !seen[msg] && !quiet {
			seen[msg] = true
			fmt.Fprintln(d.stderr, msg)
		}
		status = ExitError
	}
	return pkgs, status
}

// brokenDep returns a dependency of p that has errors, and the import of p
// through which p reaches it.
func brokenDep(p *packages.Package, seen map[*packages.Package]bool) (cause, via *packages.Package) {
	paths := make([]string, 0, len(p.Imports))
	for path := range p.Imports {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		imp := p.Imports[path]
		if seen[imp] {
			continue
		}
		seen[imp] = true
		if len(imp.Errors) > 0 {
			return imp, imp
		}
		if imp.IllTyped {
			if c, _ := brokenDep(imp, seen); c != nil {
				return c, imp
			}
		}
	}
	return nil, nil
}

// buildFlags returns the build flags for go/packages (-tags).
func (d *run) buildFlags() []string {
	if d.tags == "" {
		return nil
	}
	return []string{"-tags=" + d.tags}
}
