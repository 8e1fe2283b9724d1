package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// reconnects reports whether a loop that never leaves on success is a
// reconnect loop for call: a for loop without a condition whose body makes
// the call as a statement of its own and handles its error right after,
//
//	for {
//		next, err := inf.watch(ctx, rv)
//		if err != nil {
//			log.Printf("watch: %v", err)
//			time.Sleep(2 * time.Second)
//			continue
//		}
//		rv = next
//	}
//
// with an if err != nil whose body waits and then goes round (continue, or
// the end of the body), and no wait anywhere else: it waits only after a
// failure, before calling again. A loop that also waits after success paces
// its work (polling) and is no reconnect loop.
func (m *model) reconnects(L *Loop, li *loopInfo, call *ast.CallExpr) bool {
	fs, ok := L.Stmt.(*ast.ForStmt)
	if !ok || !m.condHolds(fs.Cond) || !m.remote(call, 0) {
		return false
	}
	waits := map[*ast.CallExpr]bool{}
	for _, c := range li.sleepCalls {
		waits[c] = true
	}
	for _, c := range li.timerCalls {
		waits[c] = true
	}
	if len(waits) == 0 {
		return false
	}
	var errV *types.Var
	handled := map[*ast.CallExpr]bool{}
	for i, st := range L.Body.List {
		if errV == nil {
			as, ok := st.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != call || len(as.Lhs) == 0 {
				continue
			}
			v := m.x.varOf(as.Lhs[len(as.Lhs)-1])
			if v == nil || !types.Identical(v.Type(), errorType) {
				return false
			}
			errV = v
			continue
		}
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Init != nil || ifs.Else != nil {
			continue
		}
		if !m.failed(ifs.Cond, errV) {
			continue
		}
		last := len(ifs.Body.List) - 1
		if last < 0 {
			return false
		}
		br, isBranch := ifs.Body.List[last].(*ast.BranchStmt)
		goesRound := isBranch && br.Tok == token.CONTINUE && (br.Label == nil || li.label != nil && m.info.Uses[br.Label] == li.label)
		if !goesRound && i != len(L.Body.List)-1 {
			return false
		}
		ast.Inspect(ifs.Body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if c, ok := n.(*ast.CallExpr); ok && waits[c] {
				handled[c] = true
			}
			return true
		})
		break
	}
	return len(handled) > 0 && len(handled) == len(waits)
}

// failed reports whether cond holds only when err (v) is not nil: err !=
// nil, or err != nil && more (!errors.Is(err, redis.Nil): a sentinel that
// is no failure).
func (m *model) failed(cond ast.Expr, v *types.Var) bool {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	if be.Op == token.LAND {
		return m.failed(be.X, v)
	}
	return be.Op == token.NEQ && analysisutil.IsNil(m.info, be.Y) && m.x.varOf(be.X) == v
}

// sameAfterFailure reports whether, in a reconnect loop (see reconnects),
// no variable the call reads is assigned in the block that handles its
// failure: after a failure it is called again as it was. To be safe it
// reads every if of the body whose condition is a comparison with != or a
// conjunction (the failure check, err != nil && ..., and any other).
func (m *model) sameAfterFailure(L *Loop, call *ast.CallExpr) bool {
	read := map[*types.Var]bool{}
	ast.Inspect(call, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := m.info.Uses[id].(*types.Var); ok {
				read[v] = true
			}
		}
		return true
	})
	same := true
	for _, st := range L.Body.List {
		ifs, ok := st.(*ast.IfStmt)
		if !ok {
			continue
		}
		be, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
		if !ok || (be.Op != token.NEQ && be.Op != token.LAND) {
			continue
		}
		ast.Inspect(ifs.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if v := m.x.rootVar(l); v != nil && read[v] {
						same = false
					}
				}
			case *ast.IncDecStmt:
				if v := m.x.rootVar(n.X); v != nil && read[v] {
					same = false
				}
			}
			return same
		})
	}
	return same
}

// condHolds reports whether a reconnect loop's condition (nil: none) only
// says when to stop, whatever the calls of the body return: it reads
// variables and fields, and calls nothing but a context's methods (for
// ctx.Err() == nil, for !s.closed). A condition that calls anything else
// may take the next item (for sc.Scan(), for it.Next(ctx)): a consumer.
func (m *model) condHolds(cond ast.Expr) bool {
	if cond == nil {
		return true
	}
	holds := true
	ast.Inspect(cond, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			holds = false
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if !ok || !analysisutil.IsContext(m.info.TypeOf(sel.X)) {
				holds = false
			}
		}
		return holds
	})
	return holds
}
