package driver

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/resilint/resilint/internal/nolint"
	"github.com/resilint/resilint/suite"
)

// finding is one diagnostic that survived the filters.
type finding struct {
	act  *checker.Action
	diag analysis.Diagnostic
	posn token.Position
}

// filter applies //nolint directives and removes the duplicates that test
// variants of a package produce (a file of package p is also in "p [p.test]").
// It rewrites the root actions' Diagnostics in place, so that the checker's
// printers print exactly the findings returned.
func (d *run) filter(graph *checker.Graph) []finding {
	roots := append([]*checker.Action(nil), graph.Roots...)
	sort.SliceStable(roots, func(i, j int) bool {
		vi, vj := isVariant(roots[i].Package.ID), isVariant(roots[j].Package.ID)
		if vi != vj {
			return !vi
		}
		return roots[i].Package.ID < roots[j].Package.ID
	})
	dirs := map[string][]*nolint.Directive{}
	quiet := map[string]bool{} // files whose findings the analyzers drop
	for _, act := range roots {
		for _, f := range act.Package.Syntax {
			name := act.Package.Fset.File(f.FileStart).Name()
			if _, ok := dirs[name]; !ok {
				dirs[name] = nolint.File(act.Package.Fset, f)
				quiet[name] = strings.HasSuffix(name, "_test.go") && !d.cfg.Tests || ast.IsGenerated(f) && !d.cfg.Generated
			}
		}
	}
	type key struct {
		analyzer  string
		posn, end token.Position
		msg       string
	}
	seen := map[key]bool{}
	var out []finding
	for _, act := range roots {
		if act.Err != nil {
			continue
		}
		kept := act.Diagnostics[:0:0]
		for _, diag := range act.Diagnostics {
			posn := act.Package.Fset.Position(diag.Pos)
			k := key{act.Analyzer.Name, posn, act.Package.Fset.Position(diag.End), diag.Message}
			if seen[k] {
				continue
			}
			seen[k] = true
			if nolint.Suppressed(dirs[posn.Filename], act.Analyzer.Name, posn) {
				continue
			}
			kept = append(kept, diag)
			out = append(out, finding{act: act, diag: diag, posn: posn})
		}
		act.Diagnostics = kept
	}
	if d.unusedNolint {
		names := map[string]bool{}
		for _, n := range suite.Names() {
			names[n] = true
		}
		enabled := map[string]bool{}
		for _, act := range roots {
			enabled[act.Analyzer.Name] = true
		}
		var unused []string
		for name, list := range dirs {
			if quiet[name] {
				continue // no finding is reported there, so no directive is used
			}
			for _, dir := range list {
				if dir.Used || !dir.Ours(names) || !relevantTo(dir, enabled) {
					continue
				}
				unused = append(unused, fmt.Sprintf("%s:%d: unused //nolint directive for %s: it suppresses no finding; remove it", relPath(dir.File), dir.From, strings.Join(dir.Names, ",")))
			}
		}
		sort.Strings(unused)
		for _, u := range unused {
			fmt.Fprintln(d.stderr, u)
		}
		d.unused = len(unused)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].posn, out[j].posn
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
	return out
}

// relevantTo reports whether a directive names an analyzer that ran, or
// resilint as a whole while every analyzer ran: a directive for a disabled
// analyzer is not unused.
func relevantTo(dir *nolint.Directive, enabled map[string]bool) bool {
	for _, n := range dir.Names {
		if n == "resilint" && len(enabled) == len(suite.Names()) || n != "resilint" && enabled[n] {
			return true
		}
	}
	return false
}

func isVariant(id string) bool { return strings.Contains(id, "[") || strings.HasSuffix(id, ".test") }
