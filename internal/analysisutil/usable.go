package analysisutil

import (
	"go/ast"
	"go/token"
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
// context's cancel. Nor after a statement that hands a context to a
// function of the package that waits for one to be done (decl finds the
// declarations of the package's functions; nil: none): a helper that runs
// until its context ends leaves that context spent.
func CtxUsable(info *types.Info, table *knowledge.Table, stack []ast.Node, fn ast.Node, decl func(*types.Func) *ast.FuncDecl) bool {
	if CancelledBefore(info, stack, fn) {
		return false
	}
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
		// After a statement of the same block that waits for a context
		// to be done (<-ctx.Done(), or a loop or select with a case
		// <-ctx.Done() that may have left it).
		for _, st := range StmtList(parent) {
			if st == n {
				break
			}
			if DoneRecv(info, st) || waitsDone(info, st) || handsToWaiter(info, decl, st, 0) {
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

// CancelledBefore reports whether, on the way to the code at the end of
// stack, fn has called the cancel function of one of its own context
// parameters: ctx, cancel := context.WithCancel(ctx) (or WithTimeout,
// WithDeadline) reuses the parameter, and a statement cancel() before the
// code, in its block or an enclosing one, has made that context done. A
// deferred cancel, or one in a branch not taken on the way, does not count.
func CancelledBefore(info *types.Info, stack []ast.Node, fn ast.Node) bool {
	return CancelledBy(info, stack, fn, ParamCancels(info, fn))
}

// CancelledBy is CancelledBefore with fn's ParamCancels computed already
// (by a caller that asks for many calls of one function).
func CancelledBy(info *types.Info, stack []ast.Node, fn ast.Node, cancels map[types.Object]bool) bool {
	if len(cancels) == 0 {
		return false
	}
	for i := len(stack) - 1; i > 0; i-- {
		n := stack[i]
		if n == fn {
			return false
		}
		for _, st := range StmtList(stack[i-1]) {
			if st == n {
				break
			}
			if es, ok := st.(*ast.ExprStmt); ok {
				if call, ok := ast.Unparen(es.X).(*ast.CallExpr); ok && len(call.Args) == 0 {
					if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && cancels[info.Uses[id]] {
						return true
					}
				}
			}
		}
	}
	return false
}

// ParamCancels returns the cancel functions of fn's context parameters:
// the second variables of assignments whose first is such a parameter and
// whose value is a call returning a context and a func().
func ParamCancels(info *types.Info, fn ast.Node) map[types.Object]bool {
	body, ft := funcBody(fn), funcType(fn)
	if ft == nil || body == nil || ft.Params == nil {
		return nil
	}
	params := map[types.Object]bool{}
	for _, field := range ft.Params.List {
		for _, name := range field.Names {
			if v := info.Defs[name]; v != nil && IsContext(v.Type()) {
				params[v] = true
			}
		}
	}
	if len(params) == 0 {
		return nil
	}
	var cancels map[types.Object]bool
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
			return true
		}
		ctxID, ok1 := as.Lhs[0].(*ast.Ident)
		cancelID, ok2 := as.Lhs[1].(*ast.Ident)
		if !ok1 || !ok2 || !params[info.ObjectOf(ctxID)] {
			return true
		}
		c := info.ObjectOf(cancelID)
		if c == nil {
			return true
		}
		sig, ok := c.Type().Underlying().(*types.Signature)
		if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 0 {
			return true
		}
		if cancels == nil {
			cancels = map[types.Object]bool{}
		}
		cancels[c] = true
		return true
	})
	return cancels
}

func funcType(fn ast.Node) *ast.FuncType {
	switch f := fn.(type) {
	case *ast.FuncDecl:
		return f.Type
	case *ast.FuncLit:
		return f.Type
	}
	return nil
}

// waitsDone reports whether a statement holds a receive from a context's
// Done channel outside the function literals it makes: once it has run,
// the context may be done.
func waitsDone(info *types.Info, st ast.Stmt) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && isDoneCall(info, n.X) {
				found = true
			}
		}
		return true
	})
	return found
}

// handsToWaiter reports whether a statement, outside the function literals
// it makes, hands a context to a function of the package whose body waits
// for a context to be done (runUntilDone(ctx)), directly or through such a
// function in turn.
func handsToWaiter(info *types.Info, decl func(*types.Func) *ast.FuncDecl, st ast.Node, depth int) bool {
	if decl == nil || depth > 3 {
		return false
	}
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if !HasContextArg(info, n) {
				return true
			}
			fn, _ := Callee(info, n, nil)
			if fn == nil {
				return true
			}
			d := decl(fn)
			if d == nil || d.Body == nil {
				return true
			}
			for _, s := range d.Body.List {
				if DoneRecv(info, s) || waitsDone(info, s) || handsToWaiter(info, decl, s, depth+1) {
					found = true
					return false
				}
			}
		}
		return true
	})
	return found
}

// HasContextArg reports whether a call is handed a context.Context.
func HasContextArg(info *types.Info, call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if IsContext(info.TypeOf(a)) {
			return true
		}
	}
	return false
}
