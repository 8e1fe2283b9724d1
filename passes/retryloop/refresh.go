package retryloop

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// A retry loop that refreshes credentials (or anything else the next
// attempt sends) before it goes round does not send the same request
// again: a 401 it retries after a refresh is no permanent failure retried.
// What counts is behaviour, never a name: the path after the failure
// assigns something the next attempt reads, calls a method on the retried
// call's receiver, or calls a credential-refresh function of the knowledge
// table.

// inputs returns the variables the next attempt of call reads: those the
// call reads, and, through the loop body, those read by the statements that
// define them or change them by a method call (tok, _ := c.token(ctx,
// force); req.Header.Set("Authorization", tok); c.hc.Do(req): req, tok, c,
// ctx, force). Computed once per call.
func (w *walker) inputs() map[*types.Var]bool {
	m, li := w.m, w.li
	if in, ok := li.refreshV[w.call]; ok {
		return in
	}
	in := map[*types.Var]bool{}
	for v := range w.argV {
		in[v] = true
	}
	// Statements of the body that feed a variable: its definitions, and
	// method calls on it.
	type feed struct {
		v    *types.Var
		node ast.Node
	}
	var feeds []feed
	ast.Inspect(li.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if v := m.x.rootVar(l); v != nil {
					feeds = append(feeds, feed{v, n})
				}
			}
		case *ast.CallExpr:
			if n == w.call {
				return true
			}
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				if v := m.x.rootVar(sel.X); v != nil {
					feeds = append(feeds, feed{v, n})
				}
			}
		}
		return true
	})
	for changed := true; changed; {
		changed = false
		for _, f := range feeds {
			if !in[f.v] || w.errV[f.v] || w.resV[f.v] {
				continue
			}
			ast.Inspect(f.node, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if v, ok := m.info.Uses[id].(*types.Var); ok && !in[v] && !w.errV[v] && !w.resV[v] {
						in[v] = true
						changed = true
					}
				}
				return true
			})
		}
	}
	if li.refreshV == nil {
		li.refreshV = map[*ast.CallExpr]map[*types.Var]bool{}
	}
	li.refreshV[w.call] = in
	return in
}

// refreshes reports whether a statement changes what the next attempt
// sends: it assigns a variable (or a field of one) the next attempt reads,
// calls a method on the retried call's receiver (rc.Refresh(ctx) before
// rc.Check(ctx) again; in a retry
// predicate, a value captured from outside it), or calls a
// credential-refresh function of the knowledge table.
func (w *walker) refreshes(s ast.Node) bool {
	in := w.inputs()
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
			if fn, _ := w.m.callee(n); fn != nil && w.m.rt.CredentialRefresh[analysisutil.Key(fn)] {
				found = true
			}
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				if s, ok := w.m.info.Selections[sel]; ok && s.Kind() == types.MethodVal {
					v := w.m.x.rootVar(sel.X)
					outside := v != nil && !within(v.Pos(), w.L.Stmt) && !w.errV[v] && !w.resV[v]
					switch {
					case !outside:
					case w.predResults > 0:
						// In a predicate the next attempt is out of sight:
						// a value it captures from outside stands for it.
						found = !within(v.Pos(), w.L.Body)
					default:
						// The retried call's own receiver.
						found = w.sameRecv(sel.X)
					}
				}
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if v := w.m.x.rootVar(l); v != nil && in[v] && !w.errV[v] && !w.resV[v] {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// sameRecv reports whether e is the receiver the retried call is made on
// (rc for rc.Check(ctx)).
func (w *walker) sameRecv(e ast.Expr) bool {
	sel, ok := ast.Unparen(w.call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if s, ok := w.m.info.Selections[sel]; !ok || s.Kind() != types.MethodVal {
		return false
	}
	return types.ExprString(ast.Unparen(sel.X)) == types.ExprString(ast.Unparen(e))
}
