package ctxflow

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// linked reports whether the context that call derives (WithCancel and
// the like: row Cancel is the index of its cancel function) is cancelled
// once a context that is not deadline-free — the caller's, a field's,
// one of unknown origin — is done: its cancel function is called
//
//   - in a statement after <-x.Done(), or in a select case <-x.Done(),
//     in the same function body;
//   - deferred in a function body that waits on <-x.Done() with no return
//     before the wait (go func() { defer cancel(); <-ctx.Done(); ... }());
//   - by context.AfterFunc(x, ...) (knowledge AfterDone), directly or in
//     the function literal it is given.
//
// Such a context carries x's cancellation, delayed on purpose (a client's
// lifetime that lasts until it has unregistered): it is not a fresh root,
// and its origin is x's, which the model does not claim to know.
func (m *Model) linked(call *ast.CallExpr, cancelIndex int, seen map[*types.Var]bool, depth int) bool {
	cancel := m.resultVar(call, cancelIndex)
	if cancel == nil || m.addrTaken[cancel] || !m.local(cancel) {
		return false
	}
	body := m.enclosingBody(call)
	if body == nil {
		return false
	}
	// carries: x is a context whose Done the link waits on and that is
	// not deadline-free (nor the context being evaluated: a cycle).
	carries := func(x ast.Expr) bool {
		v := m.ctx(x, seen, depth+1)
		return !v.bottom && v.State != Free
	}
	isCancel := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && m.info.Uses[id] == cancel
	}
	found := false
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		stack = append(stack, n)
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if fn, _ := m.Callee(c); fn != nil {
			if idx, ok := m.Table.AfterDone[analysisutil.Key(fn)]; ok && idx[0] < len(c.Args) && idx[1] < len(c.Args) {
				f := ast.Unparen(c.Args[idx[1]])
				if lit, ok := f.(*ast.FuncLit); (isCancel(f) || ok && callsVar(m.info, lit.Body, cancel)) && carries(c.Args[idx[0]]) {
					found = true
					return false
				}
			}
		}
		if isCancel(c.Fun) && m.afterDoneOf(stack, carries) {
			found = true
			return false
		}
		return true
	})
	return found
}

// afterDoneOf reports whether the call at the top of stack runs in a
// goroutine (a go statement's function literal, or one handed to a
// launcher: errgroup's Go) once a context x with carries(x) is done:
// after a statement <-x.Done() in an enclosing statement list, in a case
// <-x.Done() of a select, or deferred in the goroutine's body that reaches
// <-x.Done() with no return before it. Run by the goroutine that makes the
// call, a cancel after the wait would never come while the call blocks.
func (m *Model) afterDoneOf(stack []ast.Node, carries func(ast.Expr) bool) bool {
	deferred, after := false, false
	for i := len(stack) - 1; i > 0; i-- {
		node, parent := stack[i], stack[i-1]
		switch n := node.(type) {
		case *ast.DeferStmt:
			deferred = true
		case *ast.FuncLit:
			return after && m.concurrent(n, stack[:i])
		}
		var list []ast.Stmt
		switch p := parent.(type) {
		case *ast.BlockStmt:
			list = p.List
			if i >= 2 && deferred && isLit(stack[i-2]) && m.waitsFirst(p.List, carries) {
				after = true
			}
			if false && m.waitsFirst(p.List, carries) {
				after = true
			}
		case *ast.CaseClause:
			list = p.Body
		case *ast.CommClause:
			if p.Comm != nil && node != ast.Node(p.Comm) && m.doneOf(p.Comm, carries) {
				after = true
			}
			list = p.Body
		}
		for _, st := range list {
			if st == node {
				break
			}
			if m.doneOf(st, carries) {
				after = true
			}
		}
	}
	return false
}

// concurrent reports whether the function literal lit, under the nodes of
// outer, runs in a goroutine of its own: go func() { ... }(), or a
// launcher's function argument (errgroup's Go).
func (m *Model) concurrent(lit *ast.FuncLit, outer []ast.Node) bool {
	if len(outer) == 0 {
		return false
	}
	call, ok := outer[len(outer)-1].(*ast.CallExpr)
	if !ok {
		return false
	}
	if call.Fun == ast.Expr(lit) {
		if len(outer) >= 2 {
			g, ok := outer[len(outer)-2].(*ast.GoStmt)
			return ok && g.Call == call
		}
		return false
	}
	fn, _ := m.Callee(call)
	if fn == nil {
		return false
	}
	l, ok := m.Table.Bounds.Launchers[analysisutil.Key(fn)]
	return ok && l.Fn < len(call.Args) && ast.Unparen(call.Args[l.Fn]) == ast.Expr(lit)
}

// waitsFirst reports whether a function body reaches a statement
// <-x.Done() with carries(x), among its top-level statements, before any
// return (at any depth).
func (m *Model) waitsFirst(list []ast.Stmt, carries func(ast.Expr) bool) bool {
	for _, st := range list {
		if m.doneOf(st, carries) {
			return true
		}
		if analysisutil.Returns(st) {
			return false
		}
	}
	return false
}

// doneOf reports whether st is <-x.Done() (alone or assigned) with
// carries(x).
func (m *Model) doneOf(st ast.Stmt, carries func(ast.Expr) bool) bool {
	if !analysisutil.DoneRecv(m.info, st) {
		return false
	}
	var e ast.Expr
	switch st := st.(type) {
	case *ast.ExprStmt:
		e = st.X
	case *ast.AssignStmt:
		e = st.Rhs[0]
	}
	call := ast.Unparen(ast.Unparen(e).(*ast.UnaryExpr).X).(*ast.CallExpr)
	return carries(ast.Unparen(call.Fun).(*ast.SelectorExpr).X)
}

// callsVar reports whether body calls the function variable v.
func callsVar(info *types.Info, body ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && info.Uses[id] == v {
				found = true
			}
		}
		return !found
	})
	return found
}

// resultVar returns the variable that receives result index of call
// (ctx, cancel := context.WithCancel(...)).
func (m *Model) resultVar(call *ast.CallExpr, index int) *types.Var {
	return m.results[call][index]
}

// enclosingBody returns the body of the outermost function declaration
// (or package-level function literal) that holds pos's call.
func (m *Model) enclosingBody(call *ast.CallExpr) *ast.BlockStmt {
	for _, f := range m.Pass.Files {
		if f.Pos() > call.Pos() || call.End() > f.End() {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Pos() <= call.Pos() && call.End() <= fd.End() {
				return fd.Body
			}
		}
	}
	return nil
}

func isLit(n ast.Node) bool {
	_, ok := n.(*ast.FuncLit)
	return ok
}

// cancelKept reports whether the cancel function of the context call
// derives (result cancelIndex) is kept beyond the function for someone
// else to call: assigned to a field, a map or slice element or a
// package-level variable, or a local that is stored, returned, sent or
// handed to a call (c.subs[id] = &sub{cancel: cancel}). The context then
// ends when its owner stops it (an Unsubscribe, a Stop): its lifetime is
// managed out of sight, not deadline-free (issue 13: unknown is silent).
func (m *Model) cancelKept(call *ast.CallExpr, cancelIndex int) bool {
	body := m.enclosingBody(call)
	if body == nil {
		return false
	}
	var lhs ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		if lhs != nil {
			return false
		}
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == call && cancelIndex < len(as.Lhs) {
			lhs = as.Lhs[cancelIndex]
		}
		return true
	})
	if lhs == nil {
		return false
	}
	switch x := ast.Unparen(lhs).(type) {
	case *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
		return true // a field, an element, a pointer's target
	case *ast.Ident:
		v, ok := m.info.ObjectOf(x).(*types.Var)
		if !ok || x.Name == "_" {
			return false
		}
		if v.Parent() == v.Pkg().Scope() {
			return true // a package-level variable
		}
		kept := false
		var stack []ast.Node
		ast.Inspect(body, func(n ast.Node) bool {
			if kept {
				return false
			}
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			id, ok := n.(*ast.Ident)
			if !ok || id == x || m.info.Uses[id] != v {
				return true
			}
			parent := stack[len(stack)-2]
			if c, ok := parent.(*ast.CallExpr); ok && ast.Unparen(c.Fun) == ast.Expr(id) {
				return true // cancel(), defer cancel(), go cancel()
			}
			if as, ok := parent.(*ast.AssignStmt); ok {
				for _, l := range as.Lhs {
					if l == ast.Expr(id) {
						return true // reassigned, not kept
					}
				}
			}
			kept = true
			return false
		})
		return kept
	}
	return false
}
