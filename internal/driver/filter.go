package driver

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/nolint"
	"github.com/resilint/resilint/suite"
)

// filter applies //nolint directives and removes the duplicates that test
// variants of a package produce (a file of package p is also in "p [p.test]"):
// of equal findings, the one of the package itself is kept.
func (d *run) filter(res *Result) []Finding {
	variant := func(id string) int {
		if isVariant(id) {
			return 1
		}
		return 0
	}
	pkgs := append([]Package(nil), res.Packages...)
	sort.SliceStable(pkgs, func(i, j int) bool {
		vi, vj := variant(pkgs[i].ID), variant(pkgs[j].ID)
		if vi != vj {
			return vi < vj
		}
		return pkgs[i].ID < pkgs[j].ID
	})
	all := append([]Finding(nil), res.Findings...)
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i].Pkg, all[j].Pkg
		if va, vb := variant(a), variant(b); va != vb {
			return va < vb
		}
		return a < b
	})
	files := &fileDirectives{dirs: map[string][]*nolint.Directive{}, quiet: map[string]bool{}, cfg: d.cfg}
	type key struct {
		analyzer  string
		posn, end token.Position
		msg       string
	}
	seen := map[key]bool{}
	var out []Finding
	for _, f := range all {
		k := key{f.Analyzer, f.Posn, f.End, f.Message}
		if seen[k] {
			continue
		}
		seen[k] = true
		if nolint.Suppressed(files.of(f.Posn.Filename), f.Analyzer, f.Posn) {
			continue
		}
		out = append(out, f)
	}
	if d.unusedNolint {
		names := map[string]bool{}
		for _, n := range suite.Names() {
			names[n] = true
		}
		enabled := map[string]bool{}
		for _, a := range d.analyzers {
			enabled[a.Name] = true
		}
		var unused []string
		seenFile := map[string]bool{}
		for _, p := range pkgs {
			for _, name := range p.Files {
				if seenFile[name] {
					continue
				}
				seenFile[name] = true
				list := files.of(name)
				if files.quiet[name] {
					continue // no finding is reported there, so no directive is used
				}
				for _, dir := range list {
					if dir.Used || !dir.Ours(names) || !relevantTo(dir, enabled) {
						continue
					}
					unused = append(unused, fmt.Sprintf("%s:%d: unused //nolint directive for %s: it suppresses no finding; remove it", relPath(dir.File), dir.From, strings.Join(dir.Names, ",")))
				}
			}
		}
		sort.Strings(unused)
		for _, u := range unused {
			fmt.Fprintln(d.stderr, u)
		}
		d.unused = len(unused)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Posn, out[j].Posn
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
	return out
}

// fileDirectives reads the //nolint directives of files, parsing each file
// once, when first asked.
type fileDirectives struct {
	cfg   *config.Config
	dirs  map[string][]*nolint.Directive
	quiet map[string]bool // files whose findings the analyzers drop (tests, generated)
}

func (fd *fileDirectives) of(name string) []*nolint.Directive {
	if list, ok := fd.dirs[name]; ok {
		return list
	}
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
	if f == nil {
		fd.dirs[name] = nil
		return nil
	}
	list := nolint.File(fset, f)
	fd.dirs[name] = list
	fd.quiet[name] = strings.HasSuffix(name, "_test.go") && !fd.cfg.Tests || ast.IsGenerated(f) && !fd.cfg.Generated
	return list
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
