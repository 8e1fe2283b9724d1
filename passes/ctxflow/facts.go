package ctxflow

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// RequestFact is exported for a function that returns an outbound request
// (an *http.Request) whose context is known relative to its parameters.
type RequestFact struct {
	// Result is the index of the request among the results.
	Result int
	// Param is the index of the parameter whose context the request
	// carries, or -1.
	Param int
	// State, when Param is -1: Free or Deadline.
	State    State
	Detached bool
	// NoCtx: Free because the request is built without a context
	// (http.NewRequest).
	NoCtx bool
	// Slice: the result is a slice of requests, each of which is so.
	Slice bool
}

func (*RequestFact) AFact() {}

func (f *RequestFact) String() string {
	return "request{result " + itoa(f.Result) + ", param " + itoa(f.Param) + ", " + f.State.String() + "}"
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// ClientFact is exported for a function that returns a client (an
// *http.Client, a dialer) whose timeout is known: every return gives a
// client with a Timeout, or every one a client without.
type ClientFact struct {
	Bound Bound
}

func (*ClientFact) AFact() {}

func (f *ClientFact) String() string {
	if f.Bound == HasTimeout {
		return "client{timeout}"
	}
	return "client{no timeout}"
}

// CtxInertFact is exported for a function whose first parameter is a
// context it never observes for cancellation: it only reads values from
// it (ctx.Value) or compares it with nil, and hands it to nothing but, as
// their first argument, functions of which the same holds. Giving
// it context.Background() drops no deadline and no cancellation.
type CtxInertFact struct{}

func (*CtxInertFact) AFact() {}

func (*CtxInertFact) String() string { return "ctx inert" }

// CtxInert reports whether fn's first parameter is a context fn never
// observes for cancellation (CtxInertFact; for a function of this package,
// read from its body).
func (m *Model) CtxInert(fn *types.Func) bool {
	fn = fn.Origin()
	if fn.Pkg() == m.Pass.Pkg {
		m.Index()
		return m.ctxInertDecl(fn, map[*types.Func]bool{})
	}
	return m.Pass.ImportObjectFact(fn, new(CtxInertFact))
}

// ImplementationsCtxInert reports whether fn, a method of an interface, has
// at least one implementation among the types in sight (declared in this
// package or in one it imports), and every one's method ignores the context
// it is given (CtxInert): then a context handed to the interface drops no
// deadline and no cancellation.
func (m *Model) ImplementationsCtxInert(fn *types.Func) bool {
	sig := fn.Signature()
	if sig.Recv() == nil {
		return false
	}
	it, ok := sig.Recv().Type().Underlying().(*types.Interface)
	if !ok {
		return false
	}
	found := false
	for _, pkg := range append([]*types.Package{m.Pass.Pkg}, m.Pass.Pkg.Imports()...) {
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
				continue
			}
			if named, ok := tn.Type().(*types.Named); ok && named.TypeParams().Len() > 0 {
				continue
			}
			var recv types.Type = tn.Type()
			if !types.Implements(recv, it) {
				recv = types.NewPointer(recv)
				if !types.Implements(recv, it) {
					continue
				}
			}
			obj, _, _ := types.LookupFieldOrMethod(recv, true, fn.Pkg(), fn.Name())
			impl, ok := obj.(*types.Func)
			if !ok || !m.CtxInert(impl) {
				return false
			}
			found = true
		}
	}
	return found
}

// ctxInertCallee reports whether a call hands its first argument to a
// function whose context parameter is inert: of this package (read from
// its body; a cycle is not inert) or with a CtxInertFact.
func (m *Model) ctxInertCallee(call *ast.CallExpr, busy map[*types.Func]bool) bool {
	fn, _ := m.Callee(call)
	if fn == nil {
		return false
	}
	fn = fn.Origin()
	if fn.Pkg() != m.Pass.Pkg {
		return m.Pass.ImportObjectFact(fn, new(CtxInertFact))
	}
	if busy[fn] {
		return false
	}
	busy[fn] = true
	defer delete(busy, fn)
	return m.ctxInertDecl(fn, busy)
}

// ctxInertDecl reads CtxInert from the declaration of a function of this
// package: every use of its first parameter, a context, is v.Value(...) or
// a comparison with nil.
func (m *Model) ctxInertDecl(fn *types.Func, busy map[*types.Func]bool) bool {
	d := m.decls[fn]
	if d == nil || d.Body == nil || d.Type.Params == nil || len(d.Type.Params.List) == 0 {
		return false
	}
	first := d.Type.Params.List[0]
	if len(first.Names) == 0 {
		// An unnamed context is never used.
		return analysisutil.IsContext(m.info.TypeOf(first.Type))
	}
	v, ok := m.info.Defs[first.Names[0]].(*types.Var)
	if !ok || !analysisutil.IsContext(v.Type()) {
		return false
	}
	inert := true
	var stack []ast.Node
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if !inert {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		id, ok := n.(*ast.Ident)
		if !ok || m.info.Uses[id] != v {
			return true
		}
		parent := stack[len(stack)-2]
		switch p := parent.(type) {
		case *ast.SelectorExpr:
			if p.Sel.Name == "Value" && len(stack) >= 3 {
				if call, ok := stack[len(stack)-3].(*ast.CallExpr); ok && call.Fun == ast.Expr(p) {
					return true
				}
			}
		case *ast.BinaryExpr:
			if (p.Op == token.EQL || p.Op == token.NEQ) && (analysisutil.IsNil(m.info, p.X) || analysisutil.IsNil(m.info, p.Y)) {
				return true
			}
		case *ast.CallExpr:
			if len(p.Args) > 0 && p.Args[0] == ast.Expr(id) && m.ctxInertCallee(p, busy) {
				return true // handed on to a function that only reads values
			}
		}
		inert = false
		return false
	})
	return inert
}

// RecontextFact is exported for a function that gives a request parameter
// a new context (req = req.WithContext(ctx)) before using it: a request
// passed to it is not sent with the context it was built with.
type RecontextFact struct {
	Params []int
}

func (*RecontextFact) AFact() {}

func (f *RecontextFact) String() string {
	s := "recontexts"
	for _, p := range f.Params {
		s += " #" + itoa(p)
	}
	return s
}

func (m *Model) exportRequestFacts() {
	for fn := range m.decls {
		sig := fn.Type().(*types.Signature)
		if fn.Exported() && m.ctxInertDecl(fn, map[*types.Func]bool{fn: true}) {
			m.Pass.ExportObjectFact(fn, &CtxInertFact{})
		}
		if m.anyRequest(sig.Results()) {
			if f := m.requestFact(fn); f != nil {
				m.Pass.ExportObjectFact(fn, f)
			}
		}
		if m.anyRequest(sig.Params()) {
			if f := m.recontextFact(fn); f != nil {
				m.Pass.ExportObjectFact(fn, f)
			}
		}
		if sig.Results().Len() > 0 {
			m.exportShapeFact(fn)
		}
		if sig.Results().Len() > 0 && fn.Exported() && m.returnsUnlimitedGroup(fn) {
			m.Pass.ExportObjectFact(fn, &UnlimitedGroupFact{})
		}
		if sig.Results().Len() > 0 && fn.Exported() {
			if f := m.connFact(fn); f != nil {
				m.Pass.ExportObjectFact(fn, f)
			}
			if f := m.optionFact(fn, m.decls[fn]); f != nil {
				m.Pass.ExportObjectFact(fn, f)
			}
		}
		if sig.Results().Len() > 0 && fn.Exported() {
			if _, ok := m.Table.ClientTypes[analysisutil.TypeKey(sig.Results().At(0).Type())]; ok {
				if b := m.constructed(fn, map[*types.Var]bool{}, 0); b != BoundUnknown {
					m.Pass.ExportObjectFact(fn, &ClientFact{Bound: b})
				}
			}
		}
	}
}
