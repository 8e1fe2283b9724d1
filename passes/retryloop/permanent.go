package retryloop

import (
	"go/ast"
	"go/token"
	"net/http"
	"sort"
)

// permanent finds the conditions that send permanent failures round.
func (m *model) permanent(L *Loop, li *loopInfo) {
	for _, call := range L.Retried {
		mk := func(a assume) *walker {
			w := m.newWalker(L, li, call, a, true)
			w.run()
			return w
		}
		ps := m.permanentWalks(li, true, mk)
		if m.rereads(L, call) {
			ps = withoutConflict(ps)
		}
		L.Permanent = append(L.Permanent, ps...)
	}
	L.Permanent = mergePermanent(L.Permanent)
	for _, p := range L.Permanent {
		p.Loop = L
	}
}

// rereads reports whether the call is given, each iteration, what another
// call to a dependency has just read (cur, err := api.Get(ctx, name);
// cur.Replicas = n; api.Update(ctx, cur)): a read-modify-write loop, for
// which 409 Conflict means "read again", not a permanent failure.
func (m *model) rereads(L *Loop, call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
			a = u.X
		}
		v := m.x.rootVar(a)
		if v == nil {
			continue
		}
		for _, d := range m.x.defs[v] {
			c, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
			if !ok || c == call || d.index > 0 || !within(d.pos, L.Stmt) {
				continue
			}
			if m.outbound(c) { // a read from the dependency, not a request builder
				return true
			}
		}
	}
	return false
}

// withoutConflict drops 409 Conflict from permanent-failure conditions.
func withoutConflict(ps []*Permanent) []*Permanent {
	out := ps[:0]
	for _, p := range ps {
		var st []int
		for _, s := range p.Statuses {
			if s != http.StatusConflict {
				st = append(st, s)
			}
		}
		p.Statuses = st
		if len(p.Statuses) > 0 || len(p.Codes) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// permanentWalks walks each permanent failure with walkers made by walk and
// returns the conditions on whose paths it goes round, in the order found.
// response: the outcome can be a response with a status (not only an
// error carrying one).
func (m *model) permanentWalks(li *loopInfo, response bool, walk func(assume) *walker) []*Permanent {
	byNode := map[ast.Node]*Permanent{}
	var order []*Permanent
	note := func(n ast.Node, status int, code string) {
		p := byNode[n]
		if p == nil {
			p = &Permanent{Node: n}
			byNode[n] = p
			order = append(order, p)
		}
		if status != 0 && !containsInt(p.Statuses, status) {
			p.Statuses = append(p.Statuses, status)
		}
		if code != "" && !containsStr(p.Codes, code) {
			p.Codes = append(p.Codes, code)
		}
	}
	if li.status {
		for _, s := range permanentStatuses {
			for _, a := range []assume{{err: no, status: s, code: -1}, {err: yes, status: s, code: -1, errStatus: true}} {
				if (a.errStatus && !li.errStatus) || (!a.errStatus && !response) {
					continue
				}
				w := walk(a)
				for _, st := range w.round {
					if st.via == nil || st.blind || (s == 401 && st.refresh) {
						continue
					}
					note(st.via, s, "")
				}
			}
		}
	}
	if li.codes {
		names := make([]string, 0, len(m.rt.PermanentCodes))
		for n := range m.rt.PermanentCodes {
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool { return m.rt.PermanentCodes[names[i]] < m.rt.PermanentCodes[names[j]] })
		for _, name := range names {
			w := walk(assume{err: yes, code: m.rt.PermanentCodes[name]})
			for _, st := range w.round {
				if st.via == nil || st.blind || (name == "Unauthenticated" && st.refresh) {
					continue
				}
				note(st.via, 0, name)
			}
		}
	}
	for _, p := range order {
		sort.Ints(p.Statuses)
	}
	return order
}

// mergePermanent merges the entries of a list that have the same node (one
// per retried call), keeping the first's place.
func mergePermanent(list []*Permanent) []*Permanent {
	byNode := map[ast.Node]*Permanent{}
	var out []*Permanent
	for _, p := range list {
		q := byNode[p.Node]
		if q == nil {
			byNode[p.Node] = p
			out = append(out, p)
			continue
		}
		for _, s := range p.Statuses {
			if !containsInt(q.Statuses, s) {
				q.Statuses = append(q.Statuses, s)
			}
		}
		for _, c := range p.Codes {
			if !containsStr(q.Codes, c) {
				q.Codes = append(q.Codes, c)
			}
		}
		sort.Ints(q.Statuses)
	}
	return out
}

// permanentStatuses are the 4xx statuses a retry cannot fix (not 408, 425,
// 429).
var permanentStatuses = []int{400, 401, 402, 403, 404, 405, 406, 407, 409, 410, 411, 412, 413, 414, 415,
	416, 417, 418, 421, 422, 423, 424, 426, 428, 431, 451}

func containsInt(list []int, x int) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}

func containsStr(list []string, x string) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}
