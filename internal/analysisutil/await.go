package analysisutil

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/knowledge"
)

// Awaited reports whether the function fn waits, after the go statement g,
// for the goroutine it starts: it calls a Waits row on a variable the
// goroutine also uses (wg.Wait() with defer wg.Done()), or receives from a
// channel the goroutine sends on or closes. callee resolves a call (nil:
// Callee without local definitions).
func Awaited(info *types.Info, table *knowledge.Table, g *ast.GoStmt, fn ast.Node, callee func(*ast.CallExpr) (*types.Func, ast.Expr)) bool {
	if callee == nil {
		callee = func(call *ast.CallExpr) (*types.Func, ast.Expr) { return Callee(info, call, nil) }
	}
	used := map[*types.Var]bool{}
	ast.Inspect(g.Call, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok {
				used[v] = true
			}
		}
		return true
	})
	varOf := func(e ast.Expr) *types.Var {
		for {
			switch x := ast.Unparen(e).(type) {
			case *ast.Ident:
				v, _ := info.Uses[x].(*types.Var)
				return v
			case *ast.SelectorExpr:
				if f := FieldOf(info, x); f != nil {
					return f
				}
				return nil
			case *ast.UnaryExpr:
				e = x.X
			default:
				return nil
			}
		}
	}
	body := funcBody(fn)
	if body == nil {
		return false
	}
	// Fields the goroutine uses (s.wg.Done()) count through their field.
	ast.Inspect(g.Call, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if f := FieldOf(info, sel); f != nil {
				used[f] = true
			}
		}
		return true
	})
	// A receive in a select that may leave by another case (<-ctx.Done(),
	// a timer, a default) may abandon the goroutine: it is no wait for it.
	abandonable := map[ast.Expr]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectStmt)
		if !ok {
			return true
		}
		var recvs []ast.Expr
		sure := true
		for _, cl := range sel.Body.List {
			cc, ok := cl.(*ast.CommClause)
			if !ok {
				continue
			}
			x := commRecv(cc.Comm)
			if x == nil {
				sure = false // a default, or a send
				continue
			}
			recvs = append(recvs, x)
			if v := varOf(x.X); v == nil || !used[v] {
				sure = false
			}
		}
		if !sure {
			for _, x := range recvs {
				abandonable[x] = true
			}
		}
		return true
	})
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if n.Pos() < g.End() {
			return n.End() > g.End() // only what comes after the go statement
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			fn, recv := callee(n)
			if fn != nil && recv != nil && table.Bounds.Waits[Key(fn)] {
				if v := varOf(recv); v != nil && used[v] {
					found = true
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && !abandonable[n] {
				if v := varOf(n.X); v != nil && used[v] {
					found = true
				}
			}
		case *ast.RangeStmt:
			if v := varOf(n.X); v != nil && used[v] {
				if _, isChan := info.TypeOf(n.X).Underlying().(*types.Chan); isChan {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// GroupAwaited reports whether call starts a goroutine through a launcher
// of the table (g.Go(f) of an errgroup, a sync.WaitGroup, a conc pool) on
// a group that fn waits for after the call (g.Wait()): the goroutine does
// not outlive fn.
func GroupAwaited(info *types.Info, table *knowledge.Table, call *ast.CallExpr, fn ast.Node, callee func(*ast.CallExpr) (*types.Func, ast.Expr)) bool {
	if callee == nil {
		callee = func(c *ast.CallExpr) (*types.Func, ast.Expr) { return Callee(info, c, nil) }
	}
	f, recv := callee(call)
	if f == nil || recv == nil {
		return false
	}
	if _, ok := table.Bounds.Launchers[Key(f)]; !ok {
		return false
	}
	id, ok := ast.Unparen(recv).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	body := funcBody(fn)
	if !ok || body == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if _, isLit := n.(*ast.FuncLit); isLit {
			return false
		}
		c, ok := n.(*ast.CallExpr)
		if !ok || c.Pos() < call.End() {
			return true
		}
		wf, wrecv := callee(c)
		if wf != nil && wrecv != nil && table.Bounds.Waits[Key(wf)] {
			if wid, ok := ast.Unparen(wrecv).(*ast.Ident); ok && info.Uses[wid] == v {
				found = true
			}
		}
		return true
	})
	return found
}

// commRecv returns the receive of a select case's communication (<-ch,
// v := <-ch, v, ok = <-ch), or nil (a send, or default).
func commRecv(comm ast.Stmt) *ast.UnaryExpr {
	var e ast.Expr
	switch c := comm.(type) {
	case *ast.ExprStmt:
		e = c.X
	case *ast.AssignStmt:
		if len(c.Rhs) == 1 {
			e = c.Rhs[0]
		}
	}
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return nil
	}
	return u
}

// GoOf returns the go statement that starts lit (go func() { ... }()),
// given lit's ancestors, or nil.
func GoOf(lit *ast.FuncLit, stack []ast.Node) *ast.GoStmt {
	if len(stack) < 2 {
		return nil
	}
	call, ok := stack[len(stack)-1].(*ast.CallExpr)
	if !ok || call.Fun != ast.Expr(lit) {
		return nil
	}
	g, ok := stack[len(stack)-2].(*ast.GoStmt)
	if !ok || g.Call != call {
		return nil
	}
	return g
}

// EnclosingFunc returns the innermost function declaration or literal of
// stack, or nil.
func EnclosingFunc(stack []ast.Node) ast.Node {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return stack[i]
		}
	}
	return nil
}
