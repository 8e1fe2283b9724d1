package ctxflow

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/resilint/resilint/internal/analysisutil"
)

// A Shape is what is known of one value a string expression can have: its
// constant beginning, and whether that beginning is the whole value
// ("http://127.0.0.1:" + port has the prefix "http://127.0.0.1:", not
// whole).
type Shape struct {
	Prefix string
	Whole  bool
}

// Shapes returns the shapes of every value a string expression can have:
// constants; concatenations (the left operand's shape, extended by the
// right's when the left is whole); formatted strings (fmt.Sprintf: the
// format with its proven arguments, up to its first unproven verb; see
// formatShapes); joined host and port (net.JoinHostPort: the host and a
// colon); the text of a URL value (u.String(): see URLShapes); the
// address of the package's own loopback listener (ln.Addr().String()) and
// the URL of a loopback test server (see listeners.go); what a function
// of the package returns, or one of another with a ShapeFact; variables of this package whose every definition
// is visible; unexported struct fields of this package that are given
// values only here (the values it gives them). ok is false when any value
// cannot be read at all; a value of unknown beginning is ok with an empty,
// not whole, prefix only when it is an operand after a known one.
func (m *Model) Shapes(e ast.Expr) ([]Shape, bool) {
	m.Index()
	return m.shapes(e, map[*types.Var]bool{}, 0)
}

func (m *Model) shapes(e ast.Expr, seen map[*types.Var]bool, depth int) ([]Shape, bool) {
	if depth > maxDepth || e == nil {
		return nil, false
	}
	e = ast.Unparen(e)
	if tv, ok := m.info.Types[e]; ok && tv.Value != nil {
		if tv.Value.Kind() == constant.String {
			return []Shape{{Prefix: constant.StringVal(tv.Value), Whole: true}}, true
		}
		return nil, false
	}
	switch x := e.(type) {
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return nil, false
		}
		left, ok := m.shapes(x.X, seen, depth+1)
		if !ok {
			return nil, false
		}
		right, rok := m.shapes(x.Y, seen, depth+1)
		var out []Shape
		for _, l := range left {
			if !l.Whole {
				out = append(out, l)
				continue
			}
			if !rok {
				out = append(out, Shape{Prefix: l.Prefix})
				continue
			}
			for _, r := range right {
				out = append(out, Shape{Prefix: l.Prefix + r.Prefix, Whole: r.Whole})
			}
		}
		return out, true
	case *ast.CallExpr:
		fn, recv := m.Callee(x)
		if fn == nil {
			return nil, false
		}
		key := analysisutil.Key(fn)
		if m.Table.URLs.Strings[key] && recv != nil {
			return m.urlShapes(recv, seen, depth+1) // u.String()
		}
		if m.Table.Locality.AddrStrings[key] && recv != nil {
			return m.listenerAddrShapes(recv, depth+1) // ln.Addr().String()
		}
		if i, ok := m.Table.Formatters[key]; ok && i < len(x.Args) {
			formats, ok := m.shapes(x.Args[i], seen, depth+1)
			if !ok {
				return nil, false
			}
			var out []Shape
			for _, f := range formats {
				out = append(out, m.formatShapes(f, x.Args[i+1:], seen, depth)...)
			}
			return out, true
		}
		if i, ok := m.Table.HostJoins[key]; ok && i < len(x.Args) {
			hosts, ok := m.shapes(x.Args[i], seen, depth+1)
			if !ok {
				return nil, false
			}
			var out []Shape
			for _, h := range hosts {
				if !h.Whole {
					return nil, false
				}
				host := h.Prefix
				if strings.Contains(host, ":") {
					host = "[" + host + "]"
				}
				out = append(out, Shape{Prefix: host + ":"})
			}
			return out, true
		}
		return m.returnShapes(fn, seen, depth) // s.Addr(): what it returns
	case *ast.SelectorExpr:
		if s, ok := m.serverURLShapes(x); ok {
			return s, true // srv.URL of an httptest server
		}
		if f := analysisutil.FieldOf(m.info, x); f != nil {
			vals, ok := m.FieldValues(f)
			if !ok {
				return nil, false
			}
			var out []Shape
			for _, v := range vals {
				s, ok := m.shapes(v, seen, depth+1)
				if !ok {
					return nil, false
				}
				out = append(out, s...)
			}
			return out, len(out) > 0
		}
		return nil, false
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		if !ok || seen[v] || m.addrTaken[v] || !m.local(v) {
			return nil, false
		}
		seen[v] = true
		defer delete(seen, v)
		if _, isParam := m.params[v]; isParam {
			vals, ok := m.paramValues(v, depth)
			if !ok || len(m.defs[v]) > 0 {
				return nil, false
			}
			var out []Shape
			for _, a := range vals {
				s, ok := m.shapes(a, seen, depth+1)
				if !ok {
					return nil, false
				}
				out = append(out, s...)
			}
			return out, len(out) > 0
		}
		var out []Shape
		for _, d := range m.defs[v] {
			switch {
			case d.rangeOver != nil:
				lit := m.literal(d.rangeOver, seen)
				if lit == nil {
					return nil, false
				}
				for _, elt := range lit.Elts {
					s, ok := m.shapes(elt, seen, depth+1)
					if !ok {
						return nil, false
					}
					out = append(out, s...)
				}
			case d.rhs != nil && d.index < 0:
				s, ok := m.shapes(d.rhs, seen, depth+1)
				if !ok {
					return nil, false
				}
				out = append(out, s...)
			default:
				return nil, false
			}
		}
		return out, len(out) > 0
	}
	return nil, false
}

// FieldValues returns the values this package gives an unexported struct
// field of its own (in composite literals and assignments), when that is
// every value it can have: no other package can set it, and the package
// neither takes its address nor sets anything through it.
func (m *Model) FieldValues(f *types.Var) ([]ast.Expr, bool) {
	if f.Pkg() != m.Pass.Pkg || f.Exported() {
		return nil, false
	}
	m.Index()
	m.fieldsOnce.Do(m.indexFields)
	if m.fieldOpaque[f] || len(m.fieldVals[f]) == 0 {
		return nil, false
	}
	return m.fieldVals[f], true
}

// Sources returns the expressions a value comes from: the expression
// itself, or, for a variable of this package whose every definition is
// visible (not a parameter), or an unexported field the package alone sets,
// the sources of every value it is given. &x and *x are looked through. A
// call among the sources stands for its first result (v, err := f()); a
// variable given a later result is out of sight. ok is false when some
// value comes from out of sight.
func (m *Model) Sources(e ast.Expr) ([]ast.Expr, bool) {
	m.Index()
	var out []ast.Expr
	ok := m.sources(e, map[*types.Var]bool{}, 0, &out)
	return out, ok
}

func (m *Model) sources(e ast.Expr, seen map[*types.Var]bool, depth int, out *[]ast.Expr) bool {
	if depth > maxDepth || e == nil {
		return false
	}
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			if _, isLit := ast.Unparen(x.X).(*ast.CompositeLit); isLit {
				return m.sources(x.X, seen, depth+1, out)
			}
		}
	case *ast.StarExpr:
		return m.sources(x.X, seen, depth+1, out)
	case *ast.SelectorExpr:
		if f := analysisutil.FieldOf(m.info, x); f != nil {
			vals, ok := m.FieldValues(f)
			if !ok {
				return false
			}
			for _, v := range vals {
				if !m.sources(v, seen, depth+1, out) {
					return false
				}
			}
			return true
		}
		if v, ok := m.info.Uses[x.Sel].(*types.Var); ok {
			return m.varSources(v, seen, depth, out)
		}
	case *ast.Ident:
		if v, ok := m.info.Uses[x].(*types.Var); ok {
			return m.varSources(v, seen, depth, out)
		}
	}
	*out = append(*out, e)
	return true
}

func (m *Model) varSources(v *types.Var, seen map[*types.Var]bool, depth int, out *[]ast.Expr) bool {
	if seen[v] {
		return true
	}
	if m.addrTaken[v] || !m.local(v) {
		return false
	}
	if len(m.fieldSets[v]) > 0 {
		return false // v.Transport = t: changed out of the definitions' sight
	}
	seen[v] = true
	defer delete(seen, v)
	if _, isParam := m.params[v]; isParam {
		vals, ok := m.paramValues(v, depth)
		if !ok || len(m.defs[v]) > 0 {
			return false
		}
		for _, a := range vals {
			if !m.sources(a, seen, depth+1, out) {
				return false
			}
		}
		return true
	}
	found := false
	for _, d := range m.defs[v] {
		if d.zero || d.rhs == nil || d.index > 0 {
			return false
		}
		if d.index == 0 {
			// req, err := http.NewRequest(...): the call's first result.
			if _, isCall := ast.Unparen(d.rhs).(*ast.CallExpr); !isCall {
				return false
			}
		}
		if !m.sources(d.rhs, seen, depth+1, out) {
			return false
		}
		found = true
	}
	return found
}

// ParamValues returns the values a parameter of an unexported function of
// this package is given: the arguments of every call of the function, when
// the function is only ever called directly (never used as a value, which
// could be called out of sight) and is called at least once.
func (m *Model) ParamValues(v *types.Var) ([]ast.Expr, bool) {
	m.Index()
	p, ok := m.params[v]
	if !ok || p.result || p.index < 0 {
		return nil, false
	}
	decl, ok := p.fn.(*ast.FuncDecl)
	if !ok || decl.Recv != nil || decl.Name.IsExported() {
		return nil, false
	}
	fn, ok := m.info.Defs[decl.Name].(*types.Func)
	if !ok {
		return nil, false
	}
	m.callsOnce.Do(m.indexCalls)
	calls := m.calls[fn]
	if m.asValue[fn] || len(calls) == 0 {
		return nil, false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Variadic() && p.index >= sig.Params().Len()-1 {
		return nil, false
	}
	var out []ast.Expr
	for _, call := range calls {
		if p.index >= len(call.Args) || call.Ellipsis.IsValid() {
			return nil, false
		}
		if len(call.Args) == 1 && sig.Params().Len() > 1 {
			return nil, false // f(g()): a multi-valued argument
		}
		out = append(out, call.Args[p.index])
	}
	return out, true
}

// maxParamCalls and maxParamDepth keep the walks that follow parameters
// into their callers' arguments small: every call of the function is a
// branch of the walk.
const (
	maxParamCalls = 4
	maxParamDepth = 8
)

// paramValues is ParamValues for a walk at depth: only near its start, and
// for functions called from a few places.
func (m *Model) paramValues(v *types.Var, depth int) ([]ast.Expr, bool) {
	if depth > maxParamDepth {
		return nil, false
	}
	vals, ok := m.ParamValues(v)
	if !ok || len(vals) > maxParamCalls {
		return nil, false
	}
	return vals, true
}

// indexCalls records the direct calls of the package's functions, and the
// functions referred to other than as the callee of a call.
func (m *Model) indexCalls() {
	m.calls = map[*types.Func][]*ast.CallExpr{}
	m.asValue = map[*types.Func]bool{}
	callee := map[*ast.Ident]bool{}
	m.ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
		call := n.(*ast.CallExpr)
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			return
		}
		if fn, ok := m.info.Uses[id].(*types.Func); ok {
			m.calls[fn] = append(m.calls[fn], call)
			callee[id] = true
		}
	})
	for id, obj := range m.info.Uses {
		if fn, ok := obj.(*types.Func); ok && fn.Pkg() == m.Pass.Pkg && !callee[id] {
			m.asValue[fn] = true
		}
	}
}
