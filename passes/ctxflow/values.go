package ctxflow

import (
	"go/ast"
	"go/constant"
	"go/types"
)

// Strings returns the constant string values an expression can have: a
// constant, or a variable whose every definition is one (including the
// values of a range over a literal slice of constants). ok is false when
// any value is unknown.
func (m *Model) Strings(e ast.Expr) ([]string, bool) {
	m.Index()
	return m.strs(e, map[*types.Var]bool{}, 0)
}

func (m *Model) strs(e ast.Expr, seen map[*types.Var]bool, depth int) ([]string, bool) {
	if depth > maxDepth {
		return nil, false
	}
	e = ast.Unparen(e)
	if tv, ok := m.info.Types[e]; ok && tv.Value != nil {
		if tv.Value.Kind() == constant.String {
			return []string{constant.StringVal(tv.Value)}, true
		}
		return nil, false
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil, false
	}
	v, ok := m.info.Uses[id].(*types.Var)
	if !ok || seen[v] || m.addrTaken[v] || !m.local(v) {
		return nil, false
	}
	if _, isParam := m.params[v]; isParam {
		return nil, false
	}
	seen[v] = true
	defer delete(seen, v)
	var out []string
	for _, d := range m.defs[v] {
		switch {
		case d.rangeOver != nil:
			lit := m.literal(d.rangeOver, seen)
			if lit == nil {
				return nil, false
			}
			for _, elt := range lit.Elts {
				vs, ok := m.strs(elt, seen, depth+1)
				if !ok {
					return nil, false
				}
				out = append(out, vs...)
			}
		case d.rhs != nil && d.index < 0:
			vs, ok := m.strs(d.rhs, seen, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, vs...)
		default:
			return nil, false
		}
	}
	return out, len(out) > 0
}

// literal returns the composite literal an expression is, or the one a
// variable assigned once holds.
func (m *Model) literal(e ast.Expr, seen map[*types.Var]bool) *ast.CompositeLit {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return x
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		if !ok || m.addrTaken[v] || !m.local(v) || len(m.defs[v]) != 1 {
			return nil
		}
		d := m.defs[v][0]
		if d.rhs == nil || d.index >= 0 {
			return nil
		}
		lit, _ := ast.Unparen(d.rhs).(*ast.CompositeLit)
		return lit
	}
	return nil
}
