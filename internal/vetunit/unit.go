package vetunit

import (
	"bufio"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
	"golang.org/x/tools/go/gcexportdata"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/suite"
)

// Main runs one unit: args are the vet flags and the .cfg file, as the go
// command passes them. It returns the exit code: 0 when the unit's results
// were written (findings included; a package that does not type-check is
// a result too), 1 when it could not run (then the go command caches
// nothing).
func Main(args []string) int {
	tuneGC()
	var optFlag, cfgFile string
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "-"+FlagName+"="), strings.HasPrefix(a, "--"+FlagName+"="):
			optFlag = a[strings.Index(a, "=")+1:]
		case strings.HasSuffix(a, ".cfg"):
			cfgFile = a
		}
	}
	fail := func(err error) int {
		fmt.Fprintf(os.Stderr, "resilint: %v\n", err)
		return 1
	}
	opts, err := DecodeOptions(optFlag)
	if err != nil {
		return fail(err)
	}
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return fail(err)
	}
	cfg := new(unitchecker.Config)
	if err := json.Unmarshal(data, cfg); err != nil {
		return fail(fmt.Errorf("cannot decode %s: %v", cfgFile, err))
	}
	start := time.Now()
	mode, err := run(cfg, opts)
	if err != nil {
		return fail(err)
	}
	logEvent(cfg, mode, time.Since(start))
	return 0
}

// Unit modes, as logged.
const (
	modeFast  = "fast"  // no facts possible: empty facts file, nothing read
	modeFacts = "facts" // a dependency analysed for its facts
	modeRoot  = "root"  // a package analysed for findings
	modeSkip  = "skip"  // an external test package while test packages are off
)

func run(cfg *unitchecker.Config, opts *Options) (string, error) {
	analyzers, err := suite.Analyzers(opts.Config)
	if err != nil {
		return "", err
	}
	if err := opts.Config.Err(); err != nil {
		return "", err
	}
	// The go command names a test package by its import path; its files
	// tell what it is. A package with test files is "p [p.test]" (its
	// files and its internal test files), or, when all its files are test
	// files of a package p_test, the external test package "p_test
	// [p.test]". Test variants of dependencies (packages recompiled
	// against "p [p.test]" for an external test) have no test files and
	// are analysed like the packages they are variants of.
	id, isTest, isXTest := unitID(cfg)
	emptyTests := isTest && !isXTest && onlyEmptyTests(cfg.GoFiles)
	if emptyTests {
		// The driver's empty test file (see onlyEmptyTests): the package
		// itself, named as go list names it without that file.
		id = cfg.ImportPath
	}

	// printing: the unit analyses the package for findings and prints
	// them. A root does; so does a dependency of the run that is a package
	// of the module itself (or of a workspace's) when test packages are on.
	// The go command's key of a package's vet run does not tell a run for
	// findings from a run for an importer's facts, so that a root without
	// test files replays whatever an earlier run in which it was only a
	// dependency cached; a unit whose output does not depend on which of
	// the two it is makes the replay right. The driver keeps the views of
	// its roots only (see the driver's roots.go). Packages of other
	// modules and of the standard library, which a directory pattern never
	// names, are still analysed for their facts only.
	printing := !cfg.VetxOnly || opts.Tests && moduleOwn(cfg)

	if !printing {
		var imports []string
		for _, p := range cfg.ImportMap {
			imports = append(imports, p)
		}
		own := analysisutil.OwnPackage(&analysis.Module{Path: cfg.ModulePath, Version: cfg.ModuleVersion}, cfg.ImportPath)
		if !CanHaveFacts(cfg.ImportPath, own, imports, FactPaths(opts.Config.Table()), vetxHasFacts(cfg.PackageVetx)) {
			return modeFast, writeFile(cfg.VetxOutput, nil)
		}
	}

	u := &Unit{Resilint: 1, ID: id}
	if !cfg.VetxOnly && !opts.Tests && isXTest {
		if err := writeFile(cfg.VetxOutput, nil); err != nil {
			return "", err
		}
		return modeSkip, writeUnit(cfg.Stdout, u)
	}

	l := newLoader(cfg)
	// The views: a package with test files is analysed without them
	// first (the package its importers see, as the in-process engine
	// analyses "p" besides "p [p.test]"), then, when test packages are on,
	// with them. A dependency is analysed as it is.
	type view struct {
		id    string
		files []string
	}
	var views []view
	if printing && isTest && !isXTest {
		var plain []string
		for _, f := range cfg.GoFiles {
			if !strings.HasSuffix(f, "_test.go") {
				plain = append(plain, f)
			}
		}
		if len(plain) > 0 {
			views = append(views, view{cfg.ImportPath, plain})
		}
		if opts.Tests && !emptyTests {
			views = append(views, view{id, cfg.GoFiles})
		}
	} else {
		views = append(views, view{id, cfg.GoFiles})
	}

	var facts []byte
	for i, v := range views {
		res, err := l.analyse(v.id, v.files, analyzers, !printing)
		if err != nil {
			var terr typeError
			if cfg.VetxOnly || !errors.As(err, &terr) {
				return "", err
			}
			u.Error = err.Error()
			if i == 0 {
				u.Views = nil
			}
			// A type error in the test files only: the package without
			// them (the first view) was analysed, and its findings stand,
			// as the in-process engine reports them (issue 13, rule 12).
			facts = nil
			break
		}
		if i == len(views)-1 {
			facts = res.facts
		}
		if printing {
			u.Views = append(u.Views, res.view)
		}
	}
	if err := writeFile(cfg.VetxOutput, facts); err != nil {
		return "", err
	}
	if !printing {
		return modeFacts, nil
	}
	return modeRoot, writeUnit(cfg.Stdout, u)
}

// moduleOwn reports whether the unit's package belongs to a main module:
// the module the command runs in, or a module of its workspace (their
// version is empty). Not the standard library, not a package outside
// modules.
func moduleOwn(cfg *unitchecker.Config) bool {
	return cfg.ModulePath != "" && cfg.ModulePath != "std" && cfg.ModuleVersion == ""
}

// unitID returns the package's ID as go list and go/packages spell it, and
// whether it is a test package, an external one.
func unitID(cfg *unitchecker.Config) (id string, isTest, isXTest bool) {
	all := len(cfg.GoFiles) > 0
	for _, f := range cfg.GoFiles {
		if strings.HasSuffix(f, "_test.go") {
			isTest = true
		} else {
			all = false
		}
	}
	switch {
	case !isTest:
		return cfg.ImportPath, false, false
	case all && strings.HasSuffix(cfg.ImportPath, "_test"):
		return cfg.ImportPath + " [" + strings.TrimSuffix(cfg.ImportPath, "_test") + ".test]", true, true
	default:
		return cfg.ImportPath + " [" + cfg.ImportPath + ".test]", true, false
	}
}

// onlyEmptyTests reports whether every test file among files is empty: a
// package clause alone, as the driver gives a root package (see the
// driver's overlay.go). Such a test package is the package itself, which
// the plain view analyses already.
func onlyEmptyTests(files []string) bool {
	fset := token.NewFileSet()
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			continue
		}
		if st, err := os.Stat(f); err != nil || st.Size() > 512 {
			return false
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
		if err != nil || len(af.Decls) > 0 || len(af.Imports) > 0 {
			return false
		}
	}
	return true
}

// typeError is a package that does not parse or type-check.
type typeError struct{ msg string }

func (e typeError) Error() string { return e.msg }

// loader type-checks the views of one unit, with the dependencies' types
// read from the compiler's export data.
type loader struct {
	cfg     *unitchecker.Config
	fset    *token.FileSet
	imports map[string]*types.Package
	mu      sync.Mutex
	vetx    map[string][]byte
}

func newLoader(cfg *unitchecker.Config) *loader {
	return &loader{cfg: cfg, fset: token.NewFileSet(), imports: map[string]*types.Package{}, vetx: map[string][]byte{}}
}

func (l *loader) Import(importPath string) (*types.Package, error) {
	path, ok := l.cfg.ImportMap[importPath]
	if !ok {
		return nil, fmt.Errorf("cannot resolve import %q", importPath)
	}
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if pkg, ok := l.imports[path]; ok && pkg.Complete() {
		return pkg, nil
	}
	file, ok := l.cfg.PackageFile[path]
	if !ok {
		return nil, fmt.Errorf("no export data for %q", path)
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := gcexportdata.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("reading export data of %q: %v", path, err)
	}
	return gcexportdata.Read(r, l.fset, l.imports, path)
}

// readFacts returns the facts file of a direct import.
func (l *loader) readFacts(path string) ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if data, ok := l.vetx[path]; ok {
		return data, nil
	}
	if path == "unsafe" {
		return nil, nil
	}
	file, ok := l.cfg.PackageVetx[path]
	if !ok {
		return nil, fmt.Errorf("no facts for %q (its analysis failed)", path)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	l.vetx[path] = data
	return data, nil
}

type analysed struct {
	view  View
	facts []byte
}

// analyse parses, type-checks and analyses one view of the package.
func (l *loader) analyse(id string, names []string, analyzers []*analysis.Analyzer, factsOnly bool) (*analysed, error) {
	cfg := l.cfg
	var files []*ast.File
	for _, name := range names {
		f, err := parser.ParseFile(l.fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, typeError{err.Error()}
		}
		files = append(files, f)
	}
	tc := &types.Config{
		Importer:  l,
		Sizes:     types.SizesFor("gc", build.Default.GOARCH),
		GoVersion: cfg.GoVersion,
	}
	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
	pkg, err := tc.Check(cfg.ImportPath, l.fset, files, info)
	if err != nil {
		return nil, typeError{err.Error()}
	}

	// As unitchecker does: for facts only, run only the analyzers that
	// (through what they require) use facts.
	type action struct {
		once        sync.Once
		result      any
		err         error
		usesFacts   bool
		diagnostics []analysis.Diagnostic
	}
	actions := map[*analysis.Analyzer]*action{}
	var register func(a *analysis.Analyzer) bool
	register = func(a *analysis.Analyzer) bool {
		act, ok := actions[a]
		if !ok {
			act = new(action)
			for _, f := range a.FactTypes {
				act.usesFacts = true
				gob.Register(f)
			}
			for _, req := range a.Requires {
				if register(req) {
					act.usesFacts = true
				}
			}
			actions[a] = act
		}
		return act.usesFacts
	}
	var roots []*analysis.Analyzer
	for _, a := range analyzers {
		if register(a) || !factsOnly {
			roots = append(roots, a)
		}
	}

	lookup := func(path string) *types.Package {
		if path == pkg.Path() {
			return pkg
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.imports[path]
	}
	facts, err := decodeFacts(pkg, l.readFacts, lookup)
	if err != nil {
		return nil, err
	}
	readable := map[string]bool{}
	for _, list := range [][]string{names, cfg.NonGoFiles, cfg.IgnoredFiles} {
		for _, f := range list {
			readable[f] = true
		}
	}
	module := &analysis.Module{}
	if cfg.ModulePath != "" {
		module = &analysis.Module{Path: cfg.ModulePath, Version: cfg.ModuleVersion, GoVersion: strings.TrimPrefix(cfg.GoVersion, "go")}
	}
	sizes := tc.Sizes

	var exec func(a *analysis.Analyzer) *action
	execAll := func(list []*analysis.Analyzer) {
		var wg sync.WaitGroup
		for _, a := range list {
			wg.Add(1)
			go func() {
				defer wg.Done()
				exec(a)
			}()
		}
		wg.Wait()
	}
	exec = func(a *analysis.Analyzer) *action {
		act := actions[a]
		act.once.Do(func() {
			execAll(a.Requires)
			inputs := map[*analysis.Analyzer]any{}
			var failed []string
			for _, req := range a.Requires {
				r := exec(req)
				if r.err != nil {
					failed = append(failed, req.String())
					continue
				}
				inputs[req] = r.result
			}
			if failed != nil {
				sort.Strings(failed)
				act.err = fmt.Errorf("failed prerequisites: %s", strings.Join(failed, ", "))
				return
			}
			filter := map[reflect.Type]bool{}
			for _, f := range a.FactTypes {
				filter[reflect.TypeOf(f)] = true
			}
			pass := &analysis.Pass{
				Analyzer:     a,
				Fset:         l.fset,
				Files:        files,
				OtherFiles:   cfg.NonGoFiles,
				IgnoredFiles: cfg.IgnoredFiles,
				Pkg:          pkg,
				TypesInfo:    info,
				TypesSizes:   sizes,
				ResultOf:     inputs,
				Module:       module,
				Report: func(d analysis.Diagnostic) {
					if err := validateFixes(l.fset, d.SuggestedFixes); err != nil {
						panic(fmt.Sprintf("analyzer %s suggests an invalid fix: %v", a.Name, err))
					}
					act.diagnostics = append(act.diagnostics, d)
				},
				ImportObjectFact:  facts.importObjectFact,
				ExportObjectFact:  facts.exportObjectFact,
				ImportPackageFact: facts.importPackageFact,
				ExportPackageFact: facts.exportPackageFact,
				AllObjectFacts:    func() []analysis.ObjectFact { return facts.allObjectFacts(filter) },
				AllPackageFacts:   func() []analysis.PackageFact { return facts.allPackageFacts(filter) },
				ReadFile: func(name string) ([]byte, error) {
					if !readable[name] {
						return nil, fmt.Errorf("%s is not among the files of package %s", name, pkg.Path())
					}
					return os.ReadFile(name)
				},
			}
			act.result, act.err = a.Run(pass)
			if act.err == nil && act.result != nil {
				if got, want := reflect.TypeOf(act.result), a.ResultType; got != want {
					act.err = fmt.Errorf("internal error: analyzer %s returned a result of type %v, but declared ResultType %v", a.Name, got, want)
				}
			}
		})
		return act
	}
	execAll(roots)

	out := &analysed{}
	if out.facts, err = facts.encode(); err != nil {
		return nil, err
	}
	if factsOnly {
		return out, nil
	}
	pl := newPlacer(l.fset, cfg.VetxOutput)
	v := View{ID: id, Path: pkg.Path(), Files: pl.ownFiles(files), Imports: pl.ownImports(files)}
	for _, a := range analyzers {
		act := actions[a]
		if act.err != nil {
			v.Errors = append(v.Errors, AnalyzerError{Analyzer: a.Name, Err: act.err.Error()})
			continue
		}
		for _, d := range act.diagnostics {
			v.Findings = append(v.Findings, pl.finding(a.Name, d))
		}
	}
	out.view = v
	return out, nil
}

func writeUnit(name string, u *Unit) error {
	if u.Views == nil {
		u.Views = []View{}
	}
	data, err := json.Marshal(u)
	if err != nil {
		return err
	}
	return writeFile(name, append(data, '\n'))
}

// writeFile writes the unit's outputs. The go command reads them only after
// the tool exited 0, from its own work directory: a unit killed half-way
// leaves nothing in the cache.
func writeFile(name string, data []byte) error {
	if name == "" {
		return nil
	}
	return os.WriteFile(name, data, 0o666)
}

// logEvent appends one line to the events file, if the command asked for
// one: "ID MODE MILLISECONDS PEAK-RSS-BYTES". Lines are shorter than PIPE_BUF, so that the
// appends of concurrent units do not interleave.
func logEvent(cfg *unitchecker.Config, mode string, d time.Duration) {
	name := os.Getenv(EventsEnv)
	if name == "" {
		return
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return
	}
	defer f.Close()
	line := fmt.Sprintf("%s\t%s\t%d\t%d\n", strings.ReplaceAll(cfg.ID, "\t", " "), mode, d.Milliseconds(), PeakRSS())
	if len(line) < 512 {
		f.WriteString(line)
	}
}
