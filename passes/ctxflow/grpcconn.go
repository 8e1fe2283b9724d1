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

// ConnFact is exported for a function that returns a gRPC client
// connection (or a client made from one) whose dial options are known: what
// they bound, for unary calls and for streams (see [Model.ConnBound]).
type ConnFact struct {
	Unary, Stream Bound
}

func (*ConnFact) AFact() {}

func (f *ConnFact) String() string {
	name := func(b Bound) string {
		switch b {
		case HasTimeout:
			return "deadline"
		case NoTimeout:
			return "none"
		}
		return "unknown"
	}
	return "conn{unary " + name(f.Unary) + ", stream " + name(f.Stream) + "}"
}

// ConnBound is what the connection behind e — a gRPC client connection, a
// generated client made from one, or a wrapper holding either — does to
// the deadline of a call (unary, or a stream when stream is set):
// HasTimeout when it was dialled with an option that can give the call a
// deadline (a unary or stream interceptor, a default service config with a
// "timeout") or with options that cannot be read; NoTimeout when every dial
// it traces to is in view (here, or in a dial helper of the module, through
// its ConnFact) and sets none; unknown when it comes from out of sight (a
// parameter, a field given values from outside).
func (m *Model) ConnBound(e ast.Expr, stream bool) Bound {
	m.Index()
	return m.connBound(e, stream, map[*types.Var]bool{}, 0)
}

// joinBounds: unknown unless all agree.
func joinBounds(a, b Bound, first bool) Bound {
	if first {
		return b
	}
	if a != b {
		return BoundUnknown
	}
	return a
}

func (m *Model) connBound(e ast.Expr, stream bool, seen map[*types.Var]bool, depth int) Bound {
	if depth > maxDepth || e == nil {
		return BoundUnknown
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return m.connBound(x.X, stream, seen, depth+1)
		}
	case *ast.CompositeLit:
		// A wrapper made here (&Client{conn: conn, certs: pb.NewCertsClient(conn)}):
		// its connection or generated client.
		r, first := BoundUnknown, true
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			if t := m.info.TypeOf(el); t != nil && m.connOrClient(t) {
				r, first = joinBounds(r, m.connBound(el, stream, seen, depth+1), first), false
			}
		}
		return r
	case *ast.SelectorExpr:
		f := analysisutil.FieldOf(m.info, x)
		if f == nil {
			return BoundUnknown
		}
		vals, ok := m.FieldValues(f)
		if !ok {
			return BoundUnknown
		}
		r := BoundUnknown
		for i, v := range vals {
			r = joinBounds(r, m.connBound(v, stream, seen, depth+1), i == 0)
		}
		return r
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		if !ok || !m.local(v) || m.addrTaken[v] {
			return BoundUnknown
		}
		if seen[v] {
			return BoundUnknown
		}
		seen[v] = true
		defer delete(seen, v)
		if _, isParam := m.params[v]; isParam {
			// heartbeat(conn) called only here: the arguments it is given.
			vals, ok := m.paramValues(v, depth)
			if !ok || len(m.defs[v]) > 0 {
				return BoundUnknown
			}
			r := BoundUnknown
			for i, a := range vals {
				r = joinBounds(r, m.connBound(a, stream, seen, depth+1), i == 0)
			}
			return r
		}
		r, first := BoundUnknown, true
		for _, d := range m.defs[v] {
			if d.rhs == nil || d.index > 0 {
				return BoundUnknown
			}
			r, first = joinBounds(r, m.connBound(d.rhs, stream, seen, depth+1), first), false
		}
		return r
	case *ast.CallExpr:
		fn, _ := m.Callee(x)
		if fn == nil {
			return BoundUnknown
		}
		g := &m.Table.GRPC
		if first, ok := g.Dials[analysisutil.Key(fn)]; ok {
			return m.dialBound(x, first, stream)
		}
		// A client constructor taking the connection (NewInventoryClient(cc)).
		sig, _ := fn.Type().(*types.Signature)
		for i := 0; sig != nil && i < sig.Params().Len() && i < len(x.Args); i++ {
			if slices.Contains(g.ConnTypes, analysisutil.TypeKey(sig.Params().At(i).Type())) {
				return m.connBound(x.Args[i], stream, seen, depth+1)
			}
		}
		// A dial helper of the module (conn, err := warehouse.Dial(addr)).
		if fn.Pkg() != nil && fn.Pkg() != m.Pass.Pkg {
			f := new(ConnFact)
			if !m.Pass.ImportObjectFact(fn.Origin(), f) {
				return BoundUnknown
			}
			if stream {
				return f.Stream
			}
			return f.Unary
		}
		return m.returnsConn(fn, stream, seen, depth+1)
	}
	return BoundUnknown
}

// returnsConn is the ConnBound of what a function of this package returns
// first, on every return that gives one.
func (m *Model) returnsConn(fn *types.Func, stream bool, seen map[*types.Var]bool, depth int) Bound {
	decl := m.decls[fn.Origin()]
	if decl == nil || decl.Body == nil || depth > maxDepth {
		return BoundUnknown
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Results().Len() == 0 || !m.connOrClient(sig.Results().At(0).Type()) {
		return BoundUnknown // not worth reading the body (every exported function is asked)
	}
	results, ok := analysisutil.FirstResults(m.info, decl.Body)
	if !ok {
		return BoundUnknown // named results
	}
	r, first := BoundUnknown, true
	for _, e := range results {
		r, first = joinBounds(r, m.connBound(e, stream, seen, depth+1), first), false
	}
	return r
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

// dialBound reads the dial options of call (from index first on):
// HasTimeout when one can set the deadline of a call of the kind (a unary
// interceptor for unary calls, a stream interceptor for streams, a default
// service config with a "timeout" for both), or cannot be read (an option
// from a variable, or made by a function outside the gRPC package, which may
// install an interceptor); NoTimeout otherwise.
func (m *Model) dialBound(call *ast.CallExpr, first int, stream bool) Bound {
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
			return HasTimeout
		}
		opts = append(opts, elems...)
	}
	fn, _ := m.Callee(call)
	grpcPkg := fn.Pkg()
	for _, o := range opts {
		oc, ok := ast.Unparen(o).(*ast.CallExpr)
		if !ok {
			return HasTimeout // an option from a variable: unknown
		}
		ofn, _ := m.Callee(oc)
		if ofn == nil {
			return HasTimeout
		}
		row, ok := m.Table.GRPC.DeadlineOptions[analysisutil.Key(ofn)]
		if !ok {
			if ofn.Pkg() != grpcPkg {
				return HasTimeout // another package's option helper: unknown
			}
			continue // an option of the gRPC package that sets no deadline
		}
		if row.Config == knowledge.None {
			if row.Stream == stream {
				return HasTimeout
			}
			continue
		}
		if row.Config >= len(oc.Args) {
			return HasTimeout
		}
		strs, ok := m.Strings(oc.Args[row.Config])
		if !ok {
			return HasTimeout
		}
		for _, js := range strs {
			if strings.Contains(js, `"timeout"`) {
				return HasTimeout
			}
		}
	}
	return NoTimeout
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
				if !m.isBuiltin(r.Fun, "append") || len(r.Args) == 0 || r.Ellipsis.IsValid() {
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
	dials, made := m.GRPCOrigins(e)
	if len(made) > 0 {
		return nil
	}
	return dials
}

// GRPCOrigins is GRPCDials that also accepts connections made by
// functions of other packages: it returns the dial calls and the calls of
// those functions (conn, err := platform.Dial()), whose facts say where
// they go. Both are nil when any value comes from out of sight.
func (m *Model) GRPCOrigins(e ast.Expr) (dials, made []*ast.CallExpr) {
	m.Index()
	o := &grpcOrigins{}
	if !m.grpcDials(e, map[*types.Var]bool{}, 0, o) {
		return nil, nil
	}
	return o.dials, o.made
}

// ConnOrClient reports whether t is a gRPC connection type or a generated
// client (or a struct holding one).
func (m *Model) ConnOrClient(t types.Type) bool { return m.connOrClient(t) }

type grpcOrigins struct {
	dials, made []*ast.CallExpr
}

func (m *Model) grpcDials(e ast.Expr, seen map[*types.Var]bool, depth int, out *grpcOrigins) bool {
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
			out.dials = append(out.dials, x)
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
		if decl == nil && fn.Pkg() != m.Pass.Pkg && sig != nil && sig.Results().Len() > 0 && m.connOrClient(sig.Results().At(0).Type()) {
			out.made = append(out.made, x) // another package's constructor
			return true
		}
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
