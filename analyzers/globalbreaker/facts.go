package globalbreaker

import (
	"fmt"
	"go/types"
	"strings"

	"github.com/resilint/resilint/passes/deps"
)

// WrapperFact is exported for a function that runs its function parameter
// Op through a breaker (func Call[T any](cb *gobreaker.CircuitBreaker[T],
// fn func() (T, error)) (T, error) { return cb.Execute(fn) }), so that its
// calls in other packages are guarded calls too. The breaker is one of
//
//   - Breaker: a value written in the function's parameters (the
//     parameter cb, the receiver's field g.cb) or a package-level
//     variable, resolved at each call;
//   - NameParam: the parameter that names the breaker (a hystrix command,
//     a registry name) of library Lib;
//   - Key: a constant process-wide name (hystrix.Do("legacy", ...)),
//     spelled Text in messages.
type WrapperFact struct {
	Op        int
	Breaker   deps.Sym
	NameParam int
	Lib       string
	Key, Text string
}

func (*WrapperFact) AFact() {}

func (f *WrapperFact) String() string {
	var b string
	switch {
	case f.NameParam >= 0:
		b = fmt.Sprintf("the breaker named by param%d", f.NameParam)
	case f.Breaker.Kind == deps.Path:
		b = f.Breaker.String()
	default:
		b = f.Text
	}
	return fmt.Sprintf("guards param%d with %s", f.Op, b)
}

// PackageFact marks a package that exports a WrapperFact, so that packages
// that import it are analyzed even when they import no breaker library.
type PackageFact struct{}

func (*PackageFact) AFact() {}

func (*PackageFact) String() string { return "guards function arguments with breakers" }

// importsWrappers reports whether a package this one imports exports
// WrapperFacts.
func (c *checker) importsWrappers() bool {
	for _, imp := range c.pass.Pkg.Imports() {
		if c.pass.ImportPackageFact(imp, new(PackageFact)) {
			return true
		}
	}
	return false
}

// exportWrappers exports a fact for each helper of the package whose
// breaker can be named at a call in another package.
func (c *checker) exportWrappers() {
	any := false
	for fn, w := range c.wrappers {
		if fn.Pkg() != c.pass.Pkg {
			continue
		}
		f := &WrapperFact{Op: w.op, NameParam: -1}
		switch r := w.ref; {
		case r.nameParam >= 0:
			f.NameParam, f.Lib = r.nameParam, r.lib
		case r.sym.Kind == deps.Path && (r.sym.Root == deps.RootParam || r.sym.Root == deps.RootGlobal):
			f.Breaker = r.sym
		case r.key != "" && r.sym.Kind != deps.Path && isStable(r.key):
			f.Key, f.Text, f.Lib = r.key, r.text, r.lib
		default:
			continue
		}
		c.pass.ExportObjectFact(fn, f)
		any = true
	}
	if any {
		c.pass.ExportPackageFact(new(PackageFact))
	}
}

// wrapperOf returns what is known about fn as a helper that guards its
// function argument: of this package, from the analysis; of another, from
// its fact.
func (c *checker) wrapperOf(fn *types.Func) *wrapper {
	fn = fn.Origin()
	if fn.Pkg() == nil || fn.Pkg() == c.pass.Pkg {
		return c.wrappers[fn]
	}
	if w, ok := c.imported[fn]; ok {
		return w
	}
	var w *wrapper
	f := new(WrapperFact)
	if c.pass.ImportObjectFact(fn, f) {
		w = importedWrapper(f, fn.Pkg())
	}
	c.imported[fn] = w
	return w
}

func importedWrapper(f *WrapperFact, pkg *types.Package) *wrapper {
	if f.Op < 0 {
		return nil
	}
	r := ref{nameParam: -1}
	switch {
	case f.NameParam >= 0:
		r.nameParam, r.lib = f.NameParam, f.Lib
	case f.Breaker.Kind == deps.Path:
		r.sym = f.Breaker
		if r.sym.Root == deps.RootGlobal && !strings.HasPrefix(r.sym.Text, pkg.Name()+".") {
			// A variable of the helper's package: qualify it.
			r.sym.Text = pkg.Name() + "." + r.sym.Text
		}
		r.text = r.sym.Text
	case f.Key != "":
		r.key, r.text, r.lib = f.Key, f.Text, f.Lib
	default:
		return nil
	}
	return &wrapper{op: f.Op, ref: r}
}
