package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// scan walks a loop body (not nested function literals nor nested loops,
// except a nested loop that continues this one by its label) and fills li.
func (m *model) scan(li *loopInfo) {
	var sel *ast.SelectStmt
	var clause *ast.CommClause
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			// A nested loop is its own, unless a failure in it restarts
			// this one (continue outer): its calls are this loop's too.
			if n != li.stmt && !m.continuesTo(n, li.label) {
				return false
			}
		case *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.SelectStmt:
			outer := sel
			sel = n
			for _, c := range n.Body.List {
				cc := c.(*ast.CommClause)
				oc := clause
				clause = cc
				if cc.Comm != nil {
					ast.Inspect(cc.Comm, visit)
				}
				clause = nil
				for _, s := range cc.Body {
					ast.Inspect(s, visit)
				}
				clause = oc
			}
			sel = outer
			return false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				r := recv{expr: n}
				if clause != nil && clause.Comm != nil && within(n.Pos(), clause.Comm) {
					r.clause, r.sel = clause, sel
				}
				li.receives = append(li.receives, r)
				if k, _ := m.timerOf(n.X); k == knowledge.Ticker {
					li.polling = true
				}
			}
		case *ast.BinaryExpr:
			// apiErr.Code >= 400: an error's Code or Status field is an
			// HTTP status only when compared with one.
			if m.errStatusCompare(n) {
				li.status, li.errStatus = true, true
			}
		case *ast.SelectorExpr:
			if m.isStatus(n) {
				li.status = true
				if m.errCarried(n) {
					li.errStatus = true
				}
			}
		case *ast.Ident:
			if !li.status && m.isStatusIdent(n) {
				li.status = true
			}
			if !li.codes && m.isCode(n) {
				li.codes = true
			}
		case *ast.CallExpr:
			if !li.codes && m.isCode(n) {
				li.codes = true
			}
			if !li.status && m.checksStatus(n) {
				li.status = true // a helper reads the status it is given
			}
			m.scanCall(li, n)
		}
		return true
	}
	ast.Inspect(li.body, visit)
	for _, c := range li.sleepCalls {
		li.waits = append(li.waits, c)
	}
	for _, c := range li.timerCalls {
		li.waits = append(li.waits, c)
	}
	for _, r := range li.receives {
		if k, _ := m.timerOf(r.expr.X); k != 0 {
			li.waits = append(li.waits, r.expr)
		}
	}
}

func (m *model) scanCall(li *loopInfo, call *ast.CallExpr) {
	fn, _ := m.callee(call)
	key := ""
	if fn != nil {
		key = analysisutil.Key(fn)
	}
	if _, ok := m.rt.Sleeps[key]; ok {
		li.sleepCalls = append(li.sleepCalls, call)
		return
	}
	if row, ok := m.rt.Timers[key]; ok {
		if row.Kind == knowledge.Ticker && key != "time.AfterFunc" {
			li.polling = true
		}
		li.timerCalls = append(li.timerCalls, call)
		return
	}
	if fn != nil && m.sleepFact(fn) != nil {
		li.sleepCalls = append(li.sleepCalls, call)
		return
	}
	if m.candidate(call, fn, key) {
		li.calls = append(li.calls, call)
	}
}

var errorType = types.Universe.Lookup("error").Type()

// nestedCalls adds to li the candidate calls of the loops its body holds
// (not in function literals, goroutines or deferred calls), for a loop
// with no call of its own.
func (m *model) nestedCalls(li *loopInfo) {
	var visit func(n ast.Node, inLoop bool) bool
	visit = func(n ast.Node, inLoop bool) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			if !inLoop {
				ast.Inspect(n, func(x ast.Node) bool { return x == nil || x == n || visit(x, true) })
				return false
			}
		case *ast.CallExpr:
			fn, _ := m.callee(n)
			key := ""
			if fn != nil {
				key = analysisutil.Key(fn)
			}
			_, sleeps := m.rt.Sleeps[key]
			if inLoop && !sleeps && (fn == nil || m.sleepFact(fn) == nil) && m.candidate(n, fn, key) {
				li.calls = append(li.calls, n)
			}
		}
		return true
	}
	ast.Inspect(li.body, func(n ast.Node) bool { return n == nil || visit(n, false) })
}

// candidate reports whether a call can be a retried operation: it can fail
// (an error result, or an HTTP response), it is not a sleep, a constructor
// of errors, a context method, a delay source or a listener's Accept.
func (m *model) candidate(call *ast.CallExpr, fn *types.Func, key string) bool {
	tv, ok := m.info.Types[call.Fun]
	if ok && tv.IsType() {
		return false // a conversion
	}
	sig, ok := types.Unalias(m.info.TypeOf(call.Fun)).Underlying().(*types.Signature)
	if !ok || sig.Results().Len() == 0 {
		return false
	}
	last := sig.Results().At(sig.Results().Len() - 1).Type()
	if !types.Identical(last, errorType) && !m.isResponse(sig) {
		return false
	}
	if fn != nil {
		if fn.Pkg() != nil && m.rt.LocalPackages[fn.Pkg().Path()] {
			return false
		}
		if m.rt.LocalCalls[key] {
			return false
		}
		if m.rt.Accept[key] {
			return false
		}
		if _, ok := m.rt.Configs[key]; ok {
			return false
		}
		if analysisutil.IsContext(recvType(fn)) {
			return false
		}
	}
	return true
}

func recvType(fn *types.Func) types.Type {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return nil
	}
	return sig.Recv().Type()
}

// isResponse reports whether a signature returns an HTTP response.
func (m *model) isResponse(sig *types.Signature) bool {
	for i := 0; i < sig.Results().Len(); i++ {
		if analysisutil.TypeKey(sig.Results().At(i).Type()) == "net/http.Response" {
			return true
		}
	}
	return false
}
