package ctxflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// DeadlineConnFact is exported for a function that returns a gRPC client
// connection (or a client made from one) dialled with an option that can
// give every call a deadline (see [Model.DeadlineConn]).
type DeadlineConnFact struct{}

func (*DeadlineConnFact) AFact() {}

func (*DeadlineConnFact) String() string { return "deadline conn" }

// DeadlineConn reports whether e, a gRPC client connection or a generated
// client made from one, traces back to a connection dialled with an option
// that can give its calls a deadline (a unary interceptor, a service config
// with a "timeout"), or with options that cannot be read: a call on it may
// be bounded, and resilint stays silent.
func (m *Model) DeadlineConn(e ast.Expr) bool {
	m.Index()
	return m.deadlineConn(e, map[*types.Var]bool{}, 0)
}

func (m *Model) deadlineConn(e ast.Expr, seen map[*types.Var]bool, depth int) bool {
	if depth > maxDepth || e == nil {
		return false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return m.deadlineConn(x.X, seen, depth+1)
		}
	case *ast.CompositeLit:
		// A wrapper made here (&Client{conn: conn, certs: pb.NewCertsClient(conn)}):
		// its connection or generated client.
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			if t := m.info.TypeOf(el); t != nil && m.connOrClient(t) && m.deadlineConn(el, seen, depth+1) {
				return true
			}
		}
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		if !ok || seen[v] || !m.local(v) {
			return false
		}
		seen[v] = true
		for _, d := range m.defs[v] {
			if d.rhs != nil && d.index <= 0 && m.deadlineConn(d.rhs, seen, depth+1) {
				return true
			}
		}
	case *ast.CallExpr:
		fn, _ := m.Callee(x)
		if fn == nil {
			return false
		}
		g := &m.Table.GRPC
		if first, ok := g.Dials[analysisutil.Key(fn)]; ok {
			return m.deadlineOptions(x, first, depth)
		}
		// A dial helper of the module (conn, err := warehouse.Dial(addr)).
		if fn.Pkg() != nil && fn.Pkg() != m.Pass.Pkg {
			if m.Pass.ImportObjectFact(fn.Origin(), new(DeadlineConnFact)) {
				return true
			}
		} else if m.returnsDeadlineConn(fn, seen, depth+1) {
			return true
		}
		// A client constructor taking the connection (NewInventoryClient(cc)).
		sig, _ := fn.Type().(*types.Signature)
		for i := 0; sig != nil && i < sig.Params().Len() && i < len(x.Args); i++ {
			if slices.Contains(g.ConnTypes, analysisutil.TypeKey(sig.Params().At(i).Type())) {
				return m.deadlineConn(x.Args[i], seen, depth+1)
			}
		}
	}
	return false
}

// DialsWithDeadline reports whether a function of this package returns a
// gRPC connection or client dialled with an option that can give its calls
// a deadline (a dial helper with a deadline interceptor). A generated client
// the package keeps in a struct field, from a connection it is given, most
// likely comes from that helper: a call on it may be bounded.
func (m *Model) DialsWithDeadline() bool {
	m.Index()
	m.dialsOnce.Do(func() {
		for fn := range m.decls {
			if m.returnsDeadlineConn(fn, map[*types.Var]bool{}, 0) {
				m.dials = true
				return
			}
		}
	})
	return m.dials
}

// returnsDeadlineConn reports whether a function of this package returns,
// first, a connection or client that DeadlineConn traces to a dial with a
// deadline option.
func (m *Model) returnsDeadlineConn(fn *types.Func, seen map[*types.Var]bool, depth int) bool {
	decl := m.decls[fn.Origin()]
	if decl == nil || decl.Body == nil || depth > maxDepth {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Results().Len() == 0 {
		return false
	}
	if !m.connOrClient(sig.Results().At(0).Type()) {
		return false // not worth reading the body (every exported function is asked)
	}
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) > 0 && !found && m.deadlineConn(n.Results[0], seen, depth+1) {
				found = true
			}
		}
		return !found
	})
	return found
}

// connOrClient reports whether t is a connection type or a generated
// client: an interface of methods taking call options, or (a pointer to) a
// struct with a field of a connection type.
func (m *Model) connOrClient(t types.Type) bool {
	g := &m.Table.GRPC
	if slices.Contains(g.ConnTypes, analysisutil.TypeKey(t)) {
		return true
	}
	switch u := analysisutil.Deref(t).Underlying().(type) {
	case *types.Interface:
		return m.generatedClient(u)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			ft := u.Field(i).Type()
			if slices.Contains(g.ConnTypes, analysisutil.TypeKey(ft)) || m.generatedClient(ft) {
				return true
			}
		}
	}
	return false
}

// generatedClient reports whether t is a generated gRPC client: an
// interface of methods taking call options.
func (m *Model) generatedClient(t types.Type) bool {
	u, ok := types.Unalias(t).Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for i := 0; i < u.NumMethods(); i++ {
		sig, _ := u.Method(i).Type().(*types.Signature)
		if sig == nil || !sig.Variadic() {
			continue
		}
		if sl, ok := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice); ok && analysisutil.TypeKey(sl.Elem()) == m.Table.GRPC.CallOption {
			return true
		}
	}
	return false
}

// deadlineOptions reports whether the dial options of call (from index
// first on) include one that can set deadlines, or cannot be read.
func (m *Model) deadlineOptions(call *ast.CallExpr, first, depth int) bool {
	var opts []ast.Expr
	for i := first; i < len(call.Args); i++ {
		opts = append(opts, call.Args[i])
	}
	if call.Ellipsis.IsValid() && len(opts) > 0 {
		// grpc.NewClient(target, opts...): read the slice's literal and
		// appends; anything else is unreadable.
		last := opts[len(opts)-1]
		opts = opts[:len(opts)-1]
		elems, ok := m.sliceElems(last)
		if !ok {
			return true
		}
		opts = append(opts, elems...)
	}
	for _, o := range opts {
		oc, ok := ast.Unparen(o).(*ast.CallExpr)
		if !ok {
			return true // an option from a variable: unknown
		}
		fn, _ := m.Callee(oc)
		if fn == nil {
			return true
		}
		row, ok := m.Table.GRPC.DeadlineOptions[analysisutil.Key(fn)]
		if !ok {
			if fn.Pkg() != nil && fn.Pkg() == m.Pass.Pkg {
				return true // the package's own option helper: unknown
			}
			continue
		}
		if row.Config == knowledge.None || row.Config >= len(oc.Args) {
			return true
		}
		strs, ok := m.Strings(oc.Args[row.Config])
		if !ok {
			return true
		}
		for _, js := range strs {
			if strings.Contains(js, `"timeout"`) {
				return true
			}
		}
	}
	return false
}

// sliceElems returns the elements a local slice variable is given: its
// composite literal and the values appended to it.
func (m *Model) sliceElems(e ast.Expr) ([]ast.Expr, bool) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil, false
	}
	v, ok := m.info.Uses[id].(*types.Var)
	if !ok || !m.local(v) || m.addrTaken[v] {
		return nil, false
	}
	if _, isParam := m.params[v]; isParam {
		return nil, false
	}
	var out []ast.Expr
	for _, d := range m.defs[v] {
		switch {
		case d.zero:
		case d.rhs == nil || d.index > 0:
			return nil, false
		default:
			switch r := ast.Unparen(d.rhs).(type) {
			case *ast.CompositeLit:
				out = append(out, r.Elts...)
			case *ast.CallExpr:
				// opts = append(opts, x, y)
				if id, ok := ast.Unparen(r.Fun).(*ast.Ident); !ok || id.Name != "append" || len(r.Args) == 0 || r.Ellipsis.IsValid() {
					return nil, false
				}
				if base, ok := ast.Unparen(r.Args[0]).(*ast.Ident); !ok || m.info.Uses[base] != v {
					return nil, false
				}
				out = append(out, r.Args[1:]...)
			default:
				return nil, false
			}
		}
	}
	return out, true
}

// GRPCDials returns the dial calls (grpc.NewClient(target, ...)) that a
// gRPC connection, a generated client made from one, or a wrapper holding
// either traces back to in this package: through variables, unexported
// fields the package alone sets, functions of the package that return
// one, and client constructors taking the connection. It returns nil when
// any value comes from out of sight (a parameter, another package's
// helper).
func (m *Model) GRPCDials(e ast.Expr) []*ast.CallExpr {
	m.Index()
	var out []*ast.CallExpr
	if !m.grpcDials(e, map[*types.Var]bool{}, 0, &out) {
		return nil
	}
	return out
}

func (m *Model) grpcDials(e ast.Expr, seen map[*types.Var]bool, depth int, out *[]*ast.CallExpr) bool {
	if depth > maxDepth || e == nil {
		return false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return m.grpcDials(x.X, seen, depth+1, out)
		}
	case *ast.CompositeLit:
		n := 0
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			if t := m.info.TypeOf(el); t != nil && m.connOrClient(t) {
				if !m.grpcDials(el, seen, depth+1, out) {
					return false
				}
				n++
			}
		}
		return n > 0
	case *ast.SelectorExpr:
		f := analysisutil.FieldOf(m.info, x)
		if f == nil {
			return false
		}
		vals, ok := m.FieldValues(f)
		if !ok {
			return false
		}
		for _, v := range vals {
			if !m.grpcDials(v, seen, depth+1, out) {
				return false
			}
		}
		return true
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		if !ok || !m.local(v) || m.addrTaken[v] {
			return false
		}
		if seen[v] {
			return true
		}
		if _, isParam := m.params[v]; isParam {
			return false
		}
		seen[v] = true
		defer delete(seen, v)
		found := false
		for _, d := range m.defs[v] {
			if d.rhs == nil || d.index > 0 || !m.grpcDials(d.rhs, seen, depth+1, out) {
				return false
			}
			found = true
		}
		return found
	case *ast.CallExpr:
		fn, _ := m.Callee(x)
		if fn == nil {
			return false
		}
		g := &m.Table.GRPC
		if _, ok := g.Dials[analysisutil.Key(fn)]; ok {
			*out = append(*out, x)
			return true
		}
		// A client constructor taking the connection (NewInventoryClient(cc)).
		sig, _ := fn.Type().(*types.Signature)
		for i := 0; sig != nil && i < sig.Params().Len() && i < len(x.Args); i++ {
			if slices.Contains(g.ConnTypes, analysisutil.TypeKey(sig.Params().At(i).Type())) {
				return m.grpcDials(x.Args[i], seen, depth+1, out)
			}
		}
		// A dial helper of this package: what each return gives.
		decl := m.decls[fn.Origin()]
		if decl == nil || decl.Body == nil {
			return false
		}
		ok, n := true, 0
		ast.Inspect(decl.Body, func(nd ast.Node) bool {
			switch r := nd.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(r.Results) == 0 {
					ok = false
				} else if len(r.Results) > 1 && m.info.Types[r.Results[0]].IsNil() {
					// return nil, err
				} else if !m.grpcDials(r.Results[0], seen, depth+1, out) {
					ok = false
				} else {
					n++
				}
			}
			return ok
		})
		return ok && n > 0
	}
	return false
}
