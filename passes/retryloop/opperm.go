package retryloop

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// Permanent failures in an operation handed to a retry helper that retries
// every error but those marked with its stop function (cenkalti's
// backoff.Retry and backoff.Permanent): the operation's body is walked
// after each of its outbound calls with each permanent status or code
// assumed; a condition on whose path the operation returns an error that
// is not so marked sends the failure back into the helper.

// opPermanents walks the operations of the package's helper calls whose
// row names stop functions and records the conditions that retry a
// permanent failure (OpPermanent, with Op set).
func (m *model) opPermanents() {
	done := map[ast.Node]bool{}
	for _, h := range m.helpers {
		if !h.Site || len(h.Row.Stops) == 0 {
			continue
		}
		stops := map[string]bool{}
		for _, s := range h.Row.Stops {
			stops[s] = true
		}
		for _, op := range h.Ops {
			fnode, sig, body := m.predicateFunc(op, 0)
			if fnode == nil || sig == nil || body == nil || done[fnode] {
				continue
			}
			done[fnode] = true
			n := sig.Results().Len()
			if n == 0 || !types.Identical(sig.Results().At(n-1).Type(), errorType) {
				continue
			}
			m.opPermanent(h, fnode, body, n, stops)
		}
	}
}

func (m *model) opPermanent(h *Helper, fnode ast.Node, body *ast.BlockStmt, results int, stops map[string]bool) {
	L := &Loop{Body: body, Func: fnode}
	li := &loopInfo{body: body}
	m.scan(li)
	if !li.status && !li.codes {
		return
	}
	var found []*Permanent
	for _, call := range li.calls {
		if !m.outbound(call) {
			continue
		}
		mk := func(a assume) *walker {
			w := m.newWalker(L, li, call, a, true)
			w.helper, w.predResults, w.predIdx, w.predErr, w.stops = true, results, results-1, true, stops
			w.run()
			return w
		}
		found = append(found, m.permanentWalks(li, true, mk)...)
	}
	for _, p := range mergePermanent(found) {
		p.Op = h
		m.opPerms = append(m.opPerms, p)
	}
}

// stopsRetry reports whether e is a call of one of the walk's stop
// functions (backoff.Permanent(err)).
func (w *walker) stopsRetry(e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(w.stops) == 0 {
		return false
	}
	fn, _ := w.m.callee(c)
	return fn != nil && w.stops[analysisutil.Key(fn)]
}
