package ctxflow

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// Client returns what is known about the timeout of a client or dialer
// expression (an *http.Client, a *net.Dialer).
func (m *Model) Client(e ast.Expr) Bound {
	m.Index()
	return m.client(e, map[*types.Var]bool{}, 0)
}

func (m *Model) client(e ast.Expr, seen map[*types.Var]bool, depth int) Bound {
	if depth > maxDepth {
		return BoundUnknown
	}
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return m.client(x.X, seen, depth+1)
		}
	case *ast.StarExpr:
		return m.client(x.X, seen, depth+1)
	case *ast.CompositeLit:
		ct, ok := m.Table.ClientTypes[analysisutil.TypeKey(m.info.TypeOf(x))]
		if !ok {
			return BoundUnknown
		}
		b := m.litTimeout(x, ct.TimeoutField, seen, depth)
		if b == NoTimeout && ct.DeadlineField != "" {
			b = m.litTimeout(x, ct.DeadlineField, seen, depth)
		}
		if b == NoTimeout && ct.TransportField != "" {
			if t := litValue(x, ct.TransportField); t != nil {
				b = m.transport(t, seen, depth+1)
			}
		}
		return b
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && id.Name == "new" && len(x.Args) == 1 {
			if _, isBuiltin := m.info.Uses[id].(*types.Builtin); isBuiltin {
				if _, ok := m.Table.ClientTypes[analysisutil.TypeKey(m.info.TypeOf(x.Args[0]))]; ok {
					return NoTimeout
				}
			}
			return BoundUnknown
		}
		fn, _ := m.Callee(x)
		if fn != nil {
			if cv, ok := m.Table.Clients[analysisutil.Key(fn)]; ok {
				return boundOf(cv)
			}
			if fn.Pkg() != nil && fn.Pkg() != m.Pass.Pkg {
				// A constructor of another package of the module.
				f := new(ClientFact)
				if m.Pass.ImportObjectFact(fn.Origin(), f) {
					return f.Bound
				}
				return BoundUnknown
			}
			return m.constructed(fn, seen, depth)
		}
	case *ast.SelectorExpr:
		if v, ok := m.info.Uses[x.Sel].(*types.Var); ok && !v.IsField() {
			return m.clientVar(v, seen, depth)
		}
		if v, ok := m.info.Uses[x.Sel].(*types.Var); ok && v.IsField() {
			return m.fieldClient(v, seen, depth)
		}
	case *ast.Ident:
		if v, ok := m.info.Uses[x].(*types.Var); ok {
			return m.clientVar(v, seen, depth)
		}
	}
	return BoundUnknown
}

// fieldClient is what is known about the timeout of a client kept in a
// struct field: for an unexported field of this package, which no other
// package can set, the values the package gives it (in literals and
// assignments) when they all agree; unknown if it gives none, takes the
// field's address, or sets anything through it (c.rc.HTTPClient.Timeout =
// d, c.hc.Transport = t).
func (m *Model) fieldClient(f *types.Var, seen map[*types.Var]bool, depth int) Bound {
	if _, ok := m.Table.ClientTypes[analysisutil.TypeKey(f.Type())]; !ok {
		return BoundUnknown
	}
	vals, ok := m.FieldValues(f)
	if !ok {
		return BoundUnknown
	}
	var b Bound
	for i, e := range vals {
		bi := m.client(e, seen, depth+1)
		if bi == BoundUnknown || i > 0 && bi != b {
			return BoundUnknown
		}
		b = bi
	}
	return b
}

// indexFields records the values the package gives struct fields of its
// own, and the fields it cannot follow.
func (m *Model) indexFields() {
	m.fieldVals = map[*types.Var][]ast.Expr{}
	m.fieldOpaque = map[*types.Var]bool{}
	field := func(e ast.Expr) *types.Var { return analysisutil.FieldOf(m.info, e) }
	// through marks every field an lvalue goes through (c.rc in
	// c.rc.HTTPClient.Timeout) as set out of sight.
	through := func(e ast.Expr) {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return
		}
		for x := ast.Unparen(sel.X); ; {
			s, ok := x.(*ast.SelectorExpr)
			if !ok {
				break
			}
			if f := field(s); f != nil {
				m.fieldOpaque[f] = true
			}
			x = ast.Unparen(s.X)
		}
	}
	m.ins.Preorder([]ast.Node{(*ast.CompositeLit)(nil), (*ast.AssignStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.IncDecStmt)(nil)}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.CompositeLit:
			st, ok := types.Unalias(m.info.TypeOf(n)).Underlying().(*types.Struct)
			if !ok {
				return
			}
			for i, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						if f, ok := m.info.Uses[id].(*types.Var); ok && f.IsField() {
							m.fieldVals[f] = append(m.fieldVals[f], kv.Value)
						}
					}
					continue
				}
				if i < st.NumFields() {
					m.fieldVals[st.Field(i)] = append(m.fieldVals[st.Field(i)], el)
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				through(l)
				f := field(l)
				if f == nil {
					continue
				}
				if n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
					m.fieldOpaque[f] = true
					continue
				}
				m.fieldVals[f] = append(m.fieldVals[f], n.Rhs[i])
			}
		case *ast.IncDecStmt:
			through(n.X)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if f := field(n.X); f != nil {
					m.fieldOpaque[f] = true
				}
				through(n.X)
			}
		}
	})
}

// litTimeout reads the timeout field path of a client composite literal;
// a dotted path goes through a nested literal or a dialer variable
// (tls.Dialer{NetDialer: &net.Dialer{Timeout: d}}).
func (m *Model) litTimeout(lit *ast.CompositeLit, path string, seen map[*types.Var]bool, depth int) Bound {
	if depth > maxDepth {
		return BoundUnknown
	}
	head, rest, nested := strings.Cut(path, ".")
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return BoundUnknown // positional fields: do not guess
		}
		if id, ok := kv.Key.(*ast.Ident); !ok || id.Name != head {
			continue
		}
		if !nested {
			return m.timeoutValue(kv.Value)
		}
		v := ast.Unparen(kv.Value)
		if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
			v = ast.Unparen(u.X)
		}
		if inner, ok := v.(*ast.CompositeLit); ok {
			return m.litTimeout(inner, rest, seen, depth+1)
		}
		return m.client(kv.Value, seen, depth+1)
	}
	return NoTimeout
}

// constructed reads the client a function of this package returns: every
// return statement of its body gives a client of the same bound
// (func newClient() *http.Client { return &http.Client{...} }).
func (m *Model) constructed(fn *types.Func, seen map[*types.Var]bool, depth int) Bound {
	decl := m.decls[fn.Origin()]
	if decl == nil || decl.Body == nil || depth > maxDepth {
		return BoundUnknown
	}
	r, found := BoundUnknown, false
	ok := true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) == 0 {
				ok = false
				return false
			}
			if len(n.Results) > 1 && m.info.Types[n.Results[0]].IsNil() {
				return true // return nil, err: no client
			}
			b := m.client(n.Results[0], seen, depth+1)
			if b == BoundUnknown || (found && b != r) {
				ok = false
				return false
			}
			r, found = b, true
		}
		return true
	})
	if !ok || !found {
		return BoundUnknown
	}
	return r
}

func boundOf(cv knowledge.ClientValue) Bound {
	if cv.HasTimeout {
		return HasTimeout
	}
	return NoTimeout
}

func (m *Model) clientVar(v *types.Var, seen map[*types.Var]bool, depth int) Bound {
	if seen[v] || m.addrTaken[v] {
		return BoundUnknown
	}
	if m.local(v) && m.handedOn(v, map[*types.Var]bool{}, depth) {
		return BoundUnknown // configured out of sight (o(c) for each option)
	}
	// A timeout set by a field assignment anywhere in the package counts;
	// so does a transport set there (c.Transport = t).
	var transports []ast.Expr
	if ct, ok := m.Table.ClientTypes[analysisutil.TypeKey(v.Type())]; ok {
		for _, fs := range m.fieldSets[v] {
			if ct.TransportField != "" && fs.path == ct.TransportField {
				transports = append(transports, fs.rhs)
				continue
			}
			if ct.TransportField != "" && strings.HasPrefix(fs.path, ct.TransportField+".") {
				return BoundUnknown // c.Transport.(*http.Transport).X = ...: out of reach
			}
			if fs.path == ct.TimeoutField || ct.DeadlineField != "" && fs.path == ct.DeadlineField {
				if m.timeoutValue(fs.rhs) == HasTimeout {
					return HasTimeout
				}
				return BoundUnknown
			}
			if strings.HasPrefix(ct.TimeoutField, fs.path+".") {
				// d.NetDialer = &net.Dialer{...}: read the rest there.
				if m.client(fs.rhs, seen, depth+1) == HasTimeout {
					return HasTimeout
				}
				return BoundUnknown
			}
		}
	}
	withTransports := func(b Bound) Bound {
		for _, t := range transports {
			if b != NoTimeout {
				break
			}
			b = m.transport(t, seen, depth+1)
		}
		return b
	}
	if cv, ok := m.Table.Clients[analysisutil.VarKey(v)]; ok && !m.local(v) {
		return withTransports(boundOf(cv))
	}
	if !m.local(v) {
		return BoundUnknown
	}
	seen[v] = true
	defer delete(seen, v)
	if _, isParam := m.params[v]; isParam {
		vals, ok := m.paramValues(v, depth)
		if !ok || len(m.defs[v]) > 0 || len(transports) > 0 {
			return BoundUnknown
		}
		r := BoundUnknown
		for i, a := range vals {
			b := m.client(a, seen, depth+1)
			if b == BoundUnknown || i > 0 && b != r {
				return BoundUnknown
			}
			r = b
		}
		return r
	}
	var r Bound
	first := true
	for _, d := range m.defs[v] {
		var b Bound
		switch {
		case d.zero:
			if _, ok := m.Table.ClientTypes[analysisutil.TypeKey(v.Type())]; ok {
				if _, isPtr := v.Type().Underlying().(*types.Pointer); !isPtr {
					b = NoTimeout
				}
			}
		case d.rhs != nil && d.index < 0:
			b = m.client(d.rhs, seen, depth+1)
		case d.rhs != nil && d.index == 0:
			if call, ok := ast.Unparen(d.rhs).(*ast.CallExpr); ok {
				b = m.client(call, seen, depth+1) // hc, err := newClient()
			}
		}
		if first {
			r, first = b, false
		} else if r != b {
			return BoundUnknown
		}
		if r == BoundUnknown {
			return BoundUnknown
		}
	}
	return withTransports(r)
}

// litValue returns the value a keyed composite literal gives a field, or
// nil.
func litValue(lit *ast.CompositeLit, name string) ast.Expr {
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return kv.Value
			}
		}
	}
	return nil
}

// transport is what a client's transport adds to the bound of the wait for
// an answer: HasTimeout when it sets a response-header timeout; NoTimeout
// when it provably sets none and dials only with a dialer's own methods
// (which wrap no connection in deadlines); unknown otherwise (a transport
// of unknown make, a RoundTripper wrapper, a custom dial function).
func (m *Model) transport(e ast.Expr, seen map[*types.Var]bool, depth int) Bound {
	if depth > maxDepth || e == nil {
		return BoundUnknown
	}
	e = ast.Unparen(e)
	if m.info.Types[e].IsNil() {
		return NoTimeout // the default transport
	}
	switch x := e.(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return m.transport(x.X, seen, depth+1)
		}
	case *ast.TypeAssertExpr:
		return m.transport(x.X, seen, depth+1) // http.DefaultTransport.(*http.Transport)
	case *ast.CompositeLit:
		tt, ok := m.Table.TransportTypes[analysisutil.TypeKey(m.info.TypeOf(x))]
		if !ok {
			return BoundUnknown
		}
		for _, el := range x.Elts {
			if _, keyed := el.(*ast.KeyValueExpr); !keyed {
				return BoundUnknown
			}
		}
		if v := litValue(x, tt.ResponseHeaderField); v != nil && m.timeoutValue(v) == HasTimeout {
			return HasTimeout
		}
		for _, f := range tt.DialFields {
			if v := litValue(x, f); v != nil && !m.dialerMethod(v) {
				return BoundUnknown
			}
		}
		return NoTimeout
	case *ast.CallExpr:
		fn, recv := m.Callee(x)
		if fn == nil {
			return BoundUnknown
		}
		if m.Table.TransportCopies[analysisutil.Key(fn)] && recv != nil {
			return m.transport(recv, seen, depth+1)
		}
		decl := m.decls[fn.Origin()]
		if decl == nil || decl.Body == nil {
			return BoundUnknown
		}
		r, found, ok := BoundUnknown, false, true
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(n.Results) == 0 {
					ok = false
					break
				}
				b := m.transport(n.Results[0], seen, depth+1)
				if b == BoundUnknown || found && b != r {
					ok = false
				}
				r, found = b, true
			}
			return ok
		})
		if !ok || !found {
			return BoundUnknown
		}
		return r
	case *ast.SelectorExpr:
		if f := analysisutil.FieldOf(m.info, x); f != nil {
			vals, ok := m.FieldValues(f)
			if !ok {
				return BoundUnknown
			}
			return m.transports(vals, seen, depth)
		}
		if v, ok := m.info.Uses[x.Sel].(*types.Var); ok {
			return m.transportVar(v, seen, depth)
		}
	case *ast.Ident:
		if v, ok := m.info.Uses[x].(*types.Var); ok {
			return m.transportVar(v, seen, depth)
		}
	}
	return BoundUnknown
}

func (m *Model) transports(es []ast.Expr, seen map[*types.Var]bool, depth int) Bound {
	r := BoundUnknown
	for i, e := range es {
		b := m.transport(e, seen, depth+1)
		if b == BoundUnknown || i > 0 && b != r {
			return BoundUnknown
		}
		r = b
	}
	return r
}

func (m *Model) transportVar(v *types.Var, seen map[*types.Var]bool, depth int) Bound {
	if seen[v] || m.addrTaken[v] {
		return BoundUnknown
	}
	tt, isTransport := m.Table.TransportTypes[analysisutil.TypeKey(v.Type())]
	// Fields set anywhere in the package (t.ResponseHeaderTimeout = d,
	// t.DialContext = f).
	for _, fs := range m.fieldSets[v] {
		switch {
		case !isTransport:
			return BoundUnknown
		case fs.path == tt.ResponseHeaderField:
			if m.timeoutValue(fs.rhs) == HasTimeout {
				return HasTimeout
			}
		case slices.Contains(tt.DialFields, fs.path):
			if !m.dialerMethod(fs.rhs) {
				return BoundUnknown
			}
		}
	}
	if !m.local(v) {
		if m.Table.DefaultTransports[analysisutil.VarKey(v)] {
			return NoTimeout
		}
		return BoundUnknown
	}
	seen[v] = true
	defer delete(seen, v)
	if _, isParam := m.params[v]; isParam {
		vals, ok := m.paramValues(v, depth)
		if !ok || len(m.defs[v]) > 0 {
			return BoundUnknown
		}
		return m.transports(vals, seen, depth)
	}
	var vals []ast.Expr
	for _, d := range m.defs[v] {
		switch {
		case d.rhs != nil && d.index < 0:
			vals = append(vals, d.rhs)
		case d.rhs != nil && d.index == 0:
			if _, ok := ast.Unparen(d.rhs).(*ast.CallExpr); !ok {
				return BoundUnknown
			}
			vals = append(vals, d.rhs)
		default:
			return BoundUnknown
		}
	}
	if len(vals) == 0 {
		return BoundUnknown
	}
	return m.transports(vals, seen, depth)
}

// dialerMethod reports whether a dial function is a dialer's own method
// ((&net.Dialer{Timeout: d}).DialContext, dialer.DialContext): it returns
// plain connections, which set no deadline on reads.
func (m *Model) dialerMethod(e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s, ok := m.info.Selections[sel]
	if !ok || s.Kind() != types.MethodVal {
		return false
	}
	_, known := m.Table.ClientTypes[analysisutil.TypeKey(s.Recv())]
	return known
}

// timeoutValue reads the value given to a Timeout field: a constant zero is
// no timeout, anything else is a timeout.
func (m *Model) timeoutValue(e ast.Expr) Bound {
	if tv, ok := m.info.Types[e]; ok && tv.Value != nil {
		if tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) <= 0 {
			return NoTimeout
		}
	}
	return HasTimeout
}

// GlobalTimeout reports whether the package sets the timeout field of the
// package-level client variable key (http.DefaultClient.Timeout = d).
func (m *Model) GlobalTimeout(key string) bool {
	m.Index()
	for v, sets := range m.fieldSets {
		if analysisutil.VarKey(v) != key {
			continue
		}
		ct, ok := m.Table.ClientTypes[analysisutil.TypeKey(v.Type())]
		if !ok {
			continue
		}
		for _, fs := range sets {
			if fs.path == ct.TimeoutField && m.timeoutValue(fs.rhs) == HasTimeout {
				return true
			}
		}
	}
	return false
}
