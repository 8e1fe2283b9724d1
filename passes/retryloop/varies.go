package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// varies reports whether the call's inputs change from one iteration to
// the next: they read the element or index iterated, an item taken from a
// stream, or (when own) a variable the loop sets from what the call
// returned.
func (m *model) varies(L *Loop, li *loopInfo, call *ast.CallExpr, own bool) bool {
	w := m.newWalker(L, li, call, assume{}, false)
	results := map[*types.Var]bool{}
	if own {
		for v := range w.errV {
			results[v] = true
		}
		for v := range w.resV {
			results[v] = true
		}
	}
	memo := map[*types.Var]bool{}
	if !own {
		// What the call returned, and whatever the loop computes from it,
		// does not count.
		for v := range w.errV {
			memo[v] = false
		}
		for v := range w.resV {
			memo[v] = false
		}
	}
	var varying func(v *types.Var, depth int) bool
	var exprVaries func(e ast.Node, depth int) bool
	exprVaries = func(e ast.Node, depth int) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if found {
				return false
			}
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := m.info.Uses[id].(*types.Var); ok && varying(v, depth+1) {
					found = true
				}
			}
			return true
		})
		return found
	}
	varying = func(v *types.Var, depth int) bool {
		if r, ok := memo[v]; ok {
			return r
		}
		if depth > 12 {
			return false
		}
		// Cycles: a variable declared before the loop and computed from its
		// own previous value changes from one iteration to the next.
		memo[v] = !within(v.Pos(), L.Stmt) && !results[v]
		r := false
		switch {
		case results[v]:
			r = true
		case v == L.Counter:
			r = true
		case m.rangeVar(L, v):
			r = true
		case within(v.Pos(), L.Stmt):
			// Declared in the loop: varies if a definition does.
			for _, d := range m.x.defs[v] {
				if !within(d.pos, L.Stmt) {
					continue
				}
				if d.rng != nil && d.rng != L.Stmt {
					// An inner loop's element: another operation each
					// time, unless a failure restarts the outer loop
					// (continue outer), which tries the element again.
					if !m.continuesTo(d.rng, li.label) || m.readsIteration(L, d.rng.X) {
						r = true
						break
					}
					continue
				}
				if d.rhs != nil && (m.takesNext(L, d.rhs) || exprVaries(d.rhs, depth)) {
					r = true
					break
				}
			}
		default:
			// Declared outside: varies if the loop sets it from something
			// that varies (a page token), or steps it.
			for _, d := range m.x.defs[v] {
				if !within(d.pos, L.Stmt) {
					continue
				}
				if d.op == token.INC || d.op == token.DEC || d.rng != nil {
					r = true
					break
				}
				if d.rhs != nil && (d.rhs == call || within(call.Pos(), d.rhs)) {
					continue // the call's own result
				}
				if d.rhs != nil && (m.takesNext(L, d.rhs) || exprVaries(d.rhs, depth)) {
					r = true
					break
				}
			}
		}
		memo[v] = r
		return r
	}
	if m.callbackCall(L, call) {
		// A helper handing its operation the attempt number
		// (f(ctx, attempt)) repeats the same operation.
		for _, a := range call.Args {
			if !m.attemptNumber(L, a) && exprVaries(a, 0) {
				return true
			}
		}
		return false
	}
	return exprVaries(call, 0)
}

// takesNext reports whether an expression evaluated in the loop takes the
// next item of a stream: a channel receive, a call taking the next message
// of a queue or subscription (knowledge rows), a function of the package
// that returns what it receives from a channel, or a method of a value the
// loop's condition advances (for sc.Scan() { line := sc.Text() }). Each
// iteration then works on another item: a consumer, which moves on after a
// failure, not a retry.
func (m *model) takesNext(L *Loop, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		return x.Op == token.ARROW
	case *ast.CallExpr:
		fn, recv := m.callee(x)
		if fn == nil {
			return false
		}
		if m.table.Bounds.MessageSources[analysisutil.Key(fn)] {
			return true
		}
		if recv != nil && m.advanced(L, recv) {
			return true
		}
		return m.receives(fn)
	}
	return false
}

// advanced reports whether the loop's condition calls a method on the
// variable recv is (for sc.Scan(), for rows.Next(), for it.Next(ctx)).
func (m *model) advanced(L *Loop, recv ast.Expr) bool {
	fs, ok := L.Stmt.(*ast.ForStmt)
	v := m.x.rootVar(recv)
	if !ok || fs.Cond == nil || v == nil {
		return false
	}
	found := false
	ast.Inspect(fs.Cond, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && !found {
			if _, r := m.callee(c); r != nil && m.x.rootVar(r) == v {
				found = true
			}
		}
		return !found
	})
	return found
}

// receives reports whether a function of the package returns what it
// receives from a channel: every return statement of its body returns a
// receive, directly or through a variable its body defines by one
// (return <-q.ch; ev := <-q.ch; return ev).
func (m *model) receives(fn *types.Func) bool {
	decl := m.x.decls[fn.Origin()]
	if decl == nil || decl.Body == nil || fn.Pkg() != m.pass.Pkg {
		return false
	}
	recvd := func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			return true
		}
		v := m.x.varOf(e)
		if v == nil || !within(v.Pos(), decl.Body) || len(m.x.defs[v]) == 0 {
			return false
		}
		for _, d := range m.x.defs[v] {
			if u, ok := ast.Unparen(d.rhs).(*ast.UnaryExpr); !ok || u.Op != token.ARROW {
				return false
			}
		}
		return true
	}
	n, all := 0, true
	ast.Inspect(decl.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			n++
			if len(x.Results) == 0 || !recvd(x.Results[0]) {
				all = false
			}
		}
		return all
	})
	return n > 0 && all
}

// callbackCall reports whether call calls a parameter of function type of
// the loop's declaration: a retry helper's operation.
func (m *model) callbackCall(L *Loop, call *ast.CallExpr) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || L.Decl == nil {
		return false
	}
	v, ok := m.info.Uses[id].(*types.Var)
	if !ok || m.paramIndex(L.Decl, v) < 0 {
		return false
	}
	_, ok = types.Unalias(v.Type()).Underlying().(*types.Signature)
	return ok
}

// attemptNumber reports whether e is the loop's attempt counter, maybe
// converted or offset by a constant (attempt, attempt+1, uint(attempt)).
func (m *model) attemptNumber(L *Loop, e ast.Expr) bool {
	if L.Counter == nil {
		return false
	}
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return m.info.Uses[x] == L.Counter
		case *ast.BinaryExpr:
			if x.Op != token.ADD && x.Op != token.SUB {
				return false
			}
			switch {
			case m.info.Types[x.Y].Value != nil:
				e = x.X
			case x.Op == token.ADD && m.info.Types[x.X].Value != nil:
				e = x.Y
			default:
				return false
			}
		case *ast.CallExpr:
			if len(x.Args) != 1 || !m.info.Types[x.Fun].IsType() {
				return false
			}
			e = x.Args[0]
		default:
			return false
		}
	}
}

// readsIteration reports whether e reads the loop's counter or the element
// it ranges over (for _, shard := range shards { for x := range shard.items:
// each round is another shard, not a retry).
func (m *model) readsIteration(L *Loop, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := m.info.Uses[id].(*types.Var); ok && (v == L.Counter || m.rangeVar(L, v)) {
				found = true
			}
		}
		return !found
	})
	return found
}

// onEvent reports whether the call runs in a select case that received a
// value from a channel other than a timer or a context's Done (case
// <-c.doReset:): each iteration handles a new event, an event loop, not a
// retry of the call.
func (m *model) onEvent(li *loopInfo, call *ast.CallExpr) bool {
	for _, r := range li.receives {
		if r.clause == nil || r.clause.Comm == nil || !within(call.Pos(), r.clause) || within(call.Pos(), r.clause.Comm) {
			continue
		}
		if k, _ := m.timerOf(r.expr.X); k != 0 {
			continue
		}
		if analysisutil.DoneRecv(m.info, r.clause.Comm) {
			continue
		}
		return true
	}
	return false
}

// continuesTo reports whether an inner loop holds a continue to the label
// of the loop (continue outer), outside function literals.
func (m *model) continuesTo(inner ast.Node, lbl *types.Label) bool {
	if lbl == nil {
		return false
	}
	found := false
	ast.Inspect(inner, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			if n.Tok == token.CONTINUE && n.Label != nil && m.info.Uses[n.Label] == lbl {
				found = true
			}
		}
		return !found
	})
	return found
}

// rangeVar reports whether v is the key or value of a range loop L over a
// collection.
func (m *model) rangeVar(L *Loop, v *types.Var) bool {
	rs, ok := L.Stmt.(*ast.RangeStmt)
	if !ok {
		return false
	}
	return m.x.varOf(rs.Key) == v || m.x.varOf(rs.Value) == v
}
