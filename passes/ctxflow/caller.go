package ctxflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// Caller is the caller's context visible in a function: a context.Context
// parameter, or the Context() of an inbound request parameter.
type Caller struct {
	// Param is the context parameter, or nil.
	Param *types.Var
	// Request is the inbound request parameter, when there is no context
	// parameter.
	Request *types.Var
	// Func is the function or function literal that declares it.
	Func ast.Node
}

// Expr returns how to spell the caller's context at pos, or "" when the
// parameter is shadowed there.
func (c *Caller) Expr(pkg *types.Package, pos token.Pos) string {
	v, suffix := c.Param, ""
	if v == nil {
		v, suffix = c.Request, ".Context()"
	}
	if v == nil || v.Name() == "" || v.Name() == "_" {
		return ""
	}
	if !analysisutil.VisibleAt(pkg, pos, v) {
		return ""
	}
	return v.Name() + suffix
}

// CallerOf returns the caller's context in scope at the innermost function
// of stack (an inspector stack, outermost first): the nearest enclosing
// function or function literal with a context parameter, else with an
// inbound request parameter. It returns nil when there is none, as in main,
// in tests' own contexts and in functions that receive no context, and for
// code in a goroutine that the function does not wait for (go f(...),
// go func() { ... }()): that outlives the caller's budget.
func (m *Model) CallerOf(stack []ast.Node) *Caller {
	m.Index()
	if n := len(stack); n >= 2 {
		if call, ok := stack[n-1].(*ast.CallExpr); ok {
			if g, ok := stack[n-2].(*ast.GoStmt); ok && g.Call == call &&
				!analysisutil.Awaited(m.info, m.Table, g, analysisutil.EnclosingFunc(stack), m.Callee) {
				return nil // go f(ctx2): runs in a goroutine that outlives the caller
			}
		}
	}
	var req, blank *Caller
	innermost := true
	orBlank := func() *Caller {
		if req == nil && blank != nil {
			return blank
		}
		return req
	}
	for i := len(stack) - 1; i >= 0; i-- {
		var ft *ast.FuncType
		switch f := stack[i].(type) {
		case *ast.FuncDecl:
			ft = f.Type
		case *ast.FuncLit:
			ft = f.Type
		default:
			continue
		}
		c, b := m.paramCaller(stack[i], ft)
		if c != nil && c.Param != nil {
			if d, ok := stack[i].(*ast.FuncDecl); ok && m.rootOnly(d, c.Param) {
				return nil // every caller hands it Background: no budget to drop
			}
			return c
		}
		if req == nil {
			req = c
		}
		if innermost {
			// func (s *S) Relocate(_ context.Context, ...): the function is
			// given the caller's context and throws it away. It counts
			// when nothing else does; Expr spells it "" (no fix).
			blank, innermost = b, false
		}
		if lit, ok := stack[i].(*ast.FuncLit); ok && i > 0 && outlives(stack[i-1], lit) {
			// A function literal returned or stored for later (a shutdown
			// hook, a struct's callback) runs after the enclosing call
			// has returned: the enclosing function's context is not its
			// caller's budget. Only its own parameters count.
			return orBlank()
		}
		if lit, ok := stack[i].(*ast.FuncLit); ok && m.unawaited(lit, stack[:i]) {
			// go func() { ... }() that the function does not wait for:
			// the goroutine outlives the call, so the enclosing
			// function's context is not its budget either.
			return orBlank()
		}
	}
	return orBlank()
}

func (m *Model) isInbound(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && m.Table.InboundParams[analysisutil.TypeKey(p.Elem())]
}

// paramCaller returns the caller's context among the parameters of one
// function, preferring a context parameter.
//
// blank is a context parameter named _, or nil: the function is given the
// caller's context and throws it away.
func (m *Model) paramCaller(fn ast.Node, ft *ast.FuncType) (c, blank *Caller) {
	if ft.Params == nil {
		return nil, nil
	}
	var req *Caller
	for _, field := range ft.Params.List {
		for _, name := range field.Names {
			v, ok := m.info.Defs[name].(*types.Var)
			if !ok {
				continue
			}
			if name.Name == "_" {
				if blank == nil && analysisutil.IsContext(v.Type()) {
					blank = &Caller{Param: v, Func: fn}
				}
				continue
			}
			if analysisutil.IsContext(v.Type()) {
				return &Caller{Param: v, Func: fn}, blank
			}
			if req == nil && m.isInbound(v.Type()) {
				req = &Caller{Request: v, Func: fn}
			}
		}
	}
	return req, blank
}

// unawaited reports whether lit, whose ancestors are stack, is started by a
// go statement that the function around it does not wait for
// (analysisutil.Awaited).
func (m *Model) unawaited(lit *ast.FuncLit, stack []ast.Node) bool {
	g := analysisutil.GoOf(lit, stack)
	if g == nil {
		return false
	}
	return !analysisutil.Awaited(m.info, m.Table, g, analysisutil.EnclosingFunc(stack), m.Callee)
}

// outlives reports whether a function literal, given its parent node, is
// kept to run after the enclosing function returns: returned, or stored in
// a composite literal, a field, a map or a package-level variable.
func outlives(parent ast.Node, lit *ast.FuncLit) bool {
	switch p := parent.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.CompositeLit:
		return true
	case *ast.KeyValueExpr:
		return p.Value == lit
	case *ast.AssignStmt:
		for i, rhs := range p.Rhs {
			if rhs == lit && i < len(p.Lhs) {
				if _, local := p.Lhs[i].(*ast.Ident); !local || p.Tok != token.DEFINE && p.Tok != token.ASSIGN {
					return true
				}
			}
		}
	}
	return false
}

// ServesRequest reports whether decl serves an inbound request: it has an
// inbound request parameter (an HTTP handler), or it is a method of a gRPC
// server implementation (its receiver embeds the generated Unimplemented…Server).
func (m *Model) ServesRequest(decl *ast.FuncDecl) bool {
	m.Index()
	if serves, ok := m.inboundParam(decl.Type, decl.Body); ok {
		return serves
	}
	if decl.Recv == nil || len(decl.Recv.List) != 1 {
		return false
	}
	sig, ok := m.info.Defs[decl.Name].(*types.Func)
	if !ok {
		return false
	}
	params := sig.Type().(*types.Signature).Params()
	if params.Len() == 0 || !analysisutil.IsContext(params.At(0).Type()) {
		return false
	}
	// Only the RPCs serve requests: the methods of a service interface the
	// receiver implements and that a registration function hands to a gRPC
	// server (RegisterRoomsServer(s grpc.ServiceRegistrar, srv
	// RoomsServer)). A background sweeper or a Start method on the same
	// type is not a request path.
	recv := types.NewPointer(analysisutil.Deref(m.info.TypeOf(decl.Recv.List[0].Type)))
	for _, iface := range m.serviceInterfaces() {
		if !types.Implements(recv, iface) {
			continue
		}
		for i := 0; i < iface.NumMethods(); i++ {
			if iface.Method(i).Name() == decl.Name.Name {
				return true
			}
		}
	}
	return false
}

// serviceInterfaces returns the gRPC service interfaces this package can
// implement: interface parameters of the functions, in this package and
// the packages it imports, that also take a gRPC server
// (knowledge GRPC.Registrars).
func (m *Model) serviceInterfaces() []*types.Interface {
	m.servicesOnce.Do(func() {
		regs := m.Table.GRPC.Registrars
		if len(regs) == 0 {
			return
		}
		scan := func(pkg *types.Package) {
			scope := pkg.Scope()
			for _, name := range scope.Names() {
				fn, ok := scope.Lookup(name).(*types.Func)
				if !ok {
					continue
				}
				params := fn.Signature().Params()
				registrar := false
				var ifaces []*types.Interface
				for i := 0; i < params.Len(); i++ {
					t := params.At(i).Type()
					if slices.Contains(regs, analysisutil.TypeKey(t)) {
						registrar = true
						continue
					}
					if n, ok := types.Unalias(t).(*types.Named); ok {
						if it, ok := n.Underlying().(*types.Interface); ok && it.NumMethods() > 0 {
							ifaces = append(ifaces, it)
						}
					}
				}
				if registrar {
					m.services = append(m.services, ifaces...)
				}
			}
		}
		scan(m.Pass.Pkg)
		for _, imp := range m.Pass.Pkg.Imports() {
			scan(imp)
		}
	})
	return m.services
}

// ServesRequestLit reports whether a function literal serves an inbound
// request: an http.HandlerFunc literal, a middleware's inner handler.
func (m *Model) ServesRequestLit(lit *ast.FuncLit) bool {
	m.Index()
	serves, _ := m.inboundParam(lit.Type, lit.Body)
	return serves
}

// inboundParam reads a function's inbound request parameter: ok when it
// has one; serves unless the function sends that request itself (a
// RoundTripper, a client's do helper: client side, not a request path).
func (m *Model) inboundParam(ft *ast.FuncType, body *ast.BlockStmt) (serves, ok bool) {
	for _, field := range ft.Params.List {
		if !m.isInbound(m.info.TypeOf(field.Type)) {
			continue
		}
		for _, name := range field.Names {
			if v, isVar := m.info.Defs[name].(*types.Var); isVar && body != nil && m.sends(body, v) {
				return false, true
			}
		}
		return true, true
	}
	return false, false
}

// sends reports whether body hands the request variable v to an
// outbound call that sends requests (client.Do(v), transport.RoundTrip(v)).
func (m *Model) sends(body *ast.BlockStmt, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		fn, _ := m.Callee(call)
		if fn == nil {
			return true
		}
		key := analysisutil.Key(fn)
		if row, ok := m.Table.Outbound[key]; ok && row.Request >= 0 && row.Request < len(call.Args) && m.requestVar(call.Args[row.Request]) == v {
			found = true
		}
		if m.Table.Senders[key] {
			for _, a := range call.Args {
				if m.requestVar(a) == v {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// Intact reports whether the caller's context variable (the context
// parameter, or the inbound request) still holds the value the caller gave
// it at pos: it is not assigned in the function (g, ctx :=
// errgroup.WithContext(ctx) reuses the parameter, and g.Wait() cancels what
// it then holds), except by the assignment whose right-hand side holds pos
// (ctx, cancel := context.WithTimeout(context.Background(), d): evaluated
// before ctx changes), and its address is not taken. A fix may hand it on
// only then.
func (m *Model) Intact(c *Caller, pos token.Pos) bool {
	v := c.Param
	if v == nil {
		v = c.Request
	}
	if v == nil {
		return false
	}
	m.Index()
	if m.addrTaken[v] {
		return false
	}
	for _, d := range m.defs[v] {
		if d.rhs == nil || pos < d.rhs.Pos() || pos >= d.rhs.End() {
			return false
		}
	}
	return true
}

// rootOnly reports whether every caller of a function hands its context
// parameter p context.Background() or TODO() directly (ParamValues: the
// function is unexported and no method, and every use of it in the package
// is a call): the caller's context is one that never ends, and code that
// drops it drops nothing.
func (m *Model) rootOnly(d *ast.FuncDecl, p *types.Var) bool {
	if d.Name.Name == "main" || d.Name.Name == "init" {
		return false
	}
	args, ok := m.ParamValues(p)
	if !ok {
		return false
	}
	for _, a := range args {
		c, ok := ast.Unparen(a).(*ast.CallExpr)
		if !ok {
			return false
		}
		f, _ := m.Callee(c)
		if f == nil {
			return false
		}
		if row, ok := m.Table.Contexts[analysisutil.Key(f)]; !ok || row.Effect != knowledge.Root {
			return false
		}
	}
	return true
}
