package launch

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// longLived reports whether each goroutine is a worker or a service
// rather than a unit of work: it loops until it is stopped (a range over a
// channel, a loop until a stop channel or its context ends), serves or
// accepts connections, or runs a function that does (by its WorkFact); a
// function out of sight handed a stop channel runs until it is closed.
func (s *state) longLived(l *Launch) bool {
	if l.Body != nil && (s.loopsForever(l.Body, 0) || s.runsForever(l.Body)) {
		return true
	}
	if s.workerPool(l) {
		return true
	}
	if s.literal(l.Fn) == nil {
		if f := s.fact(s.funcOf(l.Fn)); f != nil && f.Forever {
			return true
		}
	}
	if l.Body == nil {
		for _, a := range l.Args {
			if isStopChan(s.info.TypeOf(a)) {
				return true
			}
		}
	}
	return false
}

// runsForever reports whether body (outside nested function literals)
// serves (http.Server.Serve, grpc.Server.Serve), accepts connections, or
// calls a function that runs a loop with no fixed end.
func (s *state) runsForever(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			fn, _ := s.flow.Callee(n)
			if fn == nil {
				return true
			}
			key := analysisutil.Key(fn)
			if s.table.Serves[key] || s.table.Accepts[key] {
				found = true
			} else if f := s.fact(fn); f != nil && f.Forever {
				found = true
			}
		}
		return !found
	})
	return found
}

func isStopChan(t types.Type) bool {
	if t == nil {
		return false
	}
	ch, ok := t.Underlying().(*types.Chan)
	if !ok || ch.Dir() == types.SendOnly {
		return false
	}
	st, ok := ch.Elem().Underlying().(*types.Struct)
	return ok && st.NumFields() == 0
}

// loopsForever reports whether body (outside nested function literals)
// has a worker or service loop: a range over a channel; a loop that takes
// values from a channel; a for loop with no condition that never ends, or
// ends only on a select case (a stop channel, ctx.Done()); a loop while a
// context is alive. A retry loop (it ends when the work succeeds) is none
// of these. Calls of functions of the package are followed a little.
func (s *state) loopsForever(body *ast.BlockStmt, depth int) bool {
	info := s.info
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.RangeStmt:
			if t := info.TypeOf(n.X); t != nil {
				if _, ok := t.Underlying().(*types.Chan); ok {
					found = true
				}
			}
		case *ast.ForStmt:
			switch {
			case receivesValue(n.Body), s.ticks(n.Body):
				found = true
			case n.Cond == nil:
				found = !exitsOutsideSelect(n.Body, "")
			default:
				found = s.mentionsContext(n.Cond)
			}
		case *ast.BlockStmt:
			// A loop written with goto: L: ... goto L, the goto the
			// block's last statement. It has no condition; like for {}
			// it runs until it is stopped when it leaves only on a select
			// case.
			if body := gotoLoop(n); body != nil {
				found = receivesValue(body) || s.ticks(body) || !exitsOutsideSelect(body, body.List[0].(*ast.LabeledStmt).Label.Name)
			}
		case *ast.CallExpr:
			if depth < 2 {
				if fn, _ := s.flow.Callee(n); fn != nil && fn.Pkg() == s.pass.Pkg {
					if d := s.flow.Decl(fn); d != nil && d.Body != nil && d.Body != body {
						found = s.loopsForever(d.Body, depth+1)
					}
				}
			}
		}
		return !found
	})
	return found
}

// ticks reports whether a loop body (outside function literals) waits for
// a ticker (<-t.C of a time.Ticker, <-time.Tick(d)): a periodic loop, a
// poller or a tail, that runs until it is stopped.
func (s *state) ticks(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			if n.Op != token.ARROW {
				return true
			}
			switch x := ast.Unparen(n.X).(type) {
			case *ast.SelectorExpr:
				if t := s.info.TypeOf(x.X); t != nil && s.table.Tickers[analysisutil.TypeKey(t)] {
					found = true
				}
			case *ast.CallExpr:
				if fn, _ := s.flow.Callee(x); fn != nil && s.table.Tickers[analysisutil.Key(fn)] {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// receivesValue reports whether n (outside function literals) takes a
// value from a channel: v := <-ch, v, ok := <-ch, case v := <-ch.
func receivesValue(n ast.Node) bool {
	found := false
	isRecv := func(e ast.Expr) bool {
		u, ok := ast.Unparen(e).(*ast.UnaryExpr)
		return ok && u.Op == token.ARROW
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if id, ok := lhs.(*ast.Ident); ok && id.Name == "_" && len(n.Lhs) == 1 {
					continue
				}
				if len(n.Rhs) == 1 && isRecv(n.Rhs[0]) || i < len(n.Rhs) && len(n.Rhs) > 1 && isRecv(n.Rhs[i]) {
					found = true
				}
			}
		case *ast.ValueSpec:
			for _, v := range n.Values {
				if isRecv(v) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// gotoLoop returns the statements of block from a labeled statement to
// the block's last statement when that is a goto back to the label (a
// loop with no condition), or nil.
func gotoLoop(block *ast.BlockStmt) *ast.BlockStmt {
	n := len(block.List)
	if n < 2 {
		return nil
	}
	last, ok := block.List[n-1].(*ast.BranchStmt)
	if !ok || last.Tok != token.GOTO || last.Label == nil {
		return nil
	}
	for i, st := range block.List[:n-1] {
		if ls, ok := st.(*ast.LabeledStmt); ok && ls.Label.Name == last.Label.Name {
			return &ast.BlockStmt{List: block.List[i:]}
		}
	}
	return nil
}

// exitsOutsideSelect reports whether a loop body has a return, a goto or
// a break out of it that is not in a case of a select statement; a goto
// to back (the label a goto loop starts at, or "") goes round again.
func exitsOutsideSelect(body *ast.BlockStmt, back string) bool {
	found := false
	var visit func(n ast.Node, breakable int, inSelect bool)
	visit = func(n ast.Node, breakable int, inSelect bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if found {
				return false
			}
			if m == n {
				return true
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if !inSelect {
					found = true
				}
			case *ast.BranchStmt:
				if !inSelect && (m.Tok == token.GOTO && (back == "" || m.Label == nil || m.Label.Name != back) || m.Tok == token.BREAK && (m.Label != nil || breakable == 0)) {
					found = true
				}
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt:
				visit(m, breakable+1, inSelect)
				return false
			case *ast.SelectStmt:
				visit(m, breakable+1, true)
				return false
			}
			return true
		})
	}
	visit(body, 0, false)
	return found
}

// mentionsContext reports whether a loop condition uses a context
// (for ctx.Err() == nil).
func (s *state) mentionsContext(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if x, ok := n.(ast.Expr); ok && analysisutil.IsContext(s.info.TypeOf(x)) {
			found = true
		}
		return !found
	})
	return found
}

// workerPool reports whether the launches are a pool of workers: one
// goroutine per iteration of a counted loop (for i := 0; i < n; i++) whose
// bound is not a collection's length, each doing all of its remote work in
// a loop of its own (it takes several items: a stride over a shared slice,
// batches). The count is the number of workers the code chose, not one per
// element of data.
func (s *state) workerPool(l *Launch) bool {
	if len(l.Loops) != 1 || s.literal(l.Fn) == nil || len(l.Work) == 0 {
		return false
	}
	fs, ok := l.Loops[0].(*ast.ForStmt)
	if !ok || fs.Init == nil || fs.Post == nil {
		return false
	}
	cond, ok := ast.Unparen(fs.Cond).(*ast.BinaryExpr)
	if !ok || (cond.Op != token.LSS && cond.Op != token.LEQ) || s.lengthOf(cond.Y, 0) {
		return false
	}
	for _, w := range l.Work {
		if !w.inLoop {
			return false
		}
	}
	return true
}

// lengthOf reports whether a bound is, or is computed in sight from, the
// length of a collection (len(items), n := len(items)).
func (s *state) lengthOf(e ast.Expr, depth int) bool {
	if depth > 4 {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if analysisutil.BuiltinCall(s.info, n, "len") != nil || analysisutil.BuiltinCall(s.info, n, "cap") != nil {
				found = true
			}
		case *ast.Ident:
			v, ok := s.info.Uses[n].(*types.Var)
			if !ok || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
				return true
			}
			srcs, ok := s.flow.Sources(n)
			if !ok {
				return true // a parameter, a field: a count given from outside
			}
			for _, src := range srcs {
				if src != ast.Expr(n) && s.lengthOf(src, depth+1) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
