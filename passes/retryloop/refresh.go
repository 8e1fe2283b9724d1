package retryloop

import (
	"go/ast"
	"go/types"
	"regexp"
)

// refreshVars returns the variables that a refresh-named call of the loop
// reads (d.token(ctx, sub, forceRefresh)): setting one on a path asks the
// next iteration for fresh credentials. Computed once per loop.
func (m *model) refreshVars(li *loopInfo) map[*types.Var]bool {
	if li.refreshV != nil {
		return li.refreshV
	}
	li.refreshV = map[*types.Var]bool{}
	ast.Inspect(li.body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if fn, _ := m.callee(c); fn != nil && refreshName.MatchString(fn.Name()) {
			for _, a := range c.Args {
				if id, ok := ast.Unparen(a).(*ast.Ident); ok {
					if v, ok := m.info.Uses[id].(*types.Var); ok {
						li.refreshV[v] = true
					}
				}
			}
		}
		return true
	})
	return li.refreshV
}

var refreshName = regexp.MustCompile(`(?i)(refresh|renew|reauth|relogin|login|authenticat|token|credential)`)

// refreshes reports whether a statement refreshes credentials: it calls a
// function named like a refresh, or assigns a variable (or a field of one)
// that the retried call reads.
func (w *walker) refreshes(s ast.Node) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if n == w.call {
				return false
			}
			if fn, _ := w.m.callee(n); fn != nil && refreshName.MatchString(fn.Name()) {
				found = true
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if v := w.m.x.rootVar(l); v != nil && (w.argV[v] || w.m.refreshVars(w.li)[v]) && !w.errV[v] && !w.resV[v] {
					found = true
				}
			}
		}
		return true
	})
	return found
}
