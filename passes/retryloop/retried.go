package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// retried reports whether the loop retries call: its failure can go round
// again, success can leave, and it repeats the same operation.
func (m *model) retried(L *Loop, li *loopInfo, call *ast.CallExpr) bool {
	w := m.newWalker(L, li, call, assume{err: yes, code: -1}, false)
	if !w.observed() {
		return false
	}
	if m.onEvent(li, call) || m.runs(call) {
		return false // an event loop, or the restart loop of a component
	}
	if m.varies(L, li, call, true) {
		// A watch loop resuming from its last result (next, err :=
		// watch(ctx, rv); ...; rv = next) repeats the same call after a
		// failure: a reconnect loop still retries it.
		// Only a loop that never leaves on success: one that does (a page
		// token that ends) is walking through results, not watching.
		if m.reconnects(L, li, call) && m.sameAfterFailure(L, call) && !m.varies(L, li, call, false) {
			ws := m.newWalker(L, li, call, assume{err: no, status: 200, code: 0}, false)
			ws.run()
			if len(ws.exit) == 0 {
				li.reconnect = append(li.reconnect, call)
				li.roundAll = true // read from the code's shape, not walked
				return true
			}
		}
		return false
	}
	// The failure walks: an error (with each transient gRPC code when the
	// loop reads codes), then each transient HTTP status.
	type outcome struct {
		a                      assume
		round, exit, predRound bool
	}
	var fails []outcome
	try := func(a assume) {
		w := m.newWalker(L, li, call, a, false)
		w.run()
		fails = append(fails, outcome{a, len(w.round) > 0, len(w.exit) > 0, w.roundByPredicate()})
	}
	if li.codes {
		for _, c := range m.rt.TransientCodes {
			try(assume{err: yes, code: c})
		}
	} else {
		try(assume{err: yes, code: -1})
	}
	// Transient statuses count only where the loop reads a status: a loop
	// that never looks at it treats a 503 like a 200, so whatever sends it
	// round (a job not done yet) is polling, not a retry of a failure.
	if li.status && (m.isResponseCall(call) || w.statusResult()) {
		for _, s := range m.rt.TransientStatuses {
			try(assume{err: no, status: s, code: -1})
		}
	}
	w = m.newWalker(L, li, call, assume{err: no, status: 200, code: 0}, false)
	w.run()
	if (len(w.exit) == 0 || len(w.round) > 0) && li.status {
		// Success may be another 2xx that the loop waits for (status ==
		// http.StatusAccepted) while a 200 goes round: the first one the
		// loop compares the status with that always leaves.
		for _, s := range m.successStatuses(li) {
			ws := m.newWalker(L, li, call, assume{err: no, status: s, code: 0}, false)
			ws.run()
			if len(ws.exit) > 0 && len(ws.round) == 0 {
				w = ws
				break
			}
		}
	}
	if len(w.exit) == 0 {
		// Success never leaves: a watch or consumer loop. It still retries
		// the call when it waits only on the call's failure path.
		if m.reconnects(L, li, call) {
			li.reconnect = append(li.reconnect, call)
			li.roundAll = true // read from the code's shape, not walked
			return true
		}
		return false
	}
	// The call's outcome must decide: a loop that goes round and leaves
	// alike whether the call failed or not (a reader loop that stops at EOF
	// and keeps an error for later) does not retry it, unless a predicate on
	// the outcome decides (shouldRetry(resp, err, n)).
	ok := false
	for _, f := range fails {
		if !f.round || (len(w.round) > 0 && f.exit && !f.predRound) {
			continue
		}
		ok = true
		if f.predRound {
			L.Predicate = true
		}
		if f.a.status != 0 && !containsInt(L.Statuses, f.a.status) {
			L.Statuses = append(L.Statuses, f.a.status)
		}
		if name := m.rt.CodeNames[f.a.code]; f.a.code >= 0 && name != "" && !containsStr(L.Codes, name) {
			L.Codes = append(L.Codes, name)
		}
	}
	if n := m.observedCalls(L, li); ok && n >= 1 {
		// Waits passed where the call succeeded and the loop still goes
		// round pace the work; they are no backoff. Only where the call is
		// the iteration's one operation whose outcome the loop looks at:
		// with another (a read, then a compare-and-swap), its success is
		// not the iteration's, unless the wait comes before every other
		// such operation (a poll that waits when nothing changed, then
		// parses what did), so no other outcome is on its path.
		mask := ^uint64(0)
		if n > 1 {
			mask = m.beforeOthers(L, li, call)
		}
		for _, st := range w.round {
			if !st.errBlind {
				li.pacing |= (st.waits | st.pre) & mask
			}
		}
	}
	return ok
}

// successStatuses returns the 2xx statuses other than 200 that the loop
// body compares an HTTP status with for equality (status ==
// http.StatusAccepted, case http.StatusNoContent:), in source order.
func (m *model) successStatuses(li *loopInfo) []int {
	var out []int
	add := func(status, other ast.Expr) {
		if !m.isStatusExpr(status) {
			return
		}
		if n, ok := m.constInt(other); ok && n > 200 && n < 300 && !containsInt(out, int(n)) {
			out = append(out, int(n))
		}
	}
	ast.Inspect(li.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				add(n.X, n.Y)
				add(n.Y, n.X)
			}
		case *ast.SwitchStmt:
			if n.Tag != nil {
				for _, c := range n.Body.List {
					if cc, ok := c.(*ast.CaseClause); ok {
						for _, e := range cc.List {
							add(n.Tag, e)
						}
					}
				}
			}
		}
		return true
	})
	return out
}

// roundByPredicate reports whether a path went round through a condition
// on the call's outcome that the walk could not decide (a retry predicate).
func (w *walker) roundByPredicate() bool {
	for _, s := range w.round {
		if s.blind {
			return true
		}
	}
	return false
}

// statusResult reports whether the call returns an HTTP status in a
// variable (code, err := c.post(ctx, body) where post returns
// resp.StatusCode).
func (w *walker) statusResult() bool {
	for v := range w.resV {
		if isInteger(v.Type()) && !w.m.isCodeType(v.Type()) && w.m.statusVar(v, 0) {
			return true
		}
	}
	return false
}

func (m *model) isResponseCall(call *ast.CallExpr) bool {
	sig, ok := types.Unalias(m.info.TypeOf(call.Fun)).Underlying().(*types.Signature)
	return ok && m.isResponse(sig)
}

// observed reports whether the loop looks at the call's outcome: its error
// is kept in a variable or tested in place, or its response is kept.
func (w *walker) observed() bool {
	if len(w.errV) > 0 {
		return true
	}
	for v := range w.resV {
		if analysisutil.TypeKey(v.Type()) == "net/http.Response" {
			return true
		}
	}
	if w.stmt == nil {
		// No simple statement holds the call: it is in the condition of an
		// if or the tag of a switch of the body (if c.post(ctx) == nil).
		return w.inHeader()
	}
	switch w.stmt.(type) {
	case *ast.ExprStmt, *ast.AssignStmt, *ast.DeclStmt:
		return false // the error is dropped (or assigned to _)
	}
	return true // in a condition, a return, a switch tag
}

// inHeader reports whether the call is in the condition of an if statement
// or the tag of a switch statement of the loop body, outside function
// literals.
func (w *walker) inHeader() bool {
	found := false
	ast.Inspect(w.li.body, func(n ast.Node) bool {
		if found || n == nil || !within(w.call.Pos(), n) {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			found = within(w.call.Pos(), n.Cond)
		case *ast.SwitchStmt:
			found = n.Tag != nil && within(w.call.Pos(), n.Tag)
		}
		return !found
	})
	return found
}

// beforeOthers returns the waits of the loop (bits of li.waits) that come
// after call and before every other call whose outcome the loop looks at.
// Reads of the call's results are part of its attempt (they succeed where
// it did, see derivedErr), and a call whose failure never goes round (a
// callback whose error ends the loop) is retried by no wait: neither is
// another such call.
func (m *model) beforeOthers(L *Loop, li *loopInfo, call *ast.CallExpr) uint64 {
	m.observedCalls(L, li)
	w := m.newWalker(L, li, call, assume{}, false)
	first := token.NoPos
	for _, c := range li.observedList {
		if c == call || w.readsResults(c) || !m.failureGoesRound(L, li, c) {
			continue
		}
		if c.Pos() < call.Pos() {
			return 0
		}
		if !first.IsValid() || c.Pos() < first {
			first = c.Pos()
		}
	}
	var bits uint64
	for i, x := range li.waits {
		if i < 64 && x.Pos() > call.End() && (!first.IsValid() || x.End() < first) {
			bits |= 1 << i
		}
	}
	return bits
}

// failureGoesRound reports whether a path on which the call failed goes
// round the loop.
func (m *model) failureGoesRound(L *Loop, li *loopInfo, call *ast.CallExpr) bool {
	w := m.newWalker(L, li, call, assume{err: yes, code: -1}, false)
	w.run()
	return len(w.round) > 0
}

// observedCalls counts the candidate calls of a loop whose outcome the loop
// looks at (li.observedList), once per loop.
func (m *model) observedCalls(L *Loop, li *loopInfo) int {
	if li.observed == 0 {
		li.observed = -1
		for _, c := range li.calls {
			if m.newWalker(L, li, c, assume{}, false).observed() {
				li.observedList = append(li.observedList, c)
			}
		}
		if n := len(li.observedList); n > 0 {
			li.observed = n
		}
	}
	return li.observed
}
