package ctxflow

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// Request returns the origin of the context an outbound request carries.
func (m *Model) Request(e ast.Expr) Origin {
	m.Index()
	v := m.req(e, map[*types.Var]bool{}, 0)
	if v.bottom {
		return Origin{}
	}
	return v.Origin
}

func (m *Model) req(e ast.Expr, seen map[*types.Var]bool, depth int) val {
	if depth > maxDepth {
		return unknown
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if e.Name == "nil" {
			return bottom
		}
		v, ok := m.info.Uses[e].(*types.Var)
		if !ok {
			return unknown
		}
		return m.varVal(v, seen, depth, m.req, m.reqCall, m.reqElems)
	case *ast.CallExpr:
		return m.reqCall(e, -1, seen, depth)
	case *ast.IndexExpr:
		return m.reqElems(e.X, seen, depth+1) // reqs[i]
	}
	return unknown
}

// reqElems is the origin of the requests a slice of requests holds: its
// literal's elements, the values appended to it (to nil or to a new slice
// from make), or what a helper returns
// (a RequestFact for a slice result).
func (m *Model) reqElems(e ast.Expr, seen map[*types.Var]bool, depth int) val {
	if depth > maxDepth {
		return unknown
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		r := bottom
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			r = join(r, m.req(el, seen, depth+1))
		}
		return r
	case *ast.CallExpr:
		if m.isBuiltin(x.Fun, "make") {
			// make([]*http.Request, 0, n): no request yet. A length
			// other than 0 is filled by index, out of this walk.
			if len(x.Args) >= 2 {
				if tv, ok := m.info.Types[x.Args[1]]; ok && tv.Value != nil && tv.Value.String() == "0" {
					return bottom
				}
			}
			return unknown
		}
		if m.isBuiltin(x.Fun, "append") && len(x.Args) > 0 {
			r := m.reqElems(x.Args[0], seen, depth+1)
			for _, a := range x.Args[1:] {
				if x.Ellipsis.IsValid() {
					r = join(r, m.reqElems(a, seen, depth+1))
				} else {
					r = join(r, m.req(a, seen, depth+1))
				}
			}
			return r
		}
		return m.reqCall(x, -1, seen, depth)
	case *ast.Ident:
		if x.Name == "nil" {
			return bottom
		}
		v, ok := m.info.Uses[x].(*types.Var)
		if !ok {
			return unknown
		}
		return m.varVal(v, seen, depth, m.reqElems, func(c *ast.CallExpr, i int, seen map[*types.Var]bool, depth int) val {
			return m.reqCall(c, i, seen, depth)
		}, nil)
	}
	return unknown
}

func (m *Model) reqCall(call *ast.CallExpr, index int, seen map[*types.Var]bool, depth int) val {
	fn, _ := m.Callee(call)
	if fn == nil {
		return unknown
	}
	if row, ok := m.Table.Requests[analysisutil.Key(fn)]; ok {
		if index >= 0 && index != row.Result {
			return unknown
		}
		if row.Ctx == knowledge.None {
			return val{Origin: Origin{State: Free, Roots: []*ast.CallExpr{call}, NoCtxRequest: true}}
		}
		if row.Ctx < len(call.Args) {
			return m.ctx(call.Args[row.Ctx], seen, depth+1)
		}
		return unknown
	}
	f := m.requestFact(fn)
	if f == nil || (index >= 0 && index != f.Result) || (index < 0 && f.Result != 0) {
		return unknown
	}
	if f.Param >= 0 {
		if f.Param < len(call.Args) {
			return m.ctx(call.Args[f.Param], seen, depth+1)
		}
		return unknown
	}
	return val{Origin: Origin{State: f.State, Detached: f.Detached, Roots: []*ast.CallExpr{call}, HelperNoCtx: f.NoCtx}}
}

// requestFact returns the RequestFact of fn, computing it for functions of
// this package.
func (m *Model) requestFact(fn *types.Func) *RequestFact {
	fn = fn.Origin()
	if fn.Pkg() != m.Pass.Pkg {
		f := new(RequestFact)
		if m.Pass.ImportObjectFact(fn, f) {
			return f
		}
		return nil
	}
	if f, ok := m.reqMemo[fn]; ok {
		return f
	}
	if m.reqBusy[fn] {
		return nil
	}
	m.reqBusy[fn] = true
	f := m.computeRequestFact(fn)
	delete(m.reqBusy, fn)
	m.reqMemo[fn] = f
	return f
}

func (m *Model) computeRequestFact(fn *types.Func) *RequestFact {
	decl := m.decls[fn]
	if decl == nil || decl.Body == nil {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	result := -1
	slice := false
	for i := 0; i < sig.Results().Len(); i++ {
		if m.isRequestType(sig.Results().At(i).Type()) {
			result = i
			break
		}
		if m.isRequestSlice(sig.Results().At(i).Type()) {
			result, slice = i, true
			break
		}
	}
	if result < 0 {
		return nil
	}
	r := bottom
	seen := map[*types.Var]bool{}
	ok := true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			switch {
			case len(n.Results) == sig.Results().Len() && slice:
				r = join(r, m.reqElems(n.Results[result], seen, 0))
			case len(n.Results) == sig.Results().Len():
				r = join(r, m.req(n.Results[result], seen, 0))
			case len(n.Results) == 1:
				if c, isCall := ast.Unparen(n.Results[0]).(*ast.CallExpr); isCall {
					r = join(r, m.reqCall(c, result, seen, 0))
				} else {
					ok = false
				}
			default:
				ok = false // bare return of named results
			}
		}
		return true
	})
	if !ok || r.bottom {
		return nil
	}
	switch {
	case r.State == Unknown && r.Param != nil:
		if p, isParam := m.params[r.Param]; isParam && p.fn == decl && !p.result && p.index >= 0 {
			return &RequestFact{Result: result, Param: p.index, Slice: slice}
		}
	case r.State == Free || r.State == Deadline:
		return &RequestFact{Result: result, Param: -1, State: r.State, Detached: r.Detached, NoCtx: r.NoCtxRequest || r.HelperNoCtx, Slice: slice}
	}
	return nil
}

// IsRequestType reports whether t is a pointer to an outbound request type
// (*http.Request).
func (m *Model) IsRequestType(t types.Type) bool { return m.isRequestType(t) }

func (m *Model) isRequestType(t types.Type) bool {
	if _, ok := types.Unalias(t).(*types.Pointer); !ok {
		return false
	}
	k := analysisutil.TypeKey(t)
	if k == "" {
		return false
	}
	for _, row := range m.Table.Requests {
		if row.Type == k {
			return true
		}
	}
	return false
}

// isRequestSlice reports whether t is a slice of outbound requests.
func (m *Model) isRequestSlice(t types.Type) bool {
	sl, ok := types.Unalias(t).Underlying().(*types.Slice)
	return ok && m.isRequestType(sl.Elem())
}

func (m *Model) anyRequest(t *types.Tuple) bool {
	for i := 0; i < t.Len(); i++ {
		if m.isRequestType(t.At(i).Type()) || m.isRequestSlice(t.At(i).Type()) {
			return true
		}
	}
	return false
}

// Recontexts reports whether fn gives its request parameter i a new
// context before using it.
func (m *Model) Recontexts(fn *types.Func, i int) bool {
	m.Index()
	f := m.recontextFact(fn)
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

// RecontextCall reports whether call gives the request held in variable v
// a new context: v.WithContext(ctx), v.Clone(ctx), or a call passing v to
// a function that does.
func (m *Model) RecontextCall(call *ast.CallExpr, v *types.Var) bool {
	fn, recv := m.Callee(call)
	if fn == nil || isAbstract(fn) {
		// A function value or an interface method given the request and a
		// context (opts.Do(ctx, client, req)) may well attach one: unknown.
		passesV, passesCtx := false, false
		for _, a := range call.Args {
			if m.varOf(a) == v {
				passesV = true
			}
			if analysisutil.IsContext(m.Pass.TypesInfo.TypeOf(a)) {
				passesCtx = true
			}
		}
		return passesV && passesCtx
	}
	if recv != nil {
		if row, ok := m.Table.Requests[analysisutil.Key(fn)]; ok && row.Ctx != knowledge.None && m.varOf(recv) == v {
			return true
		}
	}
	for i, a := range call.Args {
		if m.varOf(a) == v && m.Recontexts(fn, i) {
			return true
		}
	}
	return false
}

func (m *Model) recontextFact(fn *types.Func) *RecontextFact {
	fn = fn.Origin()
	if fn.Pkg() != m.Pass.Pkg {
		f := new(RecontextFact)
		if m.Pass.ImportObjectFact(fn, f) {
			return f
		}
		return nil
	}
	if f, ok := m.recMemo[fn]; ok {
		return f
	}
	if m.recBusy[fn] {
		return nil
	}
	m.recBusy[fn] = true
	defer delete(m.recBusy, fn)
	var f *RecontextFact
	if decl := m.decls[fn]; decl != nil && decl.Body != nil {
		var params []*types.Var
		sig := fn.Type().(*types.Signature)
		for i := 0; i < sig.Params().Len(); i++ {
			params = append(params, sig.Params().At(i))
		}
		found := map[int]bool{}
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			for i, p := range params {
				if !found[i] && m.isRequestType(p.Type()) && m.RecontextCall(call, p) {
					found[i] = true
				}
			}
			return true
		})
		for i := range params {
			if found[i] {
				if f == nil {
					f = &RecontextFact{}
				}
				f.Params = append(f.Params, i)
			}
		}
	}
	m.recMemo[fn] = f
	return f
}

// requestVar returns the variable a request expression is, or is a copy of
// (req.WithContext(ctx), req.Clone(ctx)).
func (m *Model) requestVar(e ast.Expr) *types.Var {
	for i := 0; i < maxDepth; i++ {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return m.varOf(e)
		}
		fn, recv := m.Callee(call)
		if fn == nil || recv == nil {
			return nil
		}
		if _, ok := m.Table.Requests[analysisutil.Key(fn)]; !ok {
			return nil
		}
		e = recv
	}
	return nil
}

// isAbstract reports whether fn is an interface method (no body anywhere).
func isAbstract(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

// isBuiltin reports whether e names the builtin function name.
func (m *Model) isBuiltin(e ast.Expr, name string) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := m.info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}
