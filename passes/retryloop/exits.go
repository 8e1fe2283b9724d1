package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
	"github.com/resilint/resilint/passes/ctxflow"
)

// eachIf calls f for every if statement of a loop body, not inside nested
// loops or function literals.
func (m *model) eachIf(body *ast.BlockStmt, f func(*ast.IfStmt)) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.IfStmt:
			f(n)
		}
		return true
	})
}

// leaves reports whether a statement list surely leaves the loop L.
// breakLeaves: an unlabelled break in the list breaks L (the list is not
// inside a switch or select of the body).
func (m *model) leaves(list []ast.Stmt, breakLeaves bool, L *Loop, li *loopInfo) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		if c, ok := s.X.(*ast.CallExpr); ok {
			return m.noReturn(c)
		}
	case *ast.BranchStmt:
		switch s.Tok {
		case token.GOTO:
			return true
		case token.BREAK:
			if s.Label == nil {
				return breakLeaves
			}
			return m.outerLabel(s.Label, L, li)
		case token.CONTINUE:
			if s.Label != nil {
				lbl, _ := m.info.Uses[s.Label].(*types.Label)
				return lbl != li.label && m.outerLabel(s.Label, L, li)
			}
		}
	case *ast.BlockStmt:
		return m.leaves(s.List, breakLeaves, L, li)
	case *ast.IfStmt:
		if s.Else == nil {
			return false
		}
		var els []ast.Stmt
		switch e := s.Else.(type) {
		case *ast.BlockStmt:
			els = e.List
		case *ast.IfStmt:
			els = []ast.Stmt{e}
		}
		return m.leaves(s.Body.List, breakLeaves, L, li) && m.leaves(els, breakLeaves, L, li)
	}
	return false
}

// outerLabel reports whether a label names L or a statement enclosing it.
func (m *model) outerLabel(id *ast.Ident, L *Loop, li *loopInfo) bool {
	lbl, _ := m.info.Uses[id].(*types.Label)
	if lbl == nil {
		return false
	}
	if lbl == li.label {
		return true
	}
	// A label declared before the loop encloses it (labels inside the body
	// come after its start).
	return lbl.Pos() < L.Stmt.Pos()
}

// noReturn reports whether a call never returns: panic, os.Exit,
// log.Fatal*, log.Panic*, (*testing.common).Fatal*, runtime.Goexit, a
// function with a NoReturnFact, or a package variable holding one.
func (m *model) noReturn(c *ast.CallExpr) bool {
	if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && id.Name == "panic" {
		if _, ok := m.info.Uses[id].(*types.Builtin); ok {
			return true
		}
	}
	if v := m.pkgVar(c.Fun); v != nil {
		return m.noRetVars[v]
	}
	fn, _ := m.callee(c)
	return fn != nil && m.noReturnFunc(fn)
}

// holdsCall reports whether e contains one of the calls.
func holdsCall(e ast.Node, calls []*ast.CallExpr) bool {
	for _, c := range calls {
		if within(c.Pos(), e) {
			return true
		}
	}
	return false
}

// exits reports whether the loop leaves when a context is done, a deadline
// passes, a done channel receives, or a delay source says stop.
func (m *model) exits(L *Loop, li *loopInfo) bool { return m.exitAt(L, li) != nil }

// exitAt returns where the loop leaves on a context, a deadline or a stop
// signal (the loop condition, the select case, the if statement), or nil.
func (m *model) exitAt(L *Loop, li *loopInfo) ast.Node {
	results := m.callResults(L)
	if fs, ok := L.Stmt.(*ast.ForStmt); ok && fs.Cond != nil && !holdsCall(fs.Cond, L.Retried) {
		if m.deadCtx(fs.Cond) {
			return nil // for ctx.Err() == nil on a context that never ends
		}
		if m.ctxish(fs.Cond) {
			return fs.Cond
		}
		// A loop condition that is neither a constant, nor the outcome of
		// the calls, nor an attempt counter is a stop signal of its own:
		// for b.Ongoing() (a backoff built with ctx and a retry limit),
		// for !stopped.Load().
		if tv, ok := m.info.Types[fs.Cond]; !(ok && tv.Value != nil) &&
			!mentionsAny(m.info, fs.Cond, results) && !m.mentionsCounter(L, fs.Cond) {
			return fs.Cond
		}
	}
	for _, r := range li.receives {
		if r.clause == nil {
			continue
		}
		if k, _ := m.timerOf(r.expr.X); k != 0 && !m.deadlineTimer(L, r.expr.X) {
			continue // a pause, or a timeout started for each attempt
		}
		if m.deadCtx(r.expr.X) {
			continue // <-ctx.Done() of a context.Background(): never ready
		}
		if m.leaves(r.clause.Body, false, L, li) {
			return r.clause
		}
	}
	var found ast.Node
	m.eachIf(L.Body, func(ifs *ast.IfStmt) {
		if found != nil {
			return
		}
		cond := ifs.Cond
		if holdsCall(cond, L.Retried) {
			return // if c.post(ctx) == nil { return }: the outcome, not a stop
		}
		stop := m.ctxish(cond) || (ifs.Init != nil && m.ctxish(ifs.Init)) && m.mentionsInitVar(ifs)
		// A stop signal that does not depend on what the calls of the loop
		// returned: if p.closed() { return }, if stopping.Load() { break }.
		if !stop && ifs.Init == nil && !mentionsAny(m.info, cond, results) && !m.mentionsCounter(L, cond) {
			stop = true
		}
		if m.deadCtx(cond) || ifs.Init != nil && m.deadCtx(ifs.Init) {
			stop = false // if ctx.Err() != nil on a context that never ends
		}
		breakLeaves := !m.inSwitch(L.Body, ifs)
		if stop && m.leaves(ifs.Body.List, breakLeaves, L, li) {
			found = ifs
		}
		// if failed && time.Now().Before(end) { sleep; continue } else
		// { break }: the else branch runs once the deadline has passed.
		if stop && found == nil && ifs.Else != nil && m.ctxish(cond) {
			if els, ok := ifs.Else.(*ast.BlockStmt); ok && m.leaves(els.List, breakLeaves, L, li) {
				found = ifs
			}
		}
	})
	return found
}

// deadlineTimer reports whether a channel a loop receives from is a timer
// started before the loop and never restarted in it (timeout :=
// time.After(d); t := time.NewTimer(d)): a deadline for the whole loop.
func (m *model) deadlineTimer(L *Loop, ch ast.Expr) bool {
	k, made := m.timerOf(ch)
	if (k != knowledge.After && k != knowledge.NewTimer) || made == nil || within(made.Pos(), L.Stmt) {
		return false
	}
	v := m.x.varOf(ch)
	if sel, ok := ast.Unparen(ch).(*ast.SelectorExpr); ok {
		v = m.x.varOf(sel.X)
	}
	if v == nil || m.x.addrTaken[v] {
		return false
	}
	for _, d := range m.x.defs[v] {
		if within(d.pos, L.Stmt) {
			return false
		}
	}
	return m.resetIn(L, ch) == nil
}

// ctxBound returns the argument by which a retried call of the loop is given a context
// that can end, or a request carrying one: not context.Background() or
// TODO(), nor a context the loop makes afresh from one for each attempt.
func (m *model) ctxBound(L *Loop) ast.Node {
	for _, c := range L.Retried {
		for _, a := range append(append([]ast.Expr(nil), c.Args...), m.capturedCtxArgs(c)...) {
			t := m.info.TypeOf(a)
			switch {
			case analysisutil.IsContext(t):
				if m.ctxEnds(L, a, 0) {
					return a
				}
			case analysisutil.TypeKey(t) == "net/http.Request":
				if o := m.m.Request(a); o.State != ctxflow.Free && !o.Detached {
					return a
				}
			}
		}
	}
	return nil
}

// ctxEnds reports whether a context can end while the loop runs: anything
// but context.Background() or TODO(), WithoutCancel, or a context the loop
// derives, for each attempt, from one that cannot end (a timeout per
// attempt ends the attempt, not the loop). A context derived before the
// loop (WithCancel, WithTimeout) can end; so can one of unknown origin (no
// claim that nothing ends it).
func (m *model) ctxEnds(L *Loop, e ast.Expr, depth int) bool {
	if depth > 8 {
		return true
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		row, ok := m.table.Contexts[m.key(x)]
		if !ok {
			return true
		}
		switch {
		case row.Effect == knowledge.Root, row.Effect == knowledge.DropDeadline:
			return false
		case !within(x.Pos(), L.Stmt):
			return true // derived before the loop: cancellable, or a deadline
		case row.Parent >= 0 && row.Parent < len(x.Args):
			return m.ctxEnds(L, x.Args[row.Parent], depth+1)
		}
		return true
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		if !ok || m.x.addrTaken[v] {
			return true
		}
		ds := m.x.defs[v]
		if len(ds) == 0 {
			return true // a parameter: the caller's
		}
		for _, d := range ds {
			c, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
			if !ok {
				return true
			}
			if _, known := m.table.Contexts[m.key(c)]; !known && d.index >= 0 {
				return true
			}
			if m.ctxEnds(L, c, depth+1) {
				return true
			}
		}
		return false
	}
	return true
}

// mentionsCounter reports whether a condition reads an attempt counter of
// the loop (a bound, not a stop signal).
func (m *model) mentionsCounter(L *Loop, cond ast.Expr) bool {
	if L.Counter != nil && m.mentionsVia(L, cond, L.Counter) {
		return true
	}
	for _, c := range m.bodyCounters(L) {
		if m.mentionsVia(L, cond, c.v) {
			return true
		}
	}
	return false
}

// callResults returns the variables the loop body sets from call results.
func (m *model) callResults(L *Loop) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	ast.Inspect(L.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 {
				if _, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
					for _, l := range n.Lhs {
						if v := m.x.varOf(l); v != nil {
							out[v] = true
						}
					}
				}
				if _, ok := ast.Unparen(n.Rhs[0]).(*ast.TypeAssertExpr); ok {
					for _, l := range n.Lhs {
						if v := m.x.varOf(l); v != nil {
							out[v] = true
						}
					}
				}
			}
			for i, r := range n.Rhs {
				if i < len(n.Lhs) && len(n.Lhs) == len(n.Rhs) {
					if v := m.x.varOf(n.Lhs[i]); v != nil && mentionsAny(m.info, r, out) {
						out[v] = true
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Values) == 1 {
				if _, ok := ast.Unparen(n.Values[0]).(*ast.CallExpr); ok {
					for _, id := range n.Names {
						if v, ok := m.info.Defs[id].(*types.Var); ok {
							out[v] = true
						}
					}
				}
			}
		}
		return true
	})
	return out
}

// mentionsAny reports whether e uses one of vars.
func mentionsAny(info *types.Info, e ast.Node, vars map[*types.Var]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && vars[v] {
				found = true
			}
		}
		return !found
	})
	return found
}

// mentionsInitVar reports whether an if statement's condition tests a
// variable its init statement defines (if err := resil.Sleep(...); err != nil).
func (m *model) mentionsInitVar(ifs *ast.IfStmt) bool {
	as, ok := ifs.Init.(*ast.AssignStmt)
	if !ok {
		return false
	}
	for _, l := range as.Lhs {
		if v := m.x.varOf(l); v != nil && analysisutil.Mentions(m.info, ifs.Cond, v) {
			return true
		}
	}
	return false
}

// inSwitch reports whether n sits inside a switch or select of body (where
// an unlabelled break does not leave the loop).
func (m *model) inSwitch(body *ast.BlockStmt, n ast.Node) bool {
	in := false
	ast.Inspect(body, func(x ast.Node) bool {
		if in {
			return false
		}
		switch x := x.(type) {
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			if within(n.Pos(), x) {
				in = true
			}
		case *ast.FuncLit:
			return false
		}
		return true
	})
	return in
}

// deadCtx reports whether e calls a method (Done, Err) of a context that
// never ends: context.Background() or TODO(), directly or through a local
// variable every definition of which is one. A parameter, a derived
// context (WithCancel, WithTimeout) or anything else may end.
func (m *model) deadCtx(e ast.Node) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if _, recv := m.callee(call); recv != nil && analysisutil.IsContext(m.info.TypeOf(recv)) && m.neverEnds(recv) {
				found = true
			}
		}
		return true
	})
	return found
}

// neverEnds reports whether a context expression is context.Background()
// or TODO(), directly or through a local variable defined only by them.
func (m *model) neverEnds(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		row, ok := m.table.Contexts[m.key(x)]
		return ok && row.Effect == knowledge.Root
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		return ok && !m.x.addrTaken[v] && m.rootOnly(v)
	}
	return false
}

// ctxish reports whether an expression watches a context, a deadline, or
// a stop signal: ctx.Err(), ctx.Done(), context.Canceled, the result of a
// context-aware sleep, time.Now/Since/Until and time.Time methods, a delay
// source's Stop.
func (m *model) ctxish(e ast.Node) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			fn, recv := m.callee(n)
			if fn == nil {
				return true
			}
			key := analysisutil.Key(fn)
			switch {
			case recv != nil && analysisutil.IsContext(m.info.TypeOf(recv)):
				found = true
			case m.table.Now[key] || m.table.Elapsed[key]:
				found = true
			case analysisutil.TypeKey(recvType(fn)) == "time.Time":
				found = true
			}
			if row, ok := m.rt.Sleeps[key]; ok && row.Ctx >= 0 {
				found = true
			}
			if sf := m.sleepFact(fn); sf != nil && sf.CtxAware {
				found = true
			}
		case *ast.Ident:
			obj := m.info.Uses[n]
			if v, ok := obj.(*types.Var); ok {
				if k := analysisutil.VarKey(v); m.rt.ContextErrs[k] {
					found = true
				}
				// A variable holding the time left until, or since, a
				// deadline (left := time.Until(end); if left <= 0).
				if m.clockVar(v) {
					found = true
				}
				// A variable holding a context-aware sleep's result.
				for _, d := range m.x.defs[v] {
					if c, ok := ast.Unparen(d.rhs).(*ast.CallExpr); ok {
						if fn, _ := m.callee(c); fn != nil {
							if row, ok := m.rt.Sleeps[analysisutil.Key(fn)]; ok && row.Ctx >= 0 {
								found = true
							}
						}
					}
				}
			}
			if c, ok := obj.(*types.Const); ok && c.Pkg() != nil && m.rt.Stops[c.Pkg().Path()+"."+c.Name()] {
				found = true
			}
		case *ast.SelectorExpr:
			if obj, ok := m.info.Uses[n.Sel]; ok && obj.Pkg() != nil {
				k := obj.Pkg().Path() + "." + obj.Name()
				if m.rt.ContextErrs[k] || m.rt.Stops[k] {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// clockVar reports whether a local variable is given the result of
// time.Until or time.Since (the time left until a deadline, or spent
// since a start): comparing it is checking a deadline.
func (m *model) clockVar(v *types.Var) bool {
	for _, d := range m.x.defs[v] {
		c, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
		if !ok {
			continue
		}
		if fn, _ := m.callee(c); fn != nil {
			if m.table.Elapsed[analysisutil.Key(fn)] {
				return true
			}
		}
	}
	return false
}

// capturedCtxArgs returns, for a call of a local function value defined
// once by a literal (get := func() error { return send(ctx) }; get()), the
// context and request arguments of the literal's calls that are variables
// from outside it: the retried call is the literal's, and what it is handed
// from the enclosing function ends it as if handed directly.
func (m *model) capturedCtxArgs(c *ast.CallExpr) []ast.Expr {
	lit := m.funcLitOf(c.Fun)
	if lit == nil {
		return nil
	}
	var out []ast.Expr
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		for _, a := range call.Args {
			id, ok := ast.Unparen(a).(*ast.Ident)
			if !ok {
				continue
			}
			if v, ok := m.info.Uses[id].(*types.Var); ok && !within(v.Pos(), lit) {
				out = append(out, a)
			}
		}
		return true
	})
	return out
}
