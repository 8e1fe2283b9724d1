package driver

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/nolint"
	"github.com/resilint/resilint/suite"
)

// filter applies //nolint directives and removes the duplicates that test
// variants of a package produce (a file of package p is also in "p [p.test]"):
// of equal findings, the one of the package itself is kept.
func (d *run) filter(res *Result) []Finding {
	out, files := d.dedupeFiles(res)
	if d.unusedNolint {
		d.reportUnused(res, files)
	}
	return out
}

// dedupe is filter without the report of unused directives.
func (d *run) dedupe(res *Result) []Finding {
	out, _ := d.dedupeFiles(res)
	return out
}

func (d *run) dedupeFiles(res *Result) ([]Finding, *fileDirectives) {
	variant := func(id string) int {
		if isVariant(id) {
			return 1
		}
		return 0
	}
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
	var testOnly map[string]bool
	if !d.cfg.Tests {
		testOnly = d.testOnly(res)
	}
	d.testOnlyPkgs = testOnly
	pathOf := map[string]string{}
	for _, p := range res.Packages {
		pathOf[p.ID] = groupKey(p.ID, p.Path)
	}
	for _, f := range all {
		if testOnly[pathOf[f.Pkg]] {
			continue
		}
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
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Posn, out[j].Posn
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
	return out, files
}

// reportUnused prints the //nolint directives that suppressed nothing.
func (d *run) reportUnused(res *Result, files *fileDirectives) {
	pkgs := res.Packages
	{
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
			if d.testOnlyPkgs[groupKey(p.ID, p.Path)] {
				continue // no finding is reported there
			}
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

// importPaths returns the import paths a Go file spells, or false when it
// does not parse.
func importPaths(name string) ([]string, bool) {
	f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly|parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	var out []string
	for _, is := range f.Imports {
		if path, err := strconv.Unquote(is.Path.Value); err == nil {
			out = append(out, path)
		}
	}
	return out, true
}

// testOnly returns the import paths of the analysed packages that only
// test code imports: every file of the analysed packages that imports them
// is a _test.go file, imports package testing or a test framework (the table's TestingPackages), or is in such a package. A
// package that nothing imports is not test code.
func (d *run) testOnly(res *Result) map[string]bool {
	type site struct {
		importer string // the importing package's path
		test     bool   // the importing file is test code by itself
	}
	roots := map[string]bool{}
	for _, p := range res.Packages {
		if !isVariant(p.ID) {
			roots[p.Path] = true
		}
	}
	// The imports the units read, of every view: a package's test files
	// are listed in its test variant's view, so they are not parsed again
	// when the package itself is met first.
	known := map[string][]string{}
	for _, p := range res.Packages {
		for name, paths := range p.Imports {
			if _, ok := known[name]; !ok {
				known[name] = paths
			}
		}
	}
	sites := map[string][]site{}
	seen := map[string]bool{}
	for _, p := range res.Packages {
		files := p.Files
		if !isVariant(p.ID) && len(p.Files) > 0 {
			// The package's test files, also when test packages were not
			// loaded (-test=false).
			tests, _ := filepath.Glob(filepath.Join(filepath.Dir(p.Files[0]), "*_test.go"))
			files = append(append([]string(nil), files...), tests...)
		}
		for _, name := range files {
			if seen[name] {
				continue
			}
			seen[name] = true
			paths, ok := p.Imports[name]
			if !ok {
				paths, ok = known[name]
			}
			if !ok {
				if paths, ok = importPaths(name); !ok {
					continue
				}
			}
			test := strings.HasSuffix(name, "_test.go")
			var imported []string
			for _, path := range paths {
				if d.cfg.Table().TestingPackages[path] {
					test = true
				}
				if roots[path] {
					imported = append(imported, path)
				}
			}
			importer := groupKey(p.ID, p.Path)
			for _, path := range imported {
				if path != importer { // a package's own tests do not count
					sites[path] = append(sites[path], site{importer, test})
				}
			}
		}
	}
	only := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for path, list := range sites {
			if only[path] {
				continue
			}
			all := true
			for _, s := range list {
				if !s.test && !only[s.importer] {
					all = false
					break
				}
			}
			if all {
				only[path] = true
				changed = true
			}
		}
	}
	return only
}
