package driver

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Fixes are type-checked before they are written: the packages they edit
// are loaded once with go/packages, with the fixed files as an overlay
// (against the module's go.mod; dependencies from export data), and every
// combination of fixes that the driver considers is then type-checked in
// process against the dependencies that load resolved. So that a
// combination may leave out a fix that removes an import, the load's
// overlay also gives each package one extra file importing everything its
// files imported before the fixes.

// A checkGroup is the packages checked together: a package, its test
// variant and its external test package.
type checkGroup struct {
	key string   // the package's import path
	ids []string // the analysed packages' IDs
}

// groupKey returns the import path of the package a package ID belongs to:
// "p" for p, "p [p.test]", "p_test [p.test]" and "p.test".
func groupKey(id, path string) string {
	if i := strings.Index(id, " ["); i >= 0 && strings.HasSuffix(id, ".test]") {
		return id[i+2 : len(id)-len(".test]")]
	}
	if strings.HasSuffix(id, ".test") && !strings.Contains(id, " ") {
		return strings.TrimSuffix(id, ".test")
	}
	return path
}

// syntheticName is the extra file's base name; a package holding a file of
// that name is not checked in process.
const syntheticName = "zz_resilint_fixcheck"

// A typeChecker checks fixed packages.
type typeChecker struct {
	d    *run
	pkgs map[string]*packages.Package // loaded, by ID
	err  error                        // the load failed
}

// loadForCheck loads the groups' packages with the overlay. base holds the
// current content of every file that may change (before this round's
// fixes); its imports make up the extra files.
func (d *run) loadForCheck(groups []*checkGroup, res *Result, overlay map[string][]byte, base func(string) []byte) *typeChecker {
	tc := &typeChecker{d: d, pkgs: map[string]*packages.Package{}}
	byID := map[string]Package{}
	for _, p := range res.Packages {
		byID[p.ID] = p
	}
	ov := map[string][]byte{}
	for k, v := range overlay {
		ov[k] = v
	}
	tests := false
	var paths []string
	for _, g := range groups {
		paths = append(paths, g.key)
		// The imports of the group's files, by the package clause's name
		// and whether the file is a test file.
		type unit struct {
			name string
			test bool
		}
		imports := map[unit]map[string]bool{}
		var dir string
		seen := map[string]bool{}
		for _, id := range g.ids {
			if isVariant(id) {
				tests = true
			}
			for _, file := range byID[id].Files {
				if seen[file] {
					continue
				}
				seen[file] = true
				f, err := parser.ParseFile(token.NewFileSet(), file, base(file), parser.ImportsOnly|parser.SkipObjectResolution)
				if err != nil {
					continue
				}
				dir = filepath.Dir(file)
				u := unit{f.Name.Name, strings.HasSuffix(file, "_test.go")}
				if imports[u] == nil {
					imports[u] = map[string]bool{}
				}
				for _, is := range f.Imports {
					if p, err := strconv.Unquote(is.Path.Value); err == nil && p != "C" {
						imports[u][p] = true
					}
				}
			}
		}
		for u, set := range imports {
			if len(set) == 0 || dir == "" {
				continue
			}
			var list []string
			for p := range set {
				list = append(list, strconv.Quote(p))
			}
			sort.Strings(list)
			name := syntheticName + "_" + u.name
			if u.test {
				name += "_test"
			}
			var b strings.Builder
			fmt.Fprintf(&b, "package %s\n\nimport (\n", u.name)
			for _, p := range list {
				fmt.Fprintf(&b, "\t_ %s\n", p)
			}
			b.WriteString(")\n")
			ov[filepath.Join(dir, name+".go")] = []byte(b.String())
		}
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
			packages.NeedTypes | packages.NeedTypesSizes | packages.NeedModule | packages.NeedSyntax,
		Tests:      tests,
		Overlay:    ov,
		BuildFlags: d.buildFlags(),
	}
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		tc.err = err
		return tc
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if tc.pkgs[p.ID] == nil {
			tc.pkgs[p.ID] = p
		}
	})
	return tc
}

func isSynthetic(file string) bool { return strings.HasPrefix(filepath.Base(file), syntheticName) }

// A checkErr is one error of a check: where (file "" when unknown, the
// byte offset in the checked content) and what.
type checkErr struct {
	file   string
	offset int
	msg    string
}

func (e checkErr) String() string { return e.msg }

func msgErr(msg string) checkErr { return checkErr{offset: -1, msg: msg} }

// check type-checks a group with files' contents (content(file) for every
// file of the group). It returns the errors.
func (tc *typeChecker) check(g *checkGroup, content func(string) []byte) []checkErr {
	if tc.err != nil {
		return []checkErr{msgErr("cannot load the packages to type-check them: " + tc.err.Error())}
	}
	var errs []checkErr
	overrides := map[string]*types.Package{}
	ids := append([]string(nil), g.ids...)
	// The package, then its test variant, then the external test package,
	// which imports the test variant.
	sort.SliceStable(ids, func(i, j int) bool { return idOrder(ids[i], g.key) < idOrder(ids[j], g.key) })
	for _, id := range ids {
		lp := tc.pkgs[id]
		if lp == nil {
			errs = append(errs, msgErr("package "+id+" did not load with the fixes"))
			continue
		}
		for _, e := range lp.Errors {
			// The go command's errors other than the compiler's output
			// for the export data (the type-check below reads the same
			// code): an import cycle, a missing package.
			if e.Kind == packages.ListError && !strings.HasPrefix(e.Msg, "# ") && !strings.Contains(e.Msg, syntheticName) {
				errs = append(errs, msgErr(e.Msg))
			}
		}
		if len(errs) > 0 {
			continue
		}
		if len(lp.CompiledGoFiles) != len(lp.GoFiles) {
			// cgo: the compiled files are generated; type-check by loading.
			errs = append(errs, tc.checkByLoad(lp, content)...)
			continue
		}
		fset := token.NewFileSet()
		var files []*ast.File
		for _, name := range lp.CompiledGoFiles {
			if isSynthetic(name) {
				continue
			}
			f, err := tc.parse(fset, name, content(name))
			if err != nil {
				errs = append(errs, checkErr{file: name, offset: -1, msg: relPath(name) + ": " + err.Error()})
				continue
			}
			files = append(files, f)
		}
		if len(errs) > 0 {
			continue
		}
		conf := types.Config{
			Importer: importerFunc(func(path string) (*types.Package, error) {
				if path == "unsafe" {
					return types.Unsafe, nil
				}
				if p := overrides[path]; p != nil {
					return p, nil
				}
				ip := lp.Imports[path]
				if ip == nil || ip.Types == nil {
					return nil, fmt.Errorf("the module does not provide %s", path)
				}
				if len(ip.Errors) > 0 {
					msg, _, _ := strings.Cut(ip.Errors[0].Msg, ";")
					return nil, fmt.Errorf("%s", strings.TrimSpace(msg))
				}
				return ip.Types, nil
			}),
			Sizes: lp.TypesSizes,
			Error: func(err error) { errs = append(errs, typeError(err)) },
		}
		if lp.Module != nil && lp.Module.GoVersion != "" {
			conf.GoVersion = "go" + lp.Module.GoVersion
		}
		pkg, _ := conf.Check(lp.PkgPath, fset, files, nil)
		if strings.Contains(id, " [") && lp.PkgPath == g.key {
			overrides[g.key] = pkg
		}
	}
	return errs
}

// idOrder orders a group's packages for checking.
func idOrder(id, key string) int {
	switch {
	case id == key || !strings.Contains(id, " "):
		return 0
	case strings.HasPrefix(id, key+" "):
		return 1
	}
	return 2
}

// checkByLoad type-checks a package by loading it again with the contents
// as an overlay (for cgo packages, whose compiled files cmd/cgo writes).
func (tc *typeChecker) checkByLoad(lp *packages.Package, content func(string) []byte) []checkErr {
	ov := map[string][]byte{}
	for _, name := range lp.GoFiles {
		if isSynthetic(name) {
			continue
		}
		data := content(name)
		if disk, err := os.ReadFile(name); err != nil || !bytes.Equal(disk, data) {
			ov[name] = data
		}
	}
	cfg := &packages.Config{
		Mode:       packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule,
		Tests:      strings.Contains(lp.ID, " ["),
		Overlay:    ov,
		BuildFlags: tc.d.buildFlags(),
	}
	pkgs, err := packages.Load(cfg, groupKey(lp.ID, lp.PkgPath))
	if err != nil {
		return []checkErr{msgErr(err.Error())}
	}
	var errs []checkErr
	found := false
	for _, p := range pkgs {
		if p.ID != lp.ID {
			continue
		}
		found = true
		for _, e := range p.Errors {
			errs = append(errs, msgErr(relPath(e.Pos)+": "+e.Msg))
		}
	}
	if !found {
		errs = append(errs, msgErr("package "+lp.ID+" did not load with the fixes"))
	}
	return errs
}

// parse parses a file for a check.
func (tc *typeChecker) parse(fset *token.FileSet, name string, src []byte) (*ast.File, error) {
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("syntax error: %v", err)
	}
	return f, nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// typeError converts a type error, with a path relative to the working
// directory.
func typeError(err error) checkErr {
	if te, ok := err.(types.Error); ok {
		p := te.Fset.PositionFor(te.Pos, false)
		return checkErr{file: p.Filename, offset: p.Offset, msg: fmt.Sprintf("%s:%d:%d: %s", relPath(p.Filename), p.Line, p.Column, te.Msg)}
	}
	return msgErr(err.Error())
}

// unusedImport returns the path of an "imported and not used" error.
func unusedImport(msg string) (file, path string, ok bool) {
	// file:line:col: "path" imported and not used / imported as x and not used
	i := strings.Index(msg, `: "`)
	if i < 0 || !strings.HasSuffix(msg, "and not used") || !strings.Contains(msg, "imported") {
		return "", "", false
	}
	q, err := strconv.QuotedPrefix(msg[i+2:])
	if err != nil {
		return "", "", false
	}
	path, _ = strconv.Unquote(q)
	pos := msg[:i]
	// Strip :line:col.
	for k := 0; k < 2; k++ {
		if j := strings.LastIndexByte(pos, ':'); j >= 0 {
			pos = pos[:j]
		}
	}
	return pos, path, true
}
