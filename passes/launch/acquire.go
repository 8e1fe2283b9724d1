package launch

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// An acq is a limit taken in a function body: a slot of a semaphore, a
// rate limiter's wait, a mutex locked, a send on a channel drained in the
// same function.
type acq struct {
	pos  token.Pos
	fn   ast.Node   // the innermost function literal around it, nil for the body's own
	list []ast.Stmt // the statement list holding it, and its index there
	idx  int
	key  string // the limit as written (s.sem, mu)
	chn  bool   // a channel slot: released by a receive
	tok  bool   // a token taken from a channel: released by a send
	text string
	// clause: taken as the communication of this case of the select
	// a.list[a.idx], whose other cases all leave.
	clause *ast.CommClause
}

// acquisitions returns the shared limits taken in body.
func (s *state) acquisitions(body ast.Node, scope ast.Node) []acq {
	var out []acq
	walk(body, func(n ast.Node, stack []ast.Node) {
		var recv ast.Expr
		var text string
		chn, tok := false, false
		switch n := n.(type) {
		case *ast.CallExpr:
			fn, r := s.flow.Callee(n)
			if fn == nil {
				return
			}
			key := analysisutil.Key(fn)
			switch {
			case r != nil && (s.table.Acquires[key] || s.table.Serial[key]):
				recv, text = r, analysisutil.Name(fn)
			default:
				// A helper that takes a limit and returns holding it
				// (r.tryThrottle(ctx), p.beginCall()).
				lf := s.limitFact(fn)
				if lf == nil || lf.Holds == "" || (r != nil && !s.shared(r, scope)) {
					return
				}
				recv, text = n, lf.Holds // never given back here
				if r != nil {
					recv = r
				}
			}
		case *ast.ExprStmt:
			// <-p.tokens: a token taken from a channel, given back by a
			// send (or refilled elsewhere: pacing).
			u, ok := ast.Unparen(n.X).(*ast.UnaryExpr)
			if !ok || u.Op != token.ARROW {
				return
			}
			if _, call := ast.Unparen(u.X).(*ast.CallExpr); call {
				// A channel a call returns (ctx.Done(), time.After(d)):
				// a wait, not a token the goroutines share.
				return
			}
			if v := chanVar(s.info, u.X); v != nil && !s.buffered(v) {
				// An unbuffered channel holds no tokens: a receive waits
				// for a signal (a start barrier closed after the loop),
				// it bounds nothing.
				return
			}
			recv, tok = u.X, true
			text = analysisutil.Format(s.pass.Fset, u.X)
		case *ast.SendStmt:
			t := s.info.TypeOf(n.Chan)
			if t == nil {
				return
			}
			if _, ok := t.Underlying().(*types.Chan); !ok || !drains(s.info, body, n.Chan) {
				return
			}
			recv, chn = n.Chan, true
			text = analysisutil.Format(s.pass.Fset, n.Chan)
		default:
			return
		}
		if _, helper := recv.(*ast.CallExpr); !helper && !s.shared(recv, scope) {
			return
		}
		a := acq{pos: n.Pos(), key: types.ExprString(recv), chn: chn, tok: tok, text: text}
		if _, isCall := recv.(*ast.CallExpr); isCall {
			a.key = "" // a helper holding a limit: nothing gives it back
		}
		start := len(stack) - 2
		if cc, ok := stack[start].(*ast.CommClause); ok && cc.Comm == n {
			// The communication of a select's case: held after the
			// select when every other case leaves (case <-ctx.Done():
			// return), else only in the case's own body.
			if sel := stack[start-2].(*ast.SelectStmt); othersLeave(s.info, sel, cc) {
				a.clause, start = cc, start-3
			} else {
				a.list, a.idx = cc.Body, -1
			}
		}
		for i := start; i >= 0; i-- {
			var list []ast.Stmt
			switch b := stack[i].(type) {
			case *ast.FuncLit, *ast.FuncDecl:
				if a.fn == nil {
					a.fn = b
				}
			case *ast.BlockStmt:
				list = b.List
			case *ast.CaseClause:
				list = b.Body
			case *ast.CommClause:
				list = b.Body
			}
			if list != nil && a.list == nil {
				for j, st := range list {
					if st == stack[i+1] {
						a.list, a.idx = list, j
					}
				}
			}
			if a.fn != nil {
				break
			}
		}
		if a.list != nil {
			out = append(out, a)
		}
	})
	return out
}

// drains reports whether body receives from the channel ch is written as
// (a slot given back).
func drains(info *types.Info, body ast.Node, ch ast.Expr) bool {
	key := types.ExprString(ch)
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW && types.ExprString(u.X) == key {
			found = true
		}
		return !found
	})
	return found
}

// shared reports whether a limit value is shared by every run of a body:
// it is not held in a variable made within scope (a parameter, the
// receiver, a package variable, or a variable made before the loop).
func (s *state) shared(e ast.Expr, scope ast.Node) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if sel, ok := s.info.Selections[x]; ok && sel.Kind() == types.FieldVal {
				e = x.X
				continue
			}
			if v, ok := s.info.Uses[x.Sel].(*types.Var); ok {
				return isGlobal(v)
			}
			return false
		case *ast.StarExpr:
			e = x.X
			continue
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				e = x.X
				continue
			}
			return false
		case *ast.Ident:
			v, ok := s.info.Uses[x].(*types.Var)
			if !ok {
				return false
			}
			if isGlobal(v) {
				return true
			}
			if fn, _, isParam := s.flow.IsParam(v); isParam {
				// A parameter of the function (not of a literal made
				// within the scope).
				return fn == scope || fn.Pos() < scope.Pos() || fn.Pos() >= scope.End()
			}
			return v.Pos() < scope.Pos() || v.Pos() >= scope.End()
		}
		return false
	}
}

// limitAt returns the text of a shared limit held at call (taken before it
// in an enclosing statement list of the same function, not given back in
// between), or "".
func (s *state) limitAt(acqs []acq, call *ast.CallExpr, stack []ast.Node) string {
	var fn ast.Node
	for i := len(stack) - 2; i >= 0 && fn == nil; i-- {
		switch stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			fn = stack[i]
		}
	}
	for _, a := range acqs {
		if a.fn != fn || a.pos >= call.Pos() {
			continue
		}
		// The statement of a.list that holds the call.
		j := -1
		for k := max(a.idx, 0); k < len(a.list); k++ {
			if a.list[k].Pos() <= call.Pos() && call.End() <= a.list[k].End() {
				j = k
				break
			}
		}
		if j < 0 || j == a.idx && a.clause != nil && (call.Pos() <= a.clause.Colon || a.clause.End() < call.End()) {
			continue // not held, or in another case of the select
		}
		released := false
		for _, st := range a.list[min(a.idx+1, j):j] {
			if s.releases(a, st) {
				released = true
			}
		}
		if !released {
			return a.text
		}
	}
	return ""
}

// releases reports whether a statement gives the limit back at its top
// level (mu.Unlock(), sem.Release(1), <-sem; not in a defer or a branch).
func (s *state) releases(a acq, st ast.Stmt) bool {
	if a.key == "" {
		return false
	}
	var e ast.Expr
	switch st := st.(type) {
	case *ast.SendStmt:
		return a.tok && types.ExprString(st.Chan) == a.key
	case *ast.ExprStmt:
		e = st.X
	case *ast.AssignStmt:
		if len(st.Rhs) == 1 {
			e = st.Rhs[0]
		}
	default:
		return false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		return a.chn && x.Op == token.ARROW && types.ExprString(x.X) == a.key
	case *ast.CallExpr:
		fn, recv := s.flow.Callee(x)
		if a.chn || a.tok || fn == nil || recv == nil || types.ExprString(recv) != a.key {
			return false
		}
		key := analysisutil.Key(fn)
		return s.table.Releases[key] || s.table.SerialRelease[key]
	}
	return false
}

// othersLeave reports whether every case of a select but cc leaves the
// function or the iteration (ends in a return, a panic or a continue):
// past the select, cc's communication has happened.
func othersLeave(info *types.Info, sel *ast.SelectStmt, cc *ast.CommClause) bool {
	for _, st := range sel.Body.List {
		other, ok := st.(*ast.CommClause)
		if !ok || other == cc {
			continue
		}
		if len(other.Body) == 0 {
			return false
		}
		switch last := other.Body[len(other.Body)-1].(type) {
		case *ast.ReturnStmt:
		case *ast.BranchStmt:
			if last.Tok != token.CONTINUE {
				return false
			}
		case *ast.ExprStmt:
			if analysisutil.BuiltinCall(info, last.X, "panic") == nil {
				return false
			}
		default:
			return false
		}
	}
	return true
}
