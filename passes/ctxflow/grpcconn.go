package ctxflow

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/internal/analysisutil"
)

// ConnFact is exported for a function that returns a gRPC client
// connection (or a client made from one) whose dial options are known: what
// they bound, for unary calls and for streams (see [Model.ConnBound]).
type ConnFact struct {
	Unary, Stream Bound
	// OptParam, when not 0, is the 1-based index of the function's
	// variadic dial-option parameter whose options the connection is also
	// dialled with (Dial(target string, extra ...grpc.DialOption)): Unary
	// and Stream are then the bounds of the function's own options, and a
	// call's own options decide where those set none.
	OptParam int
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
	s := "conn{unary " + name(f.Unary) + ", stream " + name(f.Stream)
	if f.OptParam > 0 {
		s += fmt.Sprintf(", options of parameter %d", f.OptParam)
	}
	return s + "}"
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
	return m.connBound(e, stream, newConnEnv(nil), 0)
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

func (m *Model) connBound(e ast.Expr, stream bool, env *connEnv, depth int) Bound {
	if depth > maxDepth || e == nil {
		return BoundUnknown
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return m.connBound(x.X, stream, env, depth+1)
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
				r, first = joinBounds(r, m.connBound(el, stream, env, depth+1), first), false
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
			r = joinBounds(r, m.connBound(v, stream, env, depth+1), i == 0)
		}
		return r
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		if !ok || !m.local(v) || m.addrTaken[v] {
			return BoundUnknown
		}
		if env.seen[v] {
			return BoundUnknown
		}
		env.seen[v] = true
		defer delete(env.seen, v)
		if _, isParam := m.params[v]; isParam {
			// heartbeat(conn) called only here: the arguments it is given.
			vals, ok := m.paramValues(v, depth)
			if !ok || len(m.defs[v]) > 0 {
				return BoundUnknown
			}
			r := BoundUnknown
			for i, a := range vals {
				r = joinBounds(r, m.connBound(a, stream, env, depth+1), i == 0)
			}
			return r
		}
		r, first := BoundUnknown, true
		for _, d := range m.defs[v] {
			if d.rhs == nil || d.index > 0 {
				return BoundUnknown
			}
			r, first = joinBounds(r, m.connBound(d.rhs, stream, env, depth+1), first), false
		}
		return r
	case *ast.CallExpr:
		fn, _ := m.Callee(x)
		if fn == nil {
			return BoundUnknown
		}
		g := &m.Table.GRPC
		if first, ok := g.Dials[analysisutil.Key(fn)]; ok {
			return m.argOptionsBound(x, first, stream, env, depth)
		}
		// A client constructor taking the connection (NewInventoryClient(cc)).
		sig, _ := fn.Type().(*types.Signature)
		for i := 0; sig != nil && i < sig.Params().Len() && i < len(x.Args); i++ {
			if slices.Contains(g.ConnTypes, analysisutil.TypeKey(sig.Params().At(i).Type())) {
				return m.connBound(x.Args[i], stream, env, depth+1)
			}
		}
		// A dial helper of the module (conn, err := warehouse.Dial(addr)).
		if fn.Pkg() != nil && fn.Pkg() != m.Pass.Pkg {
			f := new(ConnFact)
			if !m.Pass.ImportObjectFact(fn.Origin(), f) {
				return BoundUnknown
			}
			b := f.Unary
			if stream {
				b = f.Stream
			}
			if b == NoTimeout && f.OptParam > 0 {
				// Its own options set none: the ones this call adds decide.
				return m.argOptionsBound(x, f.OptParam-1, stream, env, depth+1)
			}
			return b
		}
		if p := m.optionParam(fn); p != nil {
			// An own dial helper taking options: its body is read with
			// the options this call gives it.
			b := m.argOptionsBound(x, sig.Params().Len()-1, stream, env, depth+1)
			if b != NoTimeout {
				return b
			}
			saved, had := env.args[p]
			env.args[p] = b
			defer func() {
				if had {
					env.args[p] = saved
				} else {
					delete(env.args, p)
				}
			}()
		}
		return m.returnsConn(fn, stream, env, depth+1)
	}
	return BoundUnknown
}

// connFact computes the ConnFact of a function of this package, nil when
// nothing is known. The options a dial helper adds from its variadic
// option parameter are left to each call.
func (m *Model) connFact(fn *types.Func) *ConnFact {
	p := m.optionParam(fn)
	f := &ConnFact{}
	used := false
	for _, stream := range []bool{false, true} {
		env := newConnEnv(p)
		b := m.returnsConn(fn, stream, env, 0)
		used = used || (env.usedFree && b == NoTimeout)
		if stream {
			f.Stream = b
		} else {
			f.Unary = b
		}
	}
	if f.Unary == BoundUnknown && f.Stream == BoundUnknown {
		return nil
	}
	if used {
		sig := fn.Type().(*types.Signature)
		f.OptParam = sig.Params().Len()
	}
	return f
}

// returnsConn is the ConnBound of what a function of this package returns
// first, on every return that gives one.
func (m *Model) returnsConn(fn *types.Func, stream bool, env *connEnv, depth int) Bound {
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
		r, first = joinBounds(r, m.connBound(e, stream, env, depth+1), first), false
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
