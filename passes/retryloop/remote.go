package retryloop

import (
	"go/ast"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/outbound"
)

// anyRemote reports whether one of the calls reaches another process.
func (m *model) anyRemote(calls []*ast.CallExpr) bool {
	for _, c := range calls {
		if m.remote(c, 0) {
			return true
		}
	}
	return false
}

// outbound reports whether a call surely talks to a dependency: an outbound
// call of the table, or a function that forwards its context to one.
func (m *model) outbound(call *ast.CallExpr) bool {
	_, ok := m.ob.ByCall[call]
	return ok || m.forwards[call]
}

// sendsOut reports whether a function of the package makes an outbound
// call of the table in its body, or calls a function of the package that
// does (t.do(req) around hc.Do).
func (m *model) sendsOut(d *ast.FuncDecl) bool {
	if r, ok := m.sendsMemo[d]; ok {
		return r
	}
	m.sendsMemo[d] = false // recursion: not unless shown
	found := false
	if d.Body != nil {
		ast.Inspect(d.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || found {
				return !found
			}
			if _, ok := m.ob.ByCall[c]; ok || m.forwards[c] {
				found = true
				return false
			}
			if fn, _ := m.callee(c); fn != nil && fn.Pkg() == m.pass.Pkg {
				if cd := m.x.decls[fn.Origin()]; cd != nil && cd != d && m.sendsOut(cd) {
					found = true
				}
			}
			return !found
		})
	}
	m.sendsMemo[d] = found
	return found
}

// remote reports whether a call reaches another process: an outbound call
// of the table, a gRPC-shaped method, a function that forwards its context
// to one or retries, a call taking a context, a retry helper, or a call
// whose function-literal arguments make such calls (a breaker's Execute).
func (m *model) remote(call *ast.CallExpr, depth int) bool {
	return m.reach(call, depth, false)
}

// remoteLayer is remote without the weak evidence of a context argument:
// whether a call is proven to reach another process, for retry layers.
func (m *model) remoteLayer(call *ast.CallExpr) bool {
	return m.reach(call, 0, true)
}

func (m *model) reach(call *ast.CallExpr, depth int, strict bool) bool {
	if m.outbound(call) {
		return true
	}
	switch m.placeOf(call) {
	case outbound.Remote:
		return true
	case outbound.Local:
		return false
	}
	fn, _ := m.callee(call)
	if fn != nil {
		if _, ok := m.rt.Helpers[analysisutil.Key(fn)]; ok {
			return true
		}
		if d := m.x.decls[fn.Origin()]; d != nil && fn.Pkg() == m.pass.Pkg && m.sendsOut(d) {
			return true // a helper of the package that makes an outbound call (t.do(req))
		}
		if m.collecting && fn.Pkg() == m.pass.Pkg && m.x.decls[fn.Origin()] != nil {
			return true // maybe: decided once every layer of the package is known
		}
		if f := m.fact(fn); f != nil && len(f.Layers) > 0 {
			return true
		}
	}
	for _, a := range call.Args {
		if !strict && analysisutil.IsContext(m.info.TypeOf(a)) {
			return true
		}
	}
	if depth > 2 {
		return false
	}
	// The result of a remote call, read by a method of its own
	// (rdb.Get(ctx, k).Bytes(), resp.Result()).
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if inner, ok := ast.Unparen(sel.X).(*ast.CallExpr); ok && m.reach(inner, depth+1, strict) {
			return true
		}
	}
	for _, a := range call.Args {
		lit, ok := ast.Unparen(a).(*ast.FuncLit)
		if !ok {
			continue
		}
		found := false
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if found {
				return false
			}
			if c, ok := n.(*ast.CallExpr); ok && m.reach(c, depth+1, strict) {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
