package ctxflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"net"
	"slices"
	"strings"

	"github.com/resilint/resilint/internal/analysisutil"
)

// The process talking to itself (issue 13, rule 1): the address of a
// listener the package opens on a loopback or unspecified host, and the URL
// of a server that listens on a loopback address of its own choosing
// (httptest), are shapes like any other: "127.0.0.1:" and the port.

// listenerAddrShapes returns the shapes of addr.String() for addr a
// listener's own address (ln.Addr()), when the listener is opened in sight
// (net.Listen) on a TCP network and a loopback or unspecified host. Its
// address then has the host the listener bound: a loopback address, or the
// unspecified address of the network's family.
func (m *Model) listenerAddrShapes(addr ast.Expr, depth int) ([]Shape, bool) {
	call, ok := ast.Unparen(addr).(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	fn, ln := m.Callee(call)
	if fn == nil || ln == nil || !m.Table.Locality.ListenerAddrs[analysisutil.Key(fn)] {
		return nil, false
	}
	if sel, ok := ast.Unparen(ln).(*ast.SelectorExpr); ok {
		if out, ok := m.serverListenerShapes(sel); ok {
			return out, true // srv.Listener.Addr() of a loopback test server
		}
	}
	srcs, ok := m.Sources(ln)
	if !ok || len(srcs) == 0 {
		return nil, false
	}
	var out []Shape
	for _, src := range srcs {
		open, isCall := ast.Unparen(src).(*ast.CallExpr)
		if !isCall {
			return nil, false
		}
		fn, _ := m.Callee(open)
		if fn == nil {
			return nil, false
		}
		row, ok := m.Table.Locality.Listens[analysisutil.Key(fn)]
		if !ok || row[0] >= len(open.Args) || row[1] >= len(open.Args) {
			return nil, false
		}
		s, ok := m.boundShapes(open.Args[row[0]], open.Args[row[1]], depth)
		if !ok {
			return nil, false
		}
		out = append(out, s...)
	}
	return out, true
}

// boundShapes returns the shapes of the address a TCP listener opened on
// network and address is bound to, when its host is loopback or
// unspecified.
func (m *Model) boundShapes(network, address ast.Expr, depth int) ([]Shape, bool) {
	nets, ok := m.shapes(network, map[*types.Var]bool{}, depth+1)
	if !ok {
		return nil, false
	}
	addrs, ok := m.shapes(address, map[*types.Var]bool{}, depth+1)
	if !ok {
		return nil, false
	}
	var out []Shape
	for _, n := range nets {
		if !n.Whole || !slices.Contains([]string{"tcp", "tcp4", "tcp6"}, n.Prefix) {
			return nil, false
		}
		for _, a := range addrs {
			if !a.Whole {
				return nil, false
			}
			host, _, err := net.SplitHostPort(a.Prefix)
			if err != nil {
				return nil, false
			}
			hosts := m.boundHosts(n.Prefix, host)
			if hosts == nil {
				return nil, false
			}
			for _, h := range hosts {
				if strings.Contains(h, ":") {
					h = "[" + h + "]"
				}
				out = append(out, Shape{Prefix: h + ":"})
			}
		}
	}
	return out, true
}

// boundHosts returns the hosts a listener on network ("tcp", "tcp4",
// "tcp6") and host can be bound to, or nil when the host is neither
// loopback nor unspecified.
func (m *Model) boundHosts(network, host string) []string {
	v4, v6 := network != "tcp6", network != "tcp4"
	pick := func(a, b string) []string {
		var out []string
		if v4 {
			out = append(out, a)
		}
		if v6 {
			out = append(out, b)
		}
		return out
	}
	if host == "" {
		return pick("0.0.0.0", "::")
	}
	if slices.Contains(m.Table.Locality.LoopbackHosts, strings.ToLower(host)) {
		return pick("127.0.0.1", "::1")
	}
	ip := net.ParseIP(host)
	if ip != nil && (ip.IsLoopback() || ip.IsUnspecified()) {
		return []string{ip.String()}
	}
	return nil
}

// serverURLShapes returns the shapes of srv.URL for a field that holds a
// server's URL (httptest.Server.URL) of a server made by a constructor
// that listens on loopback.
func (m *Model) serverURLShapes(sel *ast.SelectorExpr) ([]Shape, bool) {
	s, ok := m.info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal || len(s.Index()) != 1 {
		return nil, false
	}
	if !m.Table.Locality.ServerURLs[analysisutil.TypeKey(s.Recv())+"."+sel.Sel.Name] {
		return nil, false
	}
	srcs, ok := m.Sources(sel.X)
	if !ok || len(srcs) == 0 {
		return nil, false
	}
	var out []Shape
	for _, src := range srcs {
		call, isCall := ast.Unparen(src).(*ast.CallExpr)
		if !isCall {
			return nil, false
		}
		fn, _ := m.Callee(call)
		prefixes, ok := m.Table.Locality.LoopbackServers[analysisutil.Key(fn)]
		if fn == nil || !ok {
			return nil, false
		}
		for _, p := range prefixes {
			out = append(out, Shape{Prefix: p})
		}
	}
	return out, true
}

// serverListenerShapes returns the shapes of the address of a field that
// holds a loopback server's listener (httptest.Server.Listener), when the
// server is made by a loopback constructor and the package never assigns
// that field (a listener of its own could bind anything).
func (m *Model) serverListenerShapes(sel *ast.SelectorExpr) ([]Shape, bool) {
	s, ok := m.info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal || len(s.Index()) != 1 {
		return nil, false
	}
	prefixes, ok := m.Table.Locality.ServerListeners[analysisutil.TypeKey(s.Recv())+"."+sel.Sel.Name]
	if !ok || m.fieldAssigned(s.Obj(), m.rootVar(sel.X)) {
		return nil, false
	}
	// The server: a variable every definition of which is a loopback
	// constructor's result (its other fields may be set: srv.TLS = cfg).
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil, false
	}
	v := m.varOf(id)
	if v == nil || !m.local(v) || m.addrTaken[v] || len(m.defs[v]) == 0 {
		return nil, false
	}
	if _, isParam := m.params[v]; isParam {
		return nil, false
	}
	for _, d := range m.defs[v] {
		call, isCall := ast.Unparen(d.rhs).(*ast.CallExpr)
		if d.rhs == nil || !isCall || d.index > 0 {
			return nil, false
		}
		fn, _ := m.Callee(call)
		if fn == nil {
			return nil, false
		}
		if _, ok := m.Table.Locality.LoopbackServers[analysisutil.Key(fn)]; !ok {
			return nil, false
		}
	}
	out := make([]Shape, len(prefixes))
	for i, p := range prefixes {
		out[i] = Shape{Prefix: p}
	}
	return out, true
}

// fieldAssigned reports whether the package assigns the field (x.F = v,
// or takes its address) through the variable root, or through anything
// when root is nil or is not what the assignment's selector starts from.
func (m *Model) fieldAssigned(f types.Object, root *types.Var) bool {
	through := func(x ast.Expr) bool {
		r := m.rootVar(x)
		return root == nil || r == nil || r == root
	}
	found := false
	for _, file := range m.Pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			if found {
				return false
			}
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && m.info.Uses[sel.Sel] == f && through(sel.X) {
						found = true
					}
				}
			case *ast.UnaryExpr:
				if sel, ok := ast.Unparen(n.X).(*ast.SelectorExpr); ok && n.Op == token.AND && m.info.Uses[sel.Sel] == f && through(sel.X) {
					found = true
				}
			}
			return true
		})
	}
	return found
}
