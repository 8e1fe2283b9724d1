package analysisutil

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/tools/go/analysis"
)

// A fix may import only what the module of the package it edits already
// resolves: Resolves answers that from the module's go.mod (read once per
// file and cached), and Declares whether the resolved package has the
// functions, types and methods a fix would call.

// Resolves reports whether the package being analysed can import the
// package at path without a change to its go.mod: a standard-library
// package, a package of the main module, of a module its go.mod requires,
// of a module of its go.work, or (with a vendor directory) a vendored one.
// A package loaded without a go.mod (GOPATH mode, as analysistest loads
// testdata/src) resolves path when path's directory exists in the same
// GOPATH. Unknown answers false.
func Resolves(pass *analysis.Pass, path string) bool {
	_, ok := packageDir(pass, path)
	return ok
}

// Declares reports whether the package at path resolves (see Resolves) and
// declares each of names: package-level functions, types, variables and
// constants ("NewGroup"), or methods ("Group.Go", on the type or its
// pointer). It reads the package from the types already loaded when the
// analysed package depends on it, else from its source directory. Unknown
// answers false.
func Declares(pass *analysis.Pass, path string, names ...string) bool {
	if pkg := imported(pass.Pkg, path, map[*types.Package]bool{}); pkg != nil {
		for _, n := range names {
			if !typesDeclare(pkg, n) {
				return false
			}
		}
		return true
	}
	dir, ok := packageDir(pass, path)
	if !ok || dir == "" {
		return false
	}
	decls := dirDecls(dir)
	for _, n := range names {
		if !decls[n] {
			return false
		}
	}
	return true
}

func imported(pkg *types.Package, path string, seen map[*types.Package]bool) *types.Package {
	if pkg == nil || seen[pkg] {
		return nil
	}
	seen[pkg] = true
	for _, imp := range pkg.Imports() {
		if imp.Path() == path {
			return imp
		}
		if p := imported(imp, path, seen); p != nil {
			return p
		}
	}
	return nil
}

func typesDeclare(pkg *types.Package, name string) bool {
	typ, method, isMethod := strings.Cut(name, ".")
	obj := pkg.Scope().Lookup(typ)
	if obj == nil {
		return false
	}
	if !isMethod {
		return true
	}
	tn, ok := obj.(*types.TypeName)
	if !ok {
		return false
	}
	m, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, pkg, method)
	_, isFunc := m.(*types.Func)
	return isFunc
}

// packageDir returns the source directory of the package at path as the
// analysed package's module resolves it ("" for the standard library and
// for a required module whose source is not on this machine), and whether
// it resolves.
func packageDir(pass *analysis.Pass, path string) (string, bool) {
	if path == "" {
		return "", false
	}
	if isStd(path) {
		return "", true
	}
	dir := pkgDir(pass)
	if dir == "" {
		return "", false
	}
	mod := findModule(dir, pass.Pkg.Path())
	if mod == nil {
		// GOPATH mode: dir is GOPATH/src/<package path>.
		own := filepath.FromSlash(pass.Pkg.Path())
		if !strings.HasSuffix(dir, string(filepath.Separator)+own) {
			return "", false
		}
		d := filepath.Join(strings.TrimSuffix(dir, own), filepath.FromSlash(path))
		if hasGoFiles(d) {
			return d, true
		}
		return "", false
	}
	return mod.resolve(path)
}

// pkgDir is the directory of the analysed package's files.
func pkgDir(pass *analysis.Pass) string {
	for _, f := range pass.Files {
		if tf := pass.Fset.File(f.FileStart); tf != nil && filepath.IsAbs(tf.Name()) {
			return filepath.Dir(tf.Name())
		}
	}
	return ""
}

func hasGoFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
			return true
		}
	}
	return false
}

// modInfo is what a go.mod (and the go.work above it) says.
type modInfo struct {
	root    string // the directory of go.mod
	path    string // the module path
	require map[string]string
	replace map[string]module.Version // by module path (any version)
	work    map[string]string         // go.work modules: path → directory
	vendor  bool
	goVer   string // the go directive ("" when absent)
}

var modCache sync.Map // go.mod path → *modInfo (nil: not a module file)

// findModule returns the module whose go.mod is the nearest one above dir
// and whose path is a prefix of the package path pkgPath; nil in GOPATH
// mode.
func findModule(dir, pkgPath string) *modInfo {
	for d := dir; ; {
		gomod := filepath.Join(d, "go.mod")
		if _, err := os.Stat(gomod); err == nil {
			m := readModule(gomod)
			if m != nil && (pkgPath == m.path || pkgPath == m.path+"_test" || strings.HasPrefix(pkgPath, m.path+"/")) {
				return m
			}
			return nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil
		}
		d = parent
	}
}

// ModuleAt returns the root directory and path of the module whose go.mod
// is the nearest one above dir ("" outside a module), and whether a go.work
// holds it (then the go command resolves the workspace's modules).
func ModuleAt(dir string) (root, path string, workspace bool) {
	for d := dir; ; {
		gomod := filepath.Join(d, "go.mod")
		if _, err := os.Stat(gomod); err == nil {
			m := readModule(gomod)
			if m == nil {
				return "", "", false
			}
			return m.root, m.path, m.work != nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", false
		}
		d = parent
	}
}

func readModule(gomod string) *modInfo {
	if v, ok := modCache.Load(gomod); ok {
		m, _ := v.(*modInfo)
		return m
	}
	var m *modInfo
	if data, err := os.ReadFile(gomod); err == nil {
		f, err := modfile.Parse(gomod, data, nil)
		if err != nil {
			f, err = modfile.ParseLax(gomod, data, nil) // a newer syntax: no replacements then
		}
		if err == nil && f.Module != nil {
			m = &modInfo{root: filepath.Dir(gomod), path: f.Module.Mod.Path, require: map[string]string{}, replace: map[string]module.Version{}}
			for _, r := range f.Require {
				m.require[r.Mod.Path] = r.Mod.Version
			}
			if f.Go != nil {
				m.goVer = f.Go.Version
			}
			for _, r := range f.Replace {
				m.replace[r.Old.Path] = r.New
			}
			if _, err := os.Stat(filepath.Join(m.root, "vendor", "modules.txt")); err == nil {
				m.vendor = true
			}
			m.work = readWork(m.root)
		}
	}
	v, _ := modCache.LoadOrStore(gomod, m)
	m, _ = v.(*modInfo)
	return m
}

// readWork returns the modules of the go.work above root, if any.
func readWork(root string) map[string]string {
	if os.Getenv("GOWORK") == "off" {
		return nil
	}
	work := os.Getenv("GOWORK")
	if work == "" {
		for d := root; ; {
			if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
				work = filepath.Join(d, "go.work")
				break
			}
			parent := filepath.Dir(d)
			if parent == d {
				return nil
			}
			d = parent
		}
	}
	data, err := os.ReadFile(work)
	if err != nil {
		return nil
	}
	wf, err := modfile.ParseWork(work, data, nil)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, u := range wf.Use {
		dir := u.Path
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(filepath.Dir(work), dir)
		}
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			if p := modfile.ModulePath(data); p != "" {
				out[p] = dir
			}
		}
	}
	return out
}

func within(path, mod string) (string, bool) {
	if path == mod {
		return "", true
	}
	if strings.HasPrefix(path, mod+"/") {
		return path[len(mod)+1:], true
	}
	return "", false
}

// resolve finds the directory of the package at path in m's build list.
func (m *modInfo) resolve(path string) (string, bool) {
	if m.vendor {
		d := filepath.Join(m.root, "vendor", filepath.FromSlash(path))
		if hasGoFiles(d) && vendored(m.root, path) {
			return d, true
		}
		if _, ok := within(path, m.path); !ok {
			return "", false
		}
	}
	// The longest module path that contains path.
	best, bestDir := "", ""
	consider := func(mod, dir string) {
		if _, ok := within(path, mod); ok && len(mod) > len(best) {
			best, bestDir = mod, dir
		}
	}
	consider(m.path, m.root)
	for mod, dir := range m.work {
		consider(mod, dir)
	}
	for mod, v := range m.require {
		if _, ok := m.work[mod]; ok {
			continue
		}
		if _, ok := within(path, mod); ok && len(mod) > len(best) {
			best, bestDir = mod, m.moduleDir(mod, v)
		}
	}
	if best == "" {
		return "", false
	}
	rel, _ := within(path, best)
	if bestDir == "" {
		return "", true // required, but its source is not here to read
	}
	d := filepath.Join(bestDir, filepath.FromSlash(rel))
	if !hasGoFiles(d) {
		return "", false
	}
	// A directory of a nested module belongs to that module, not this one.
	for x := d; x != bestDir && len(x) > len(bestDir); x = filepath.Dir(x) {
		if _, err := os.Stat(filepath.Join(x, "go.mod")); err == nil {
			return "", false
		}
	}
	return d, true
}

// moduleDir returns the directory of a required module: its replacement,
// or its copy in the module cache ("" if neither is on this machine).
func (m *modInfo) moduleDir(mod, version string) string {
	if r, ok := m.replace[mod]; ok {
		if r.Version == "" {
			dir := r.Path
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(m.root, dir)
			}
			return dir
		}
		mod, version = r.Path, r.Version
	}
	cache := modCacheDir()
	if cache == "" {
		return ""
	}
	ep, err1 := module.EscapePath(mod)
	ev, err2 := module.EscapeVersion(version)
	if err1 != nil || err2 != nil {
		return ""
	}
	dir := filepath.Join(cache, filepath.FromSlash(ep)+"@"+ev)
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return dir
}

func modCacheDir() string {
	if d := os.Getenv("GOMODCACHE"); d != "" {
		return d
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		gopath = filepath.Join(home, "go")
	}
	first, _, _ := strings.Cut(gopath, string(os.PathListSeparator))
	return filepath.Join(first, "pkg", "mod")
}

// vendored reports whether vendor/modules.txt lists the package.
func vendored(root, path string) bool {
	f, err := os.Open(filepath.Join(root, "vendor", "modules.txt"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == path {
			return true
		}
	}
	return false
}

var declCache sync.Map // directory → map[string]bool

// dirDecls returns the package-level names and methods ("T.M") the
// non-test Go files of dir declare.
func dirDecls(dir string) map[string]bool {
	if v, ok := declCache.Load(dir); ok {
		return v.(map[string]bool)
	}
	out := map[string]bool{}
	entries, _ := os.ReadDir(dir)
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) == 0 {
					out[d.Name.Name] = true
					continue
				}
				t := d.Recv.List[0].Type
				if s, ok := t.(*ast.StarExpr); ok {
					t = s.X
				}
				switch x := t.(type) {
				case *ast.IndexExpr:
					t = x.X
				case *ast.IndexListExpr:
					t = x.X
				}
				if id, ok := t.(*ast.Ident); ok {
					out[id.Name+"."+d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						out[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							out[n.Name] = true
						}
					}
				}
			}
		}
	}
	v, _ := declCache.LoadOrStore(dir, out)
	return v.(map[string]bool)
}

// OwnCode reports whether the analysed package is the user's code rather
// than a dependency (OwnPackage).
func OwnCode(pass *analysis.Pass) bool {
	return OwnPackage(pass.Module, pass.Pkg.Path())
}

// OwnPackage reports whether the package at path, of module mod (nil when
// unknown), is the user's code: of a module without a version (the main
// module, a workspace module, a replacement by directory), whatever its
// path looks like (module myservice has no dot either), or, with no module
// information, a package whose path is not the standard library's.
func OwnPackage(mod *analysis.Module, path string) bool {
	if mod != nil && mod.Path != "" && mod.Path != "std" {
		return mod.Version == ""
	}
	return !isStd(path)
}
