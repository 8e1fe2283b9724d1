package ctxflow

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// ConnCap returns how a client expression caps its own open connections,
// or "" when no cap is proven: a transport literal whose ConnCapField is a
// positive constant (&http.Transport{MaxConnsPerHost: 8}), reached through
// the client's literal, a variable of the package or an unexported field
// every value of which is capped; or a cap setter called unconditionally,
// with a positive constant, on the variable the client is
// (db.SetMaxOpenConns(10) in the function that opens db). Callers beyond
// the cap wait for a free connection: the dependency sees no more.
func (m *Model) ConnCap(e ast.Expr) string {
	m.Index()
	return m.connCap(e, map[*types.Var]bool{}, 0)
}

func (m *Model) connCap(e ast.Expr, seen map[*types.Var]bool, depth int) string {
	if depth > maxDepth || e == nil {
		return ""
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return m.connCap(x.X, seen, depth+1)
		}
	case *ast.CompositeLit:
		key := analysisutil.TypeKey(m.info.TypeOf(x))
		if tt, ok := m.Table.TransportTypes[key]; ok && tt.ConnCapField != "" {
			if n := positive(m.info, litValue(x, tt.ConnCapField)); n > 0 {
				return fmt.Sprintf("its transport's %s (%d)", tt.ConnCapField, n)
			}
			return ""
		}
		if ct, ok := m.Table.ClientTypes[key]; ok && ct.TransportField != "" {
			return m.connCap(litValue(x, ct.TransportField), seen, depth+1)
		}
	case *ast.SelectorExpr:
		v, ok := m.info.Uses[x.Sel].(*types.Var)
		if !ok {
			return ""
		}
		if !v.IsField() {
			return m.capVar(v, x.Pos(), seen, depth)
		}
		vals, ok := m.FieldValues(v)
		if !ok {
			return ""
		}
		cap := ""
		for _, val := range vals {
			c := m.connCap(val, seen, depth+1)
			if c == "" {
				return ""
			}
			cap = c
		}
		return cap
	case *ast.Ident:
		if v, ok := m.info.Uses[x].(*types.Var); ok {
			return m.capVar(v, x.Pos(), seen, depth)
		}
	}
	return ""
}

// PoolMadeHere reports whether every value a client expression can hold is
// made in sight by a constructor of the standard library (sql.Open,
// sql.OpenDB), kept in variables of this package that are not handed to a
// call that may change them: then ConnCap's answer is the whole truth, and
// no cap means none. A pool from a parameter, another package or an
// unexported helper may have been capped where it was made.
func (m *Model) PoolMadeHere(e ast.Expr) bool {
	m.Index()
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if v, ok := m.info.Uses[id].(*types.Var); ok && m.local(v) && m.HandedOn(v) {
			return false
		}
	}
	srcs, ok := m.Sources(e)
	if !ok || len(srcs) == 0 {
		return false
	}
	for _, src := range srcs {
		call, ok := ast.Unparen(src).(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, _ := m.Callee(call)
		if fn == nil || fn.Pkg() == nil || !analysisutil.IsStdPath(fn.Pkg().Path()) {
			return false
		}
	}
	return true
}

// capVar is connCap for a variable of the package used at pos: a cap
// setter called on it unconditionally before pos, or every definition
// capped.
func (m *Model) capVar(v *types.Var, pos token.Pos, seen map[*types.Var]bool, depth int) string {
	if seen[v] || m.addrTaken[v] || !m.local(v) {
		return ""
	}
	if _, isParam := m.params[v]; isParam {
		return ""
	}
	seen[v] = true
	defer delete(seen, v)
	if c := m.capSet(v, pos); c != "" {
		return c
	}
	if len(m.fieldSets[v]) > 0 || len(m.defs[v]) == 0 {
		return "" // v.Transport = t: out of reach here
	}
	cap := ""
	for _, d := range m.defs[v] {
		if d.rhs == nil || d.index >= 0 {
			return ""
		}
		c := m.connCap(d.rhs, seen, depth+1)
		if c == "" {
			return ""
		}
		cap = c
	}
	return cap
}

// capSet finds a cap setter called on v with a positive constant, as a
// statement of the body of the function that declares v, outside any
// branch or loop (so it runs before every later use of v there), and
// before pos when pos is in that body (the use being judged).
func (m *Model) capSet(v *types.Var, pos token.Pos) string {
	var body *ast.BlockStmt
	for _, f := range m.Pass.Files {
		if f.FileStart <= v.Pos() && v.Pos() < f.FileEnd {
			ast.Inspect(f, func(n ast.Node) bool {
				if body != nil {
					return false
				}
				if fd, ok := n.(*ast.FuncDecl); ok && fd.Body != nil && fd.Pos() <= v.Pos() && v.Pos() < fd.End() {
					body = fd.Body
					return false
				}
				return true
			})
		}
	}
	if body == nil {
		return "" // a package-level variable: set anywhere
	}
	before := token.NoPos
	if body.Pos() <= pos && pos < body.End() {
		before = pos
	}
	var found string
	var visit func(list []ast.Stmt)
	visit = func(list []ast.Stmt) {
		for _, st := range list {
			switch st := st.(type) {
			case *ast.BlockStmt:
				visit(st.List)
			case *ast.ExprStmt:
				if before.IsValid() && st.End() > before {
					return
				}
				call, ok := ast.Unparen(st.X).(*ast.CallExpr)
				if !ok {
					continue
				}
				sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
				if !ok {
					continue
				}
				id, ok := ast.Unparen(sel.X).(*ast.Ident)
				if !ok || m.info.Uses[id] != v {
					continue
				}
				fn, _ := m.info.Uses[sel.Sel].(*types.Func)
				if fn == nil {
					continue
				}
				i, ok := m.Table.ConnCapSetters[fn.FullName()]
				if !ok || i >= len(call.Args) {
					continue
				}
				if n := positive(m.info, call.Args[i]); n > 0 {
					found = fmt.Sprintf("%s(%d)", fn.Name(), n)
				}
			}
		}
	}
	visit(body.List)
	return found
}

// positive returns the value of a positive integer constant, else 0.
func positive(info *types.Info, e ast.Expr) int64 {
	if e == nil {
		return 0
	}
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0
	}
	n, ok := constant.Int64Val(tv.Value)
	if !ok || n <= 0 {
		return 0
	}
	return n
}
