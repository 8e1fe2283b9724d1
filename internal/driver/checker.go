package driver

import (
	"fmt"
	"go/token"
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
func (d *run) runChecker(patterns []string, analyzers []*analysis.Analyzer) (*Result, int) {
	pkgs, code := d.load(patterns)
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
	graph, err := checker.Analyze(analyzers, good, nil)
	if err != nil {
		return nil, d.errorf("%v", err)
	}
	return convertGraph(graph), code
}

// convertGraph converts the checker's results to the neutral form.
func convertGraph(graph *checker.Graph) *Result {
	res := &Result{}
	seenPkg := map[*packages.Package]bool{}
	for _, act := range graph.Roots {
		p := act.Package
		if !seenPkg[p] {
			seenPkg[p] = true
			pkg := Package{ID: p.ID, Path: p.PkgPath}
			for _, f := range p.Syntax {
				if tf := p.Fset.File(f.FileStart); tf != nil {
					pkg.Files = append(pkg.Files, tf.Name())
				}
			}
			res.Packages = append(res.Packages, pkg)
		}
		if act.Err != nil {
			continue
		}
		for _, diag := range act.Diagnostics {
			res.Findings = append(res.Findings, convertDiag(p.Fset, act.Analyzer.Name, p.ID, diag))
		}
	}
	for act := range graph.All() {
		if act.Err != nil {
			res.Errors = append(res.Errors, ActionError{Pkg: act.Package.ID, Analyzer: act.Analyzer.Name, Root: act.IsRoot, Err: act.Err.Error()})
		}
	}
	return res
}

// convertDiag converts one diagnostic.
func convertDiag(fset *token.FileSet, analyzer, pkg string, diag analysis.Diagnostic) Finding {
	f := Finding{
		Analyzer: analyzer,
		Pkg:      pkg,
		Posn:     fset.Position(diag.Pos),
		End:      fset.Position(diag.End),
		Category: diag.Category,
		Message:  diag.Message,
	}
	for _, rel := range diag.Related {
		f.Related = append(f.Related, Related{Posn: fset.Position(rel.Pos), End: fset.Position(rel.End), Message: rel.Message})
	}
	for _, sf := range diag.SuggestedFixes {
		fix := Fix{Message: sf.Message}
		for _, te := range sf.TextEdits {
			fix.Edits = append(fix.Edits, convertEdit(fset, te))
		}
		f.Fixes = append(f.Fixes, fix)
	}
	return f
}

// convertEdit converts a text edit to byte offsets; an edit whose ends are
// not in one file has no File.
func convertEdit(fset *token.FileSet, te analysis.TextEdit) Edit {
	end := te.End
	if !end.IsValid() {
		end = te.Pos
	}
	tf := fset.File(te.Pos)
	if tf == nil || tf != fset.File(end) {
		return Edit{Start: -1, End: -1, New: te.NewText}
	}
	return Edit{File: tf.Name(), Start: tf.Offset(te.Pos), End: tf.Offset(end), New: te.NewText}
}

// load loads the packages, test variants included, with everything the
// analyzers' facts need. Packages that fail to load or type-check are named
// on stderr and make the exit code non-zero; the others are still analyzed.
func (d *run) load(patterns []string) ([]*packages.Package, int) {
	conf := &packages.Config{
		Mode:  packages.LoadAllSyntax | packages.NeedModule,
		Tests: d.loadTests,
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
			msg := fmt.Sprintf("resilint: package %s: %s", p.PkgPath, e)
			if e.Pos != "" {
				msg = fmt.Sprintf("resilint: package %s: %s: %s", p.PkgPath, relPath(e.Pos), e.Msg)
			}
			if !seen[msg] {
				seen[msg] = true
				fmt.Fprintln(d.stderr, msg)
			}
			status = ExitError
		}
	})
	return pkgs, status
}
