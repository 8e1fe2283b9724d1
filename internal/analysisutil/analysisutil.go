// Package analysisutil holds the small helpers every resilint pass and
// analyzer shares: resolving callees to knowledge-table keys, reading types,
// naming functions in messages, and reporting with resilint's filters.
package analysisutil

import (
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/nolint"
)

// Key returns the knowledge-table key of a function: the FullName of its
// generic origin.
func Key(fn *types.Func) string {
	if fn == nil {
		return ""
	}
	return fn.Origin().FullName()
}

// HasMethods reports whether t's method set holds every method named by
// keys, each spelled as Key spells it ("(google.golang.org/grpc.ClientStream).RecvMsg"):
// the methods are those very declarations, promoted through embedding or
// inherited by an interface that embeds theirs, not others that share
// their names.
func HasMethods(t types.Type, keys []string) bool {
	if t == nil || len(keys) == 0 {
		return false
	}
	have := map[string]bool{}
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		if fn, ok := ms.At(i).Obj().(*types.Func); ok {
			have[Key(fn)] = true
		}
	}
	for _, k := range keys {
		if !have[k] {
			return false
		}
	}
	return true
}

// VarKey returns the "path.Name" key of a package-level variable, or "".
func VarKey(v *types.Var) string {
	if v == nil || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return ""
	}
	return v.Pkg().Path() + "." + v.Name()
}

// Callee returns the function a call invokes and, for a method call, the
// receiver expression. Besides direct calls it resolves a method value or
// function held in a local variable that is assigned exactly once
// (do := client.Do; do(req)). It returns nil for calls through interfaces'
// dynamic values held elsewhere, function-typed fields and parameters.
func Callee(info *types.Info, call *ast.CallExpr, defs func(*types.Var) []ast.Expr) (*types.Func, ast.Expr) {
	fun := ast.Unparen(call.Fun)
	if fn, recv := funcOf(info, fun); fn != nil {
		return fn, recv
	}
	// A local variable holding a method value or a function.
	if id, ok := fun.(*ast.Ident); ok && defs != nil {
		if v, ok := info.Uses[id].(*types.Var); ok {
			if ds := defs(v); len(ds) == 1 && ds[0] != nil {
				return funcOf(info, ast.Unparen(ds[0]))
			}
		}
	}
	return nil, nil
}

func funcOf(info *types.Info, fun ast.Expr) (*types.Func, ast.Expr) {
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = ast.Unparen(f.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(f.X)
	}
	switch f := fun.(type) {
	case *ast.Ident:
		if fn, ok := info.Uses[f].(*types.Func); ok {
			return fn, nil
		}
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[f]; ok {
			if fn, ok := sel.Obj().(*types.Func); ok {
				switch sel.Kind() {
				case types.MethodVal:
					return fn, f.X
				case types.MethodExpr:
					return fn, nil
				}
			}
			return nil, nil
		}
		// A qualified identifier (pkg.Func).
		if fn, ok := info.Uses[f.Sel].(*types.Func); ok {
			return fn, nil
		}
	}
	return nil, nil
}

// StaticCallee is typeutil.StaticCallee, for calls whose target is known.
func StaticCallee(info *types.Info, call *ast.CallExpr) *types.Func {
	return typeutil.StaticCallee(info, call)
}

// TypeKey returns "path.Name" for a named type, after one pointer
// indirection; "" for other types.
func TypeKey(t types.Type) string {
	if t == nil {
		return ""
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

// Deref returns the element type of a pointer type, else t.
func Deref(t types.Type) types.Type {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// FieldOf returns the struct field a selector expression denotes (c.hc,
// s.cfg.delay → delay), or nil.
func FieldOf(info *types.Info, e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return nil
	}
	v, _ := s.Obj().(*types.Var)
	return v
}

// IsContext reports whether t is context.Context.
func IsContext(t types.Type) bool {
	return TypeKey(t) == "context.Context"
}

// Imports reports whether pkg imports, directly, any of paths.
func Imports(pkg *types.Package, paths map[string]bool) bool {
	if paths[pkg.Path()] {
		return true
	}
	for _, imp := range pkg.Imports() {
		if paths[imp.Path()] {
			return true
		}
	}
	return false
}

// Name returns a short, readable name of a function for messages:
// http.Get, (*http.Client).Do, suppliers.(*Client).Search.
func Name(fn *types.Func) string {
	if fn == nil {
		return "the function"
	}
	fn = fn.Origin()
	sig, _ := fn.Type().(*types.Signature)
	qual := func(p *types.Package) string { return p.Name() }
	if sig != nil && sig.Recv() != nil {
		recv := types.TypeString(sig.Recv().Type(), qual)
		// Drop type parameters: (*cb.Breaker[T]).Execute reads as (*cb.Breaker).Execute.
		if i := strings.Index(recv, "["); i >= 0 {
			recv = recv[:i]
		}
		return "(" + recv + ")." + fn.Name()
	}
	if fn.Pkg() != nil {
		return fn.Pkg().Name() + "." + fn.Name()
	}
	return fn.Name()
}

// A Reporter reports diagnostics with resilint's filters: no findings in
// test code unless configured (a _test.go file, a file that imports
// package testing, a function that takes a *testing.T, B, F or a
// testing.TB), none in generated files, none in the packages of excluded
// directories (third_party, builtin, examples by default), none on lines
// that a //nolint directive covers. A package that only tests import is
// test code too; the command, which knows the import graph, drops those.
type Reporter struct {
	pass     *analysis.Pass
	cfg      *config.Config
	files    map[*token.File]*fileInfo
	excluded bool
}

type fileInfo struct {
	test, generated bool
	dirs            []*nolint.Directive
	// testFuncs are the ranges of functions that take a *testing.T (or B,
	// F, TB): test helpers outside _test.go files.
	testFuncs [][2]token.Pos
}

// NewReporter returns a Reporter for one pass.
func NewReporter(pass *analysis.Pass, cfg *config.Config) *Reporter {
	r := &Reporter{pass: pass, cfg: cfg, files: map[*token.File]*fileInfo{}}
	r.excluded = excludedPackage(pass, cfg)
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.FileStart)
		if tf == nil {
			continue
		}
		fi := &fileInfo{
			test:      strings.HasSuffix(tf.Name(), "_test.go") || importsAny(f, cfg.Table().TestingPackages),
			generated: IsGenerated(pass.Fset, f),
		}
		if !cfg.NoNolint {
			fi.dirs = nolint.File(pass.Fset, f)
		}
		if !fi.test && !cfg.Tests {
			fi.testFuncs = testFuncs(pass.TypesInfo, f, cfg.Table().TestingTypes)
		}
		r.files[tf] = fi
	}
	return r
}

// excludedPackage reports whether the package is in an excluded directory
// below its module's root: by its import path within the module, or, when
// the driver does not say which module it is in, by its directory within
// the directory that holds the nearest go.mod.
func excludedPackage(pass *analysis.Pass, cfg *config.Config) bool {
	if pass.Module != nil && pass.Module.Path != "" {
		return cfg.Excluded(pass.Pkg.Path(), pass.Module.Path)
	}
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.FileStart)
		if tf == nil || !filepath.IsAbs(tf.Name()) {
			continue
		}
		dir := filepath.Dir(tf.Name())
		root := moduleRoot(dir)
		if root == "" {
			break
		}
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			break
		}
		if rel == "." {
			return false
		}
		return cfg.Excluded("m/"+filepath.ToSlash(rel), "m")
	}
	return cfg.Excluded(pass.Pkg.Path(), "")
}

// moduleRoot returns the directory of the go.mod that governs dir, or "".
func moduleRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// importsAny reports whether a file imports one of paths.
func importsAny(f *ast.File, paths map[string]bool) bool {
	for _, imp := range f.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err == nil && paths[p] {
			return true
		}
	}
	return false
}

// cgoHeader is the first line of the files cmd/cgo writes.
const cgoHeader = "// Code generated by cmd/cgo; DO NOT EDIT."

// IsGenerated reports whether a file is generated (a "// Code generated
// ... DO NOT EDIT." comment before the package clause). A file that cmd/cgo
// wrote from a file of the package (its package clause maps back to that
// file through a //line directive) is generated only when that file was:
// a package that uses cgo is analysed in its own code.
func IsGenerated(fset *token.FileSet, f *ast.File) bool {
	if !ast.IsGenerated(f) {
		return false
	}
	tf := fset.File(f.Package)
	if tf == nil || fset.PositionFor(f.Package, true).Filename == tf.Name() {
		return true
	}
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if c.Text == cgoHeader {
				continue
			}
			for _, line := range strings.Split(c.Text, "\n") {
				if rest, ok := strings.CutPrefix(line, "// Code generated "); ok && strings.HasSuffix(rest, " DO NOT EDIT.") {
					return true
				}
			}
		}
	}
	return false
}

// Skip reports whether findings at pos are filtered out. Analyzers may call
// it to avoid work on files whose findings would be dropped.
func (r *Reporter) Skip(pos token.Pos) bool {
	if r.excluded {
		return true
	}
	tf := r.pass.Fset.File(pos)
	fi := r.files[tf]
	if fi == nil {
		return true // not a file of this package
	}
	if fi.test && !r.cfg.Tests {
		return true
	}
	if fi.generated && !r.cfg.Generated {
		return true
	}
	for _, rng := range fi.testFuncs {
		if rng[0] <= pos && pos < rng[1] {
			return true
		}
	}
	return false
}

// testFuncs returns the ranges of the file's functions that take a testing
// parameter.
func testFuncs(info *types.Info, f *ast.File, testing map[string]bool) [][2]token.Pos {
	var out [][2]token.Pos
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Type.Params == nil {
			continue
		}
		for _, field := range fd.Type.Params.List {
			if testing[TypeKey(info.TypeOf(field.Type))] {
				out = append(out, [2]token.Pos{fd.Pos(), fd.End()})
				break
			}
		}
	}
	return out
}

// Report reports d unless a filter drops it.
func (r *Reporter) Report(d analysis.Diagnostic) {
	if !d.Pos.IsValid() || r.Skip(d.Pos) {
		return
	}
	if fi := r.files[r.pass.Fset.File(d.Pos)]; len(fi.dirs) > 0 {
		if nolint.Suppressed(fi.dirs, r.pass.Analyzer.Name, r.pass.Fset.PositionFor(d.Pos, false)) {
			return
		}
	}
	r.pass.Report(d)
}

// Reportf reports a message at a node's range.
func (r *Reporter) Reportf(n ast.Node, format string, args ...any) {
	r.Report(analysis.Diagnostic{Pos: n.Pos(), End: n.End(), Message: sprintf(format, args...)})
}

// DoneRecv reports whether a statement receives from a context's Done
// channel: <-ctx.Done(), _ = <-ctx.Done(), or such a select case.
func DoneRecv(info *types.Info, st ast.Stmt) bool {
	var e ast.Expr
	switch st := st.(type) {
	case *ast.ExprStmt:
		e = st.X
	case *ast.AssignStmt:
		if len(st.Rhs) == 1 {
			e = st.Rhs[0]
		}
	}
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return false
	}
	return isDoneCall(info, u.X)
}

// isDoneCall reports whether e is a call of a context's Done method.
func isDoneCall(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Done" && IsContext(info.TypeOf(sel.X))
}

// IsNil reports whether e is the predeclared nil.
func IsNil(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := info.Uses[id].(*types.Nil)
	return isNil
}

// SyncMethod reports whether call calls a method of package sync named one
// of names ((*sync.Mutex).Lock, (*sync.Cond).Wait).
func SyncMethod(info *types.Info, call *ast.CallExpr, names ...string) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return false
	}
	for _, n := range names {
		if fn.Name() == n {
			return true
		}
	}
	return false
}

// Referent returns the object a name or a qualified name refers to (x,
// pkg.X, v.Field), or nil for any other expression.
func Referent(info *types.Info, e ast.Expr) types.Object {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return info.Uses[x]
	case *ast.SelectorExpr:
		return info.Uses[x.Sel]
	}
	return nil
}
