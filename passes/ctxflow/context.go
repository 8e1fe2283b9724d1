package ctxflow

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// val is an Origin plus "no information yet", the identity of join, used to
// cut cycles (ctx = context.WithValue(ctx, k, v)).
type val struct {
	bottom bool
	Origin
}

var (
	bottom  = val{bottom: true}
	unknown = val{}
)

func join(a, b val) val {
	if a.bottom {
		return b
	}
	if b.bottom {
		return a
	}
	if a.State != b.State {
		// A parameter, and a deadline added to it: the value carries the
		// parameter's cancellation, and its own bound where it was added.
		if a.State == Deadline {
			a, b = b, a
		}
		if a.State == Unknown && a.Param != nil && !a.Inbound && b.State == Deadline && b.Derived == a.Param {
			return b
		}
		return unknown
	}
	switch a.State {
	case Free:
		roots := append(append([]*ast.CallExpr(nil), a.Roots...), b.Roots...)
		return val{Origin: Origin{State: Free, Detached: a.Detached && b.Detached, Roots: roots, NoCtxRequest: a.NoCtxRequest && b.NoCtxRequest, HelperNoCtx: a.HelperNoCtx && b.HelperNoCtx}}
	case Deadline:
		o := Origin{State: Deadline}
		if a.Derived == b.Derived {
			o.Derived = a.Derived
		}
		return val{Origin: o}
	}
	o := Origin{Inbound: a.Inbound && b.Inbound}
	if a.Param == b.Param {
		o.Param = a.Param
	}
	return val{Origin: o}
}

const maxDepth = 24

// Context returns the origin of a context-typed expression.
func (m *Model) Context(e ast.Expr) Origin {
	m.Index()
	v := m.ctx(e, map[*types.Var]bool{}, 0)
	if v.bottom {
		return Origin{}
	}
	return v.Origin
}

// VarContext returns the origin of a context variable of this package.
func (m *Model) VarContext(v *types.Var) Origin {
	m.Index()
	r := m.varVal(v, map[*types.Var]bool{}, 0, m.ctx, m.ctxCall, nil)
	if r.bottom {
		return Origin{}
	}
	return r.Origin
}

func (m *Model) ctx(e ast.Expr, seen map[*types.Var]bool, depth int) val {
	if depth > maxDepth {
		return unknown
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if e.Name == "nil" {
			return unknown
		}
		v, ok := m.info.Uses[e].(*types.Var)
		if !ok {
			return unknown
		}
		return m.varVal(v, seen, depth, m.ctx, m.ctxCall, nil)
	case *ast.CallExpr:
		return m.ctxCall(e, -1, seen, depth)
	}
	return unknown
}

type exprEval func(ast.Expr, map[*types.Var]bool, int) val
type callEval func(*ast.CallExpr, int, map[*types.Var]bool, int) val

// varVal joins the values of v's definitions; elems, if not nil, gives the
// value of the elements of a ranged expression (for _, r := range reqs).
func (m *Model) varVal(v *types.Var, seen map[*types.Var]bool, depth int, expr exprEval, call callEval, elems exprEval) val {
	if seen[v] {
		return bottom
	}
	if m.addrTaken[v] || !m.local(v) {
		return unknown
	}
	seen[v] = true
	defer delete(seen, v)
	r := bottom
	if p, ok := m.params[v]; ok {
		if p.result {
			r = join(r, unknown)
		} else {
			r = join(r, val{Origin: Origin{Param: v}})
		}
	}
	for _, d := range m.defs[v] {
		var dv val
		_, isSlice := v.Type().Underlying().(*types.Slice)
		switch {
		case d.zero && isSlice:
			dv = bottom // var reqs []*http.Request: holds nothing yet
		case d.rangeOver != nil && elems != nil:
			dv = elems(d.rangeOver, seen, depth+1)
		case d.rhs == nil:
			dv = unknown
		case d.index < 0:
			dv = expr(d.rhs, seen, depth+1)
		default:
			if c, ok := ast.Unparen(d.rhs).(*ast.CallExpr); ok {
				dv = call(c, d.index, seen, depth+1)
			} else {
				dv = unknown
			}
		}
		if dv.self {
			// ctx, cancel := context.WithTimeout(ctx, d): a deadline on v
			// itself, which derives from v's parameter if v is one.
			dv.self = false
			if p, ok := m.params[v]; ok && !p.result {
				dv.Derived = v
			}
		}
		r = join(r, dv)
		if !r.bottom && r.State == Unknown && r.Param == nil && !r.Inbound {
			return unknown // nothing left to learn
		}
	}
	if r.bottom {
		return unknown
	}
	return r
}

func (m *Model) ctxCall(call *ast.CallExpr, index int, seen map[*types.Var]bool, depth int) val {
	fn, recv := m.Callee(call)
	if fn == nil {
		return unknown
	}
	key := analysisutil.Key(fn)
	if row, ok := m.Table.Contexts[key]; ok {
		if index >= 0 && index != row.Result {
			return unknown
		}
		switch row.Effect {
		case knowledge.Root:
			return val{Origin: Origin{State: Free, Detached: true, Roots: []*ast.CallExpr{call}}}
		case knowledge.Inherit:
			if row.Parent >= 0 && row.Parent < len(call.Args) {
				p := m.ctx(call.Args[row.Parent], seen, depth+1)
				if !p.bottom && p.State == Free && row.Cancel >= 0 && (m.linked(call, row.Cancel, seen, depth) || m.cancelKept(call, row.Cancel)) {
					// Cancelled once a context of the caller's is done:
					// it carries that cancellation (issue 13, rule 6).
					return unknown
				}
				return p
			}
			return unknown
		case knowledge.AddDeadline:
			o := Origin{State: Deadline}
			if row.Parent >= 0 && row.Parent < len(call.Args) {
				switch p := m.ctx(call.Args[row.Parent], seen, depth+1); {
				case p.bottom:
					o.self = true // WithTimeout(ctx, d) assigned to ctx: see varVal
				case p.State == Unknown && !p.Inbound:
					o.Derived = p.Param
				case p.State == Deadline:
					o.Derived = p.Derived
				}
			}
			return val{Origin: o}
		case knowledge.DropDeadline:
			return val{Origin: Origin{State: Free, Roots: []*ast.CallExpr{call}}}
		}
		return unknown
	}
	if m.Table.Inbound[key] && recv != nil && index <= 0 {
		// r.Context(): the caller's budget when r is an inbound request
		// parameter; a request built here carries the context it was
		// built with.
		if v := m.varOf(recv); v != nil {
			if _, _, isParam := m.IsParam(v); isParam && len(m.defs[v]) == 0 {
				return val{Origin: Origin{Inbound: true}}
			}
		}
		return m.req(recv, seen, depth+1)
	}
	return unknown
}
