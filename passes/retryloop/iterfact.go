package retryloop

import (
	"go/ast"
	"go/types"
	"path/filepath"
	"strconv"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// Iterators of another package (issue 13, rule 9): for range
// retryiter.Attempts(4, 2*time.Second) { if err = send(ctx); err == nil {
// return nil } } retries send, and the pause between the iterator's yields
// is the loop's wait, although its code is out of this package's sight.
// IterFact carries what the iterator's yielding loop does between two
// yields; the loop that ranges over it is charged with it and reported at
// the range (the pause is in another package's file, where this package
// cannot report and no fix can be written).

// IterFact is exported for a function of the module whose every return is
// one iterator literal that yields from a loop and waits between yields.
type IterFact struct {
	// Attempts is the number of yields when constant (0: not constant);
	// Param is 1 + the index of the parameter bounding them (at most the
	// argument + ParamOffset), 0 for none.
	Attempts    int
	Param       int
	ParamOffset int
	// Waits are the pauses between two yields.
	Waits []IterWait
}

// IterWait is one pause of an iterator between yields.
type IterWait struct {
	Vary     knowledge.Variation
	CtxAware bool
	// Name names the wait (time.Sleep), Dur spells its duration in the
	// iterator's terms, At is where it is (file.go:15).
	Name, Dur, At string
	// Ctx: the iterator has a context of its own in scope at the wait.
	Ctx bool
	// DurParam is 1 + the index of the parameter of the iterator's function
	// the duration is, 0 for none: the caller's argument spells it.
	DurParam int
}

func (*IterFact) AFact() {}

func (f *IterFact) String() string {
	return "iterator waiting between yields (" + strconv.Itoa(len(f.Waits)) + " waits)"
}

// iterFactOf computes the IterFact of a function of this package, or nil.
func (m *model) iterFactOf(fn *types.Func) *IterFact {
	decl := m.x.decls[fn]
	if decl == nil || decl.Body == nil {
		return nil
	}
	it := m.iteratorOf(decl)
	if it == nil {
		return nil
	}
	IL, il := m.yieldingLoop(it, decl)
	m.sleeps(IL, il)
	if len(IL.Sleeps) == 0 {
		return nil
	}
	f := &IterFact{}
	switch IL.Bound {
	case ConstBound:
		f.Attempts = IL.Attempts
	default:
		if id, ok := IL.BoundExpr.(*ast.Ident); ok {
			if p, ok := m.info.Uses[id].(*types.Var); ok && len(m.x.defs[p]) == 0 {
				if i := m.paramIndex(decl, p); i >= 0 {
					f.Param, f.ParamOffset = i+1, IL.BoundOffset
				}
			}
		}
	}
	for _, s := range IL.Sleeps {
		w := IterWait{Vary: s.Vary, CtxAware: s.CtxAware, Name: s.Name, Ctx: s.Ctx != ""}
		if s.Dur != nil {
			w.Dur = analysisutil.Format(m.pass.Fset, s.Dur)
			if id, ok := ast.Unparen(s.Dur).(*ast.Ident); ok {
				if p, ok := m.info.Uses[id].(*types.Var); ok && len(m.x.defs[p]) == 0 {
					w.DurParam = m.paramIndex(decl, p) + 1
				}
			}
		}
		p := m.pass.Fset.Position(s.Node.Pos())
		w.At = filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
		f.Waits = append(f.Waits, w)
	}
	return f
}

// iteratorOf returns the iterator every return of a function declaration
// gives (one function literal yielding from a loop), or nil.
func (m *model) iteratorOf(decl *ast.FuncDecl) *iterInfo {
	results, ok := analysisutil.FirstResults(m.info, decl.Body)
	if !ok {
		return nil
	}
	var lit *ast.FuncLit
	for _, r := range results {
		l := m.funcLitOf(r)
		if l == nil || lit != nil && l != lit {
			return nil
		}
		lit = l
	}
	if lit == nil {
		return nil
	}
	return m.yieldLoop(&iterInfo{lit: lit, decl: decl})
}

// exportIterFacts exports the IterFact of the package's exported functions;
// it reports whether it exported one.
func (m *model) exportIterFacts() bool {
	any := false
	for fn, decl := range m.x.decls {
		if !fn.Exported() || decl.Body == nil {
			continue
		}
		if sig := fn.Signature(); sig.Results().Len() != 1 {
			continue
		} else if _, ok := sig.Results().At(0).Type().Underlying().(*types.Signature); !ok {
			continue
		}
		if f := m.iterFactOf(fn); f != nil {
			m.pass.ExportObjectFact(fn, f)
			any = true
		}
	}
	return any
}

// importedIter returns the IterFact of the function a range statement's
// iterator call invokes, when it is of another package.
func (m *model) importedIter(x ast.Expr) (*ast.CallExpr, *IterFact) {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	fn, _ := m.callee(call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == m.pass.Pkg {
		return nil, nil
	}
	f := new(IterFact)
	if !m.pass.ImportObjectFact(fn.Origin(), f) {
		return nil, nil
	}
	return call, f
}

// iterFactLoop charges a loop ranging over another package's iterator with
// the iterator's bound and waits, reported at the iterator call.
func (m *model) iterFactLoop(L *Loop, call *ast.CallExpr, f *IterFact) {
	switch {
	case f.Attempts > 0:
		L.Bound, L.Attempts = ConstBound, f.Attempts
	case f.Param > 0 && f.Param <= len(call.Args) && !call.Ellipsis.IsValid():
		arg := call.Args[f.Param-1]
		if n, ok := m.constInt(arg); ok && n+int64(f.ParamOffset) > 0 {
			L.Bound, L.Attempts = ConstBound, int(n)+f.ParamOffset
		} else {
			L.Bound, L.BoundExpr, L.BoundOffset = VarBound, arg, f.ParamOffset
		}
	default:
		L.Bound = VarBound // bounded or not, out of sight: no "forever"
	}
	L.dropRangeBounds()
	L.addBound(IteratorYields, call)
	L.Param = nil
	far := m.ctxFor(L, L.Stmt.Pos())
	for _, w := range f.Waits {
		s := &Sleep{Node: call, Form: Blocking, Vary: w.Vary, CtxAware: w.CtxAware, Name: w.Name, DurText: w.Dur, At: w.At}
		if w.DurParam > 0 && w.DurParam <= len(call.Args) && !call.Ellipsis.IsValid() {
			s.DurText = analysisutil.Format(m.pass.Fset, call.Args[w.DurParam-1])
		}
		if !w.CtxAware && !w.Ctx && far != "" {
			s.Ctx, s.CtxOutside = far, true
		}
		L.Sleeps = append(L.Sleeps, s)
	}
}
