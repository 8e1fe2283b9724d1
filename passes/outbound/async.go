package outbound

import (
	"go/ast"
	"go/types"
	"sort"

	"github.com/resilint/resilint/internal/analysisutil"
)

// AsyncFact is exported for a function that hands one of its context
// parameters to a goroutine it starts (ctx, cancel := context.WithCancel(ctx);
// go c.run(ctx)): that context is the lifetime of background work, which a
// caller may rightly give context.Background() (a component's Start).
type AsyncFact struct {
	Params []int
}

func (*AsyncFact) AFact() {}

func (f *AsyncFact) String() string {
	s := "async"
	for _, p := range f.Params {
		s += " ctx#" + itoa(p)
	}
	return s
}

// Async reports whether call's function hands its parameter i, a
// context, to a goroutine it starts.
func (r *Result) Async(call *ast.CallExpr, i int) bool {
	f := r.async[call]
	if f == nil {
		return false
	}
	for _, p := range f.Params {
		if p == i {
			return true
		}
	}
	return false
}

// asyncFact returns the AsyncFact of fn, computing it for this package's
// functions.
func (s *state) asyncFact(fn *types.Func) *AsyncFact {
	fn = fn.Origin()
	if fn.Pkg() != s.pass.Pkg {
		f := new(AsyncFact)
		if s.pass.ImportObjectFact(fn, f) {
			return f
		}
		return nil
	}
	if f, ok := s.asyncMemo[fn]; ok {
		return f
	}
	if s.asyncBusy[fn] {
		return nil
	}
	s.asyncBusy[fn] = true
	f := s.computeAsync(fn)
	delete(s.asyncBusy, fn)
	s.asyncMemo[fn] = f
	return f
}

func (s *state) computeAsync(fn *types.Func) *AsyncFact {
	decl := s.model.Decl(fn)
	if decl == nil || decl.Body == nil {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	params := map[*types.Var]int{}
	for i := 0; i < sig.Params().Len(); i++ {
		if analysisutil.IsContext(sig.Params().At(i).Type()) {
			params[sig.Params().At(i)] = i
		}
	}
	if len(params) == 0 {
		return nil
	}
	found := map[int]bool{}
	info := s.pass.TypesInfo
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		g, ok := n.(*ast.GoStmt)
		if !ok {
			return true
		}
		ast.Inspect(g.Call, func(x ast.Node) bool {
			id, ok := x.(*ast.Ident)
			if !ok {
				return true
			}
			v, ok := info.Uses[id].(*types.Var)
			if !ok || !analysisutil.IsContext(v.Type()) {
				return true
			}
			if i, ok := params[v]; ok {
				found[i] = true
				return true
			}
			o := s.model.Context(id)
			for _, p := range []*types.Var{o.Param, o.Derived} {
				if i, ok := params[p]; ok && p != nil {
					found[i] = true
				}
			}
			return true
		})
		return true
	})
	// A context handed on to a function that hands it to a goroutine
	// (Dial(ctx) calling NewAuthInterceptor(ctx), which starts one).
	origin := func(e ast.Expr) (int, bool) {
		o := s.model.Context(e)
		for _, p := range []*types.Var{o.Param, o.Derived} {
			if i, ok := params[p]; ok && p != nil {
				return i, true
			}
		}
		return 0, false
	}
	for _, n := range s.byFunc[decl] {
		call := n.(*ast.CallExpr)
		callee, _ := s.model.Callee(call)
		if callee == nil || callee.Origin() == fn {
			continue
		}
		if s.asyncBusy[callee.Origin()] {
			continue
		}
		f := s.asyncFact(callee)
		if f == nil || call.Ellipsis.IsValid() {
			continue
		}
		for _, j := range f.Params {
			if j < len(call.Args) {
				if i, ok := origin(call.Args[j]); ok {
					found[i] = true
				}
			}
		}
	}
	if len(found) == 0 {
		return nil
	}
	f := &AsyncFact{}
	for i := range found {
		f.Params = append(f.Params, i)
	}
	sort.Ints(f.Params)
	return f
}
