package detachedctx

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/ctxflow"
)

// deliberate reports whether the node at the top of stack, inside the
// function fn that has the caller's context, runs where a fresh context is
// deliberate (issue 13, rule 6):
//
//   - cleanup on the way out: in a deferred call or a deferred function
//     literal, or in a branch taken on a failure or a cancellation
//     (if err != nil { ...; return err }, or a case err != nil of a
//     tagless switch) that leaves the path;
//   - work that runs later: a function literal handed to a function that
//     keeps it to run after the caller has returned (time.AfterFunc,
//     context.AfterFunc, knowledge rows RunsLater; or a function of this
//     package that stores its function parameter: a registered callback);
//   - a goroutine the function starts and does not wait for: it outlives
//     the caller;
//   - cleanup that runs whatever work on the caller's context gave, before
//     that work's failure is handled (err := op(ctx); cleanup(fresh);
//     return err): the work may have failed because the caller's context
//     is done, and the cleanup must run then too.
func (c *checker) deliberate(stack []ast.Node, fn ast.Node) bool {
	for i := len(stack) - 1; i >= 1; i-- {
		n, parent := stack[i], stack[i-1]
		if n == fn {
			return false
		}
		switch p := parent.(type) {
		case *ast.DeferStmt:
			return true
		case *ast.BlockStmt:
			if c.pendingFailure(p.List, n) {
				return true
			}
		case *ast.IfStmt:
			// The failure branch of an if that leaves, or whose else is
			// the work (if err != nil { fail(fresh) } else { work(ctx) }):
			// either way it handles the failure, not the work.
			if n == ast.Node(p.Body) && c.failure(p.Cond, true) && (c.leaves(p.Body) || p.Else != nil) {
				return true
			}
			if n == p.Else && c.failure(p.Cond, false) {
				if b, ok := p.Else.(*ast.BlockStmt); ok && c.leaves(b) {
					return true
				}
			}
		case *ast.CaseClause:
			// switch { case err != nil: ...; return err }: the if above,
			// written as a tagless switch.
			if i >= 3 && len(p.List) > 0 && c.leaves(&ast.BlockStmt{List: p.Body}) {
				if sw, ok := stack[i-3].(*ast.SwitchStmt); ok && sw.Tag == nil && c.allFailures(p.List) {
					return true
				}
			}
		case *ast.CallExpr:
			lit, ok := n.(*ast.FuncLit)
			if !ok {
				break
			}
			if p.Fun == ast.Expr(lit) {
				// go func() { ... }(): a goroutine the function does not
				// wait for outlives the caller.
				if i >= 2 {
					if g, ok := stack[i-2].(*ast.GoStmt); ok && g.Call == p && !analysisutil.Awaited(c.pass.TypesInfo, c.table, g, fn, c.m.Callee) {
						return true
					}
				}
				break
			}
			if c.launches(p, lit) {
				// g.Go(func() { ... }): like a go statement, the
				// goroutine outlives the caller unless the function
				// waits for its group.
				if !analysisutil.GroupAwaited(c.pass.TypesInfo, c.table, p, fn, c.m.Callee) {
					return true
				}
				break
			}
			if c.runsLater(p, lit) {
				return true
			}
		}
	}
	return false
}

// failure reports whether cond holds on a failure or a cancellation (when
// want) or on success (when !want): err != nil, ctx.Err() != nil,
// errors.Is(err, ...), possibly and-ed with more conditions; err == nil
// for !want.
func (c *checker) failure(cond ast.Expr, want bool) bool {
	switch x := ast.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND:
			return want && (c.failure(x.X, true) || c.failure(x.Y, true))
		case token.NEQ, token.EQL:
			if (x.Op == token.NEQ) != want {
				return false
			}
			return c.isNil(x.Y) && c.isError(x.X) || c.isNil(x.X) && c.isError(x.Y)
		}
	case *ast.CallExpr:
		if !want {
			return false
		}
		fn, _ := c.m.Callee(x)
		return fn != nil && c.table.ErrorMatches[analysisutil.Key(fn)]
	}
	return false
}

// allFailures reports whether every expression of a case list holds only
// on a failure or a cancellation.
func (c *checker) allFailures(list []ast.Expr) bool {
	for _, e := range list {
		if !c.failure(e, true) {
			return false
		}
	}
	return true
}

func (c *checker) isNil(e ast.Expr) bool {
	return c.pass.TypesInfo.Types[e].IsNil()
}

func (c *checker) isError(e ast.Expr) bool {
	t := c.pass.TypesInfo.TypeOf(e)
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

// leaves reports whether a block ends by leaving the path it is on: a
// return, a break, continue or goto, or a panic.
func (c *checker) leaves(b *ast.BlockStmt) bool {
	if b == nil || len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
				if b, ok := c.pass.TypesInfo.Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
					return true
				}
			}
		}
	}
	return false
}

// launches reports whether call starts lit in a goroutine through a
// launcher of the table (an errgroup's, a sync.WaitGroup's or a conc
// pool's Go).
func (c *checker) launches(call *ast.CallExpr, lit *ast.FuncLit) bool {
	fn, _ := c.m.Callee(call)
	if fn == nil {
		return false
	}
	l, ok := c.table.Bounds.Launchers[analysisutil.Key(fn)]
	return ok && l.Fn < len(call.Args) && call.Args[l.Fn] == ast.Expr(lit)
}

// runsLater reports whether call keeps the function literal lit to run
// after the caller has returned: a RunsLater row, or a function of any
// package of the build that stores its parameter (in a field, a map, a
// slice, a package-level variable, or sends it on a channel), runs it in a
// goroutine it starts, or hands it on to one that does (ctxflow.LaterFact).
func (c *checker) runsLater(call *ast.CallExpr, lit *ast.FuncLit) bool {
	fn, _ := c.m.Callee(call)
	if fn == nil {
		return false
	}
	idx := -1
	for i, a := range call.Args {
		if a == ast.Expr(lit) {
			idx = i
		}
	}
	if idx < 0 {
		return false
	}
	if i, ok := c.table.RunsLater[analysisutil.Key(fn)]; ok {
		return i == idx
	}
	return c.m.RunsLater(fn, idx)
}

func isBuiltin(info *types.Info, id *ast.Ident, name string) bool {
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// endsOnDone reports whether a statement is left for the next one only when
// a context is done: a loop whose condition requires ctx.Err() == nil, or
// whose every break out of it is in a select case <-ctx.Done() (and there
// is one); a select with a case <-ctx.Done() whose every other case (and
// default) ends in a statement that leaves the select elsewhere.
func (c *checker) endsOnDone(st ast.Stmt) bool {
	var label *ast.Ident
	if l, ok := st.(*ast.LabeledStmt); ok {
		label, st = l.Label, l.Stmt
	}
	if sel, ok := st.(*ast.SelectStmt); ok {
		return c.selectEndsOnDone(sel)
	}
	loop, ok := st.(*ast.ForStmt)
	if !ok {
		return false
	}
	if loop.Cond != nil && c.ctxAlive(loop.Cond) {
		return true
	}
	if loop.Cond != nil {
		return false
	}
	breaks, onDone := 0, 0
	c.countBreaks(loop.Body, label, false, false, &breaks, &onDone)
	return breaks > 0 && breaks == onDone
}

// selectEndsOnDone reports whether the statement after sel is reached only
// through a case <-ctx.Done(): there is one, and every other clause ends in
// a return, a panic, a continue or goto, or a labelled break (of an
// enclosing statement), and has no unlabelled break, which would leave the
// select for the next statement.
func (c *checker) selectEndsOnDone(sel *ast.SelectStmt) bool {
	done := false
	for _, cl := range sel.Body.List {
		cc, ok := cl.(*ast.CommClause)
		if !ok {
			return false
		}
		if cc.Comm != nil && analysisutil.DoneRecv(c.pass.TypesInfo, cc.Comm) {
			done = true
			continue
		}
		if !c.leaves(&ast.BlockStmt{List: cc.Body}) {
			return false
		}
		breaks, onDone := 0, 0
		for _, b := range cc.Body {
			c.countBreaks(b, nil, false, false, &breaks, &onDone)
			if br, ok := b.(*ast.BranchStmt); ok {
				c.countBranch(br, nil, false, false, &breaks, &onDone)
			}
		}
		if breaks > 0 {
			return false
		}
	}
	return done
}

// countBreaks counts the break statements under n that leave the loop
// (labelled with label, or unlabelled and not nested in another breakable
// statement), and those of them in a select case <-ctx.Done().
func (c *checker) countBreaks(n ast.Node, label *ast.Ident, inDone, nested bool, breaks, onDone *int) {
	ast.Inspect(n, func(x ast.Node) bool {
		if x == nil || x == n {
			return true
		}
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			if x.Tok == token.BREAK && (x.Label != nil && label != nil && x.Label.Name == label.Name || x.Label == nil && !nested) {
				*breaks++
				if inDone {
					*onDone++
				}
			}
		case *ast.IfStmt:
			if c.failsOnCtx(x.Cond) {
				// if err := beat(ctx); err != nil { break }: the loop
				// ends when work on a context fails, which it does once
				// that context is done.
				c.countBreaks(x.Body, label, true, nested, breaks, onDone)
				if x.Else != nil {
					c.countBreaks(&ast.BlockStmt{List: []ast.Stmt{x.Else}}, label, inDone, nested, breaks, onDone)
				}
				return false
			}
		case *ast.CommClause:
			done := inDone || x.Comm != nil && analysisutil.DoneRecv(c.pass.TypesInfo, x.Comm)
			for _, b := range x.Body {
				c.countBreaks(b, label, done, true, breaks, onDone)
				if br, ok := b.(*ast.BranchStmt); ok {
					c.countBranch(br, label, done, true, breaks, onDone)
				}
			}
			return false
		case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			c.countBreaks(x, label, inDone, true, breaks, onDone)
			return false
		}
		return true
	})
}

// failsOnCtx reports whether cond is err != nil (or nil != err) for an
// error variable every definition of which is a result of a call handed a
// context.
func (c *checker) failsOnCtx(cond ast.Expr) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ {
		return false
	}
	info := c.pass.TypesInfo
	for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		id, ok := ast.Unparen(pair[0]).(*ast.Ident)
		if !ok || !analysisutil.IsNil(info, pair[1]) {
			continue
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || !c.m.Visible(v) {
			continue
		}
		defs := c.m.DefsOf(v)
		all := len(defs) > 0
		for _, d := range defs {
			call, ok := ast.Unparen(d.Rhs).(*ast.CallExpr)
			if !ok || !analysisutil.HasContextArg(info, call) {
				all = false
			}
		}
		if all {
			return true
		}
	}
	return false
}

// countBranch counts one break statement that countBreaks, which looks
// below its node, does not see.
func (c *checker) countBranch(br *ast.BranchStmt, label *ast.Ident, inDone, nested bool, breaks, onDone *int) {
	if br.Tok == token.BREAK && (br.Label != nil && label != nil && br.Label.Name == label.Name || br.Label == nil && !nested) {
		*breaks++
		if inDone {
			*onDone++
		}
	}
}

// ctxAlive reports whether cond requires a context not to be done:
// ctx.Err() == nil, possibly and-ed with more.
func (c *checker) ctxAlive(cond ast.Expr) bool {
	switch x := ast.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		if x.Op == token.LAND {
			return c.ctxAlive(x.X) || c.ctxAlive(x.Y)
		}
		if x.Op != token.EQL {
			return false
		}
		call, ok := ast.Unparen(x.X).(*ast.CallExpr)
		if !ok || !c.isNil(x.Y) {
			return false
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || !analysisutil.IsContext(c.pass.TypesInfo.TypeOf(sel.X)) {
			return false
		}
		fn, _ := c.pass.TypesInfo.Uses[sel.Sel].(*types.Func)
		return fn != nil && c.table.ContextErr[analysisutil.Key(fn)]
	}
	return false
}

// pendingFailure reports whether, among the statements of list before
// node, one assigns the error of a call given the caller's context (a
// context that is not deadline-free) to a variable that no statement
// between it and node branches on, returns or reassigns (logging it is not
// handling it), and that a statement after node reads: node runs on the
// failure path too, before the failure is handled.
func (c *checker) pendingFailure(list []ast.Stmt, node ast.Node) bool {
	at := -1
	for i, st := range list {
		if st == node {
			at = i
		}
	}
	if at <= 0 {
		return false
	}
	info := c.pass.TypesInfo
	for i := at - 1; i >= 0; i-- {
		as, ok := list[i].(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			continue
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok || !c.givenCallersCtx(call) {
			continue
		}
		for _, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || !c.isError(id) {
				continue
			}
			v, _ := info.ObjectOf(id).(*types.Var)
			if v == nil {
				continue
			}
			if !branchesOn(info, list[i+1:at], v) && readsVar(info, list[at+1:], v) {
				return true
			}
		}
	}
	return false
}

// givenCallersCtx reports whether a call is given a context that is not
// deadline-free: the caller's, or one derived from it.
func (c *checker) givenCallersCtx(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if !analysisutil.IsContext(c.pass.TypesInfo.TypeOf(a)) {
			continue
		}
		if o := c.m.Context(a); o.State != ctxflow.Free && (o.Param != nil || o.Inbound || o.State == ctxflow.Deadline) {
			return true
		}
	}
	return false
}

// readsVar reports whether any of stmts reads (or assigns) v.
func readsVar(info *types.Info, stmts []ast.Stmt, v *types.Var) bool {
	found := false
	for _, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// branchesOn reports whether any of stmts decides control flow on v (an
// if or for condition, a switch tag or case, a return of it) or assigns it.
func branchesOn(info *types.Info, stmts []ast.Stmt, v *types.Var) bool {
	in := func(e ast.Expr) bool { return analysisutil.Mentions(info, e, v) }
	found := false
	for _, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IfStmt:
				found = in(n.Cond)
			case *ast.ForStmt:
				found = found || n.Cond != nil && in(n.Cond)
			case *ast.SwitchStmt:
				found = found || n.Tag != nil && in(n.Tag)
			case *ast.CaseClause:
				for _, e := range n.List {
					found = found || in(e)
				}
			case *ast.ReturnStmt:
				for _, e := range n.Results {
					found = found || in(e)
				}
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && info.Uses[id] == v {
						found = true
					}
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
