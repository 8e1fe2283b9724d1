package retryloop

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// A team's own retry helper is a function of the module that calls one of
// its function parameters on the retried path of a retry loop of its own
// body:
//
//	func Do[T any](ctx context.Context, attempts int, f func(context.Context) (T, error)) (T, error) {
//		for i := 0; i < attempts; i++ {
//			if v, err = f(ctx); err == nil { ... }
//			...
//
// Its RetryFact says which parameter it retries (Op) and how many times
// (OpLayer: a constant, or a parameter bounding the loop). A call of it is
// then a retry layer of the caller, like a call of a library helper from
// the knowledge table, whose operation (the argument for that parameter: a
// function literal or a function) is followed for inner layers.

// ownHelper is what makes a function a retry helper of its own.
type ownHelper struct {
	op    int   // the index of the parameter retried
	layer Layer // its loop's layer (Attempts, or Param)
	// remote: the helper's loop is a retry layer by itself (its call of the
	// operation reaches another process, as far as the helper shows).
	remote bool
}

// ownCand is a call handing a function value to a function: maybe a call
// of a retry helper of the module.
type ownCand struct {
	call *ast.CallExpr
	fn   ast.Node
	decl *ast.FuncDecl
}

// maybeOwnCall records a call that passes a function value, for
// ownHelperCalls.
func (m *model) maybeOwnCall(call *ast.CallExpr, fn ast.Node, decl *ast.FuncDecl) {
	if decl == nil {
		return
	}
	for _, a := range call.Args {
		if _, ok := types.Unalias(m.info.TypeOf(a)).Underlying().(*types.Signature); ok {
			m.ownCands = append(m.ownCands, ownCand{call: call, fn: fn, decl: decl})
			return
		}
	}
}

// findOwnHelpers finds the package's own retry helpers among its retry
// loops: a loop directly in a declaration's body (not in a function literal)
// retrying a call of a parameter of function type that the function never
// reassigns nor takes the address of.
func (m *model) findOwnHelpers() {
	m.findClosureHelpers()
	for _, L := range m.loops {
		decl := L.Decl
		if L.Reconnect || L.Polls || decl == nil || L.Func != ast.Node(decl) || decl.Body == nil {
			continue
		}
		fn, ok := m.info.Defs[decl.Name].(*types.Func)
		if !ok {
			continue
		}
		if _, done := m.ownHelpers[fn]; done {
			continue
		}
		j, c := m.retriedParam(L, decl.Type.Params)
		if c == nil {
			continue
		}
		l := Layer{Attempts: L.attempts(), Bound: L.BoundText(), Func: analysisutil.Name(fn), On: L.class.on, OnUnknown: L.class.unknown}
		if L.Param != nil {
			if p := m.paramIndex(decl, L.Param); p >= 0 {
				l.Param, l.ParamOffset = p+1, L.ParamOffset
			}
		}
		m.ownHelpers[fn] = &ownHelper{op: j, layer: l, remote: m.remoteLayer(c)}
	}
	m.findWrappers()
	m.findOwnWrappers()
}

// findOwnWrappers finds the package's functions that hand a function
// parameter to one of the package's own retry helpers as its operation,
// directly or through a literal whose one call is of it, in a statement of
// their body:
//
//	func Value[T any](ctx context.Context, attempts int, fn func(context.Context) (T, error)) (T, error) {
//		var v T
//		err := Do(ctx, attempts, func(ctx context.Context) error {
//			var err error
//			v, err = fn(ctx)
//			return err
//		})
//		return v, err
//	}
//
// It retries that parameter as the helper does; the helper's attempts
// parameter, when it bounds them, is read from the argument (a constant,
// or a parameter of the wrapper).
func (m *model) findOwnWrappers() {
	for changed := true; changed; {
		changed = false
		for fn, decl := range m.x.decls {
			if decl.Body == nil || fn.Pkg() != m.pass.Pkg {
				continue
			}
			if _, done := m.ownHelpers[fn]; done {
				continue
			}
			for _, st := range decl.Body.List {
				call := stmtCall(st)
				if call == nil {
					continue
				}
				hfn, _ := m.callee(call)
				if hfn == nil {
					continue
				}
				h := m.ownHelpers[hfn.Origin()]
				if h == nil || h.op >= len(call.Args) {
					continue
				}
				v := m.wrappedParam(call.Args[h.op])
				if v == nil || len(m.x.defs[v]) > 0 || m.x.addrTaken[v] {
					continue
				}
				j := m.paramIndex(decl, v)
				if j < 0 {
					continue
				}
				l := h.layer
				l.Func = analysisutil.Name(fn)
				if h.layer.Param > 0 {
					l.Param, l.ParamOffset = 0, 0
					if i := h.layer.Param - 1; i < len(call.Args) {
						a := call.Args[i]
						if n, ok := m.constInt(a); ok {
							l.Attempts = int(n) + h.layer.ParamOffset
						} else if pv := m.x.varOf(a); pv != nil && m.paramIndex(decl, pv) >= 0 && len(m.x.defs[pv]) == 0 {
							l.Param, l.ParamOffset = m.paramIndex(decl, pv)+1, h.layer.ParamOffset
						} else {
							l.Attempts, l.Bound = 0, analysisutil.Format(m.pass.Fset, a)
						}
					}
				}
				m.ownHelpers[fn] = &ownHelper{op: j, layer: l, remote: h.remote}
				changed = true
				break
			}
		}
	}
}

// stmtCall returns the call a statement makes at its top: f(...),
// return f(...), x := f(...), x, err = f(...).
func stmtCall(st ast.Stmt) *ast.CallExpr {
	var e ast.Expr
	switch s := st.(type) {
	case *ast.ExprStmt:
		e = s.X
	case *ast.ReturnStmt:
		if len(s.Results) == 1 {
			e = s.Results[0]
		}
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			e = s.Rhs[0]
		}
	}
	c, _ := ast.Unparen(e).(*ast.CallExpr)
	return c
}

// wrappedParam returns the function parameter an operation hands on:
// calledParam's, or the one call of a literal that makes no other call
// (func(ctx context.Context) error { var err error; v, err = fn(ctx);
// return err }).
func (m *model) wrappedParam(op ast.Expr) *types.Var {
	if v := m.calledParam(op); v != nil {
		return v
	}
	lit, ok := ast.Unparen(op).(*ast.FuncLit)
	if !ok {
		return nil
	}
	var found *types.Var
	calls := 0
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			calls++ // a nested literal: not a plain hand-on
			return false
		case *ast.CallExpr:
			if tv, ok := m.info.Types[n.Fun]; ok && tv.IsType() {
				return true // a conversion
			}
			calls++
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				if v, ok := m.info.Uses[id].(*types.Var); ok {
					if _, isFunc := types.Unalias(v.Type()).Underlying().(*types.Signature); isFunc {
						found = v
					}
				}
			}
		}
		return true
	})
	if calls != 1 {
		return nil
	}
	return found
}

// findWrappers finds the package's functions that hand a function
// parameter to a retry helper of the knowledge table as its operation,
// directly or through a literal that only calls it:
//
//	func withRetry[T any](ctx context.Context, op func() (T, error)) (T, error) {
//		return retry.DoWithData(op, retry.Attempts(3), retry.Context(ctx))
//	}
//
// A call of one is a retry layer like a call of the library helper.
func (m *model) findWrappers() {
	for _, h := range m.helpers {
		if !h.Site || h.Decl == nil || h.Func != ast.Node(h.Decl) || len(h.Ops) != 1 {
			continue
		}
		fn, ok := m.info.Defs[h.Decl.Name].(*types.Func)
		if !ok {
			continue
		}
		if _, done := m.ownHelpers[fn]; done {
			continue
		}
		v := m.calledParam(h.Ops[0])
		if v == nil || len(m.x.defs[v]) > 0 || m.x.addrTaken[v] {
			continue
		}
		j := m.paramIndex(h.Decl, v)
		if j < 0 {
			continue
		}
		m.ownHelpers[fn] = &ownHelper{op: j, layer: Layer{Attempts: h.Attempts, Bound: h.AttemptsText, Func: analysisutil.Name(fn)}}
	}
}

// calledParam returns the function-typed variable an operation is: op
// itself, or a literal whose body only calls it (func() error { return
// op(ctx) }).
func (m *model) calledParam(op ast.Expr) *types.Var {
	op = ast.Unparen(op)
	if lit, ok := op.(*ast.FuncLit); ok {
		if len(lit.Body.List) != 1 {
			return nil
		}
		var call ast.Expr
		switch st := lit.Body.List[0].(type) {
		case *ast.ReturnStmt:
			if len(st.Results) == 1 {
				call = st.Results[0]
			}
		case *ast.ExprStmt:
			call = st.X
		}
		c, ok := ast.Unparen(call).(*ast.CallExpr)
		if !ok {
			return nil
		}
		op = ast.Unparen(c.Fun)
	}
	id, ok := op.(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := m.info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	if _, isFunc := types.Unalias(v.Type()).Underlying().(*types.Signature); !isFunc {
		return nil
	}
	return v
}

// retriedParam finds, among the calls a loop retries, one of a parameter
// of function type from params that is never reassigned nor addressed (not
// the variadic last one): its index and the call, or nil.
func (m *model) retriedParam(L *Loop, params *ast.FieldList) (int, *ast.CallExpr) {
	for _, c := range L.Retried {
		id, ok := ast.Unparen(c.Fun).(*ast.Ident)
		if !ok {
			continue
		}
		v, ok := m.info.Uses[id].(*types.Var)
		if !ok || len(m.x.defs[v]) > 0 || m.x.addrTaken[v] {
			continue
		}
		j := fieldIndex(m.info, params, v)
		if j < 0 || j == params.NumFields()-1 && variadic(params) {
			continue
		}
		if _, ok := types.Unalias(v.Type()).Underlying().(*types.Signature); !ok {
			continue
		}
		return j, c
	}
	return -1, nil
}

// variadic reports whether a parameter list ends in ...T.
func variadic(params *ast.FieldList) bool {
	if params == nil || len(params.List) == 0 {
		return false
	}
	_, ok := params.List[len(params.List)-1].Type.(*ast.Ellipsis)
	return ok
}

// findClosureHelpers finds retry helpers held in local variables: a
// function literal assigned once (withRetry := func(op func() error) error
// {...}) whose own loop retries a call of one of its parameters.
func (m *model) findClosureHelpers() {
	lits := map[*ast.FuncLit]*types.Var{}
	for v, defs := range m.x.defs {
		if len(defs) != 1 || m.x.addrTaken[v] || v.IsField() || v.Parent() == m.pass.Pkg.Scope() {
			continue
		}
		if lit, ok := ast.Unparen(defs[0].rhs).(*ast.FuncLit); ok && defs[0].index < 0 {
			lits[lit] = v
		}
	}
	if len(lits) == 0 {
		return
	}
	for _, L := range m.loops {
		lit, ok := L.Func.(*ast.FuncLit)
		if !ok || L.Reconnect || L.Polls {
			continue
		}
		hv := lits[lit]
		if hv == nil || m.closureHelpers[hv] != nil {
			continue
		}
		if j, c := m.retriedParam(L, lit.Type.Params); c != nil {
			m.closureHelpers[hv] = &ownHelper{op: j, layer: Layer{Attempts: L.attempts(), Bound: L.BoundText(), Func: hv.Name(), On: L.class.on, OnUnknown: L.class.unknown}, remote: m.remoteLayer(c)}
		}
	}
}

// ownHelperOf returns what makes fn a retry helper of the module: found in
// this package, or read from its fact.
func (m *model) ownHelperOf(fn *types.Func) *ownHelper {
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return nil
	}
	if fn.Pkg() == m.pass.Pkg {
		return m.ownHelpers[fn]
	}
	f := new(RetryFact)
	if !m.pass.ImportObjectFact(fn, f) || f.Op <= 0 {
		return nil
	}
	return &ownHelper{op: f.Op - 1, layer: f.OpLayer, remote: len(f.Layers) > 0}
}

// ownHelperCalls makes the calls of the module's own retry helpers retry
// layers: a site like a library helper's call, with the argument for the
// retried parameter as its operation. A call that makes one attempt (a
// constant 1 for the count) is none.
func (m *model) ownHelperCalls() {
	for _, c := range m.ownCands {
		call := c.call
		if m.siteByCall[call] != nil || call.Ellipsis.IsValid() {
			continue
		}
		fn, recv := m.callee(call)
		if fn == nil {
			m.closureHelperCall(c)
			continue
		}
		sig, _ := fn.Type().(*types.Signature)
		if sig == nil || sig.Recv() != nil && recv == nil {
			continue // a method expression: the arguments are shifted
		}
		if d := m.x.decls[fn.Origin()]; d != nil && d == c.decl {
			continue // recursion
		}
		if _, known := m.rt.Helpers[analysisutil.Key(fn)]; known {
			continue // the knowledge table decides (Attempts(1) is no layer)
		}
		oh := m.ownHelperOf(fn)
		if oh == nil || oh.op >= len(call.Args) {
			continue
		}
		l, drop := m.atCall(oh.layer, call, c.decl)
		if drop {
			continue
		}
		h := &Helper{Call: call, Fn: fn, Site: true, Attempts: l.Attempts, Ops: []ast.Expr{call.Args[oh.op]}, Func: c.fn, Decl: c.decl}
		m.addSite(&site{helper: h, own: oh, decl: c.decl, fn: c.fn, attempts: l.Attempts, bound: l.Bound, param: l.Param, paramOffset: l.ParamOffset, via: analysisutil.Name(fn), class: oh.layer.class()})
	}
	m.ownCands = nil
}

// closureHelperCall makes a call of a retry helper held in a local
// variable a retry layer, like a call of a declared one.
func (m *model) closureHelperCall(c ownCand) {
	id, ok := ast.Unparen(c.call.Fun).(*ast.Ident)
	if !ok {
		return
	}
	v, ok := m.info.Uses[id].(*types.Var)
	if !ok {
		return
	}
	oh := m.closureHelpers[v]
	if oh == nil || oh.op >= len(c.call.Args) || c.call.Ellipsis.IsValid() {
		return
	}
	if lit, ok := ast.Unparen(m.x.defs[v][0].rhs).(*ast.FuncLit); ok && within(c.call.Pos(), lit) {
		return // recursion
	}
	h := &Helper{Call: c.call, Site: true, Attempts: oh.layer.Attempts, Ops: []ast.Expr{c.call.Args[oh.op]}, Func: c.fn, Decl: c.decl}
	m.addSite(&site{helper: h, own: oh, decl: c.decl, fn: c.fn, attempts: oh.layer.Attempts, bound: oh.layer.Bound, via: v.Name(), class: oh.layer.class()})
}

// opsRemote reports whether a helper call's operations reach another
// process: yes when one is proven to (a call in the literal does, or the
// function retries or makes an outbound call), no when every one is seen
// and none does, unknown when one cannot be followed (a parameter, an
// interface method). A library helper with no operation argument (a
// retrying HTTP client's Do) is the remote call itself.
func (m *model) opsRemote(h *Helper) tri {
	if len(h.Ops) == 0 {
		return yes
	}
	r := no
	for _, op := range h.Ops {
		if lit := m.funcLitOf(op); lit != nil {
			found := false
			ast.Inspect(lit.Body, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok && !found && m.remoteLayer(c) {
					found = true
				}
				return !found
			})
			if found {
				return yes
			}
			continue
		}
		fn := m.funcValue(op)
		if fn == nil {
			r = unk
			continue
		}
		if f := m.fact(fn); f != nil && len(f.Layers) > 0 {
			return yes
		}
		if d := m.x.decls[fn.Origin()]; d != nil && fn.Pkg() == m.pass.Pkg {
			if m.sendsOut(d) {
				return yes
			}
			continue
		}
		r = unk
	}
	return r
}

// ownRemote reports whether a call of a team's own helper reaches another
// process: its operation does; an operation that cannot be followed, when
// the helper's own loop does.
func (m *model) ownRemote(s *site) bool {
	switch m.opsRemote(s.helper) {
	case yes:
		return true
	case no:
		return false
	}
	return s.own.remote
}
