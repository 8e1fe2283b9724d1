package analysisutil

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/knowledge"
)

// CtxUsable reports whether a context that fn owns (the caller's context
// of fn, or a budget fn made at its start) is still a budget at the code
// at the end of stack, so that a fix may hand it to a call there. It is not
// in a deferred call, which runs as fn returns, when the context may be
// cancelled already; nor in a function literal that may run after fn (a
// callback handed to a function the table does not know to run it at
// once: a retry helper, a breaker, a group that is waited for, run-once
// work); nor on a path that runs because a context is done (after
// <-ctx.Done(), in a branch on ctx.Err() or errors.Is(err,
// context.Canceled)). A goroutine's literal counts as running now only when
// the function waits for it (Awaited): one it does not outlives the
// context's cancel.
func CtxUsable(info *types.Info, table *knowledge.Table, stack []ast.Node, fn ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		n := stack[i]
		if n == fn {
			return true
		}
		var parent ast.Node
		if i > 0 {
			parent = stack[i-1]
		}
		switch n := n.(type) {
		case *ast.DeferStmt:
			return false
		case *ast.FuncLit:
			if !runsNow(info, table, n, stack[:i]) {
				return false
			}
		case *ast.CommClause:
			if n.Comm != nil && DoneRecv(info, n.Comm) && i+1 < len(stack) && stack[i+1] != ast.Node(n.Comm) {
				return false // case <-ctx.Done(): ...
			}
		case *ast.IfStmt:
			if i+1 < len(stack) && stack[i+1] != ast.Node(n.Cond) && stack[i+1] != ast.Node(n.Init) && doneTest(info, table, n.Cond) {
				return false
			}
		}
		// After a <-ctx.Done() statement of the same block.
		var list []ast.Stmt
		switch p := parent.(type) {
		case *ast.BlockStmt:
			list = p.List
		case *ast.CaseClause:
			list = p.Body
		case *ast.CommClause:
			list = p.Body
		}
		for _, st := range list {
			if st == n {
				break
			}
			if DoneRecv(info, st) {
				return false
			}
		}
	}
	return false
}

// runsNow reports whether a function literal runs while the function
// around it runs: called at once, started by a go statement, or handed to
// a function that runs it before it returns or that the function waits for
// (the table's retry helpers, breakers, launchers, run-once work).
func runsNow(info *types.Info, table *knowledge.Table, lit *ast.FuncLit, stack []ast.Node) bool {
	if len(stack) == 0 {
		return false
	}
	call, ok := stack[len(stack)-1].(*ast.CallExpr)
	if !ok {
		return false
	}
	if call.Fun == ast.Expr(lit) {
		if len(stack) >= 2 {
			if _, deferred := stack[len(stack)-2].(*ast.DeferStmt); deferred {
				return false
			}
		}
		if g := GoOf(lit, stack); g != nil {
			// A goroutine runs on the function's budget only while the
			// function waits for it.
			return Awaited(info, table, g, EnclosingFunc(stack), nil)
		}
		return true
	}
	fn, _ := Callee(info, call, nil)
	if fn == nil {
		return false
	}
	key := Key(fn)
	if _, ok := table.Retry.Helpers[key]; ok {
		return true
	}
	if _, ok := table.Breakers.Guards[key]; ok {
		return true
	}
	if _, ok := table.Bounds.Launchers[key]; ok {
		return true
	}
	return table.SharedWork[key] || table.Bounds.Bounded[key]
}

// doneTest reports whether a condition tests that a context is done:
// ctx.Err() != nil, errors.Is(err, context.Canceled), context.Cause(ctx).
func doneTest(info *types.Info, table *knowledge.Table, cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if fn, _ := Callee(info, n, nil); fn != nil && table.DoneSignals[Key(fn)] {
				found = true
			}
		case *ast.Ident:
			if v, ok := info.Uses[n].(*types.Var); ok && table.DoneSignals[VarKey(v)] {
				found = true
			}
		}
		return !found
	})
	return found
}
