package ctxflow

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// Dial options. What a set of gRPC dial options does to the deadline of a
// call: HasTimeout when one of them can set it (an interceptor of the
// call's kind that does not provably pass the caller's context on, a
// default service config with a "timeout") or when one cannot be read (an
// option from out of sight); NoTimeout when every one is read and none can.
// The options may come from a helper of the module: a function returning
// options ([OptionFact]), a dial helper that adds its caller's options to
// its own ([ConnFact].OptParam), an interceptor made by a function.

// OptionFact is exported for a function that returns gRPC dial options
// (one, or a slice), or that is or returns a client interceptor, when what
// it does to call deadlines is read.
type OptionFact struct {
	// Unary and Stream: what the options it returns do to a unary call
	// and to a stream.
	Unary, Stream Bound
	// Interceptor: NoTimeout when the interceptor (the function itself,
	// or the one it returns) passes its caller's context on unchanged.
	Interceptor Bound
}

func (*OptionFact) AFact() {}

func (f *OptionFact) String() string {
	name := func(b Bound) string {
		if b == NoTimeout {
			return "none"
		}
		return "deadline"
	}
	return "options{unary " + name(f.Unary) + ", stream " + name(f.Stream) + ", interceptor " + name(f.Interceptor) + "}"
}

// connEnv is the state of one ConnBound question.
type connEnv struct {
	seen map[*types.Var]bool
	// args binds the variadic option parameter of a dial helper being
	// read for a call to what the call's options do.
	args map[*types.Var]Bound
	// free is the variadic option parameter of the function whose
	// ConnFact is being computed; usedFree records that its options reach
	// a dial.
	free     *types.Var
	usedFree bool
}

func newConnEnv(free *types.Var) *connEnv {
	return &connEnv{seen: map[*types.Var]bool{}, args: map[*types.Var]Bound{}, free: free}
}

// optionParam returns fn's variadic dial-option parameter (extra
// ...grpc.DialOption), or nil.
func (m *Model) optionParam(fn *types.Func) *types.Var {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || !sig.Variadic() || m.Table.GRPC.DialOptionType == "" {
		return nil
	}
	p := sig.Params().At(sig.Params().Len() - 1)
	if sl, ok := p.Type().(*types.Slice); ok && analysisutil.TypeKey(sl.Elem()) == m.Table.GRPC.DialOptionType {
		return p
	}
	return nil
}

// argOptionsBound reads the options a call passes from argument index from
// on (the last spread when the call has an ellipsis).
func (m *Model) argOptionsBound(call *ast.CallExpr, from int, stream bool, env *connEnv, depth int) Bound {
	if from < 0 {
		return HasTimeout
	}
	for i := from; i < len(call.Args); i++ {
		var b Bound
		if i == len(call.Args)-1 && call.Ellipsis.IsValid() {
			b = m.spreadBound(call.Args[i], stream, env, depth)
		} else {
			b = m.optionBound(call.Args[i], stream, env, depth)
		}
		if b != NoTimeout {
			return HasTimeout
		}
	}
	return NoTimeout
}

// spreadBound reads a slice of dial options: a literal, an append, a local
// variable's values, the variadic option parameter of a helper, or a
// function returning options.
func (m *Model) spreadBound(e ast.Expr, stream bool, env *connEnv, depth int) Bound {
	if depth > maxDepth {
		return HasTimeout
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			if m.optionBound(el, stream, env, depth+1) != NoTimeout {
				return HasTimeout
			}
		}
		return NoTimeout
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		if !ok {
			if m.info.Types[x].IsNil() {
				return NoTimeout
			}
			return HasTimeout
		}
		if b, ok := env.args[v]; ok {
			return b
		}
		if v == env.free {
			env.usedFree = true
			return NoTimeout
		}
		if !m.local(v) || m.addrTaken[v] || env.seen[v] {
			return HasTimeout
		}
		if _, isParam := m.params[v]; isParam {
			return HasTimeout
		}
		env.seen[v] = true
		defer delete(env.seen, v)
		for _, d := range m.defs[v] {
			switch {
			case d.zero:
			case d.rhs == nil || d.index > 0:
				return HasTimeout
			default:
				if m.spreadBound(d.rhs, stream, env, depth+1) != NoTimeout {
					return HasTimeout
				}
			}
		}
		return NoTimeout
	case *ast.CallExpr:
		if m.isBuiltin(x.Fun, "append") && len(x.Args) > 0 {
			if id, ok := ast.Unparen(x.Args[0]).(*ast.Ident); !ok || !env.seen[m.varOf(id)] {
				// opts = append(opts, ...) within the variable's own
				// definitions: the base is read already.
				if m.spreadBound(x.Args[0], stream, env, depth+1) != NoTimeout {
					return HasTimeout
				}
			}
			return m.argOptionsBound(x, 1, stream, env, depth+1)
		}
		fn, _ := m.Callee(x)
		if fn == nil {
			return HasTimeout
		}
		return m.optionFuncBound(fn, stream, depth+1)
	}
	return HasTimeout
}

// optionBound reads one dial option.
func (m *Model) optionBound(e ast.Expr, stream bool, env *connEnv, depth int) Bound {
	oc, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || depth > maxDepth {
		return HasTimeout // an option from a variable: unknown
	}
	fn, _ := m.Callee(oc)
	if fn == nil || fn.Pkg() == nil {
		return HasTimeout
	}
	row, ok := m.Table.GRPC.DeadlineOptions[analysisutil.Key(fn)]
	if !ok {
		if m.grpcPackage(fn.Pkg().Path()) {
			return NoTimeout // an option of the gRPC package that sets no deadline
		}
		return m.optionFuncBound(fn, stream, depth+1)
	}
	if row.Config == knowledge.None {
		if row.Stream != stream {
			return NoTimeout
		}
		// Interceptors: each one must pass the caller's context on.
		if oc.Ellipsis.IsValid() {
			return HasTimeout
		}
		for _, a := range oc.Args {
			if m.interceptorBound(a, depth+1) != NoTimeout {
				return HasTimeout
			}
		}
		return NoTimeout
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
	return NoTimeout
}

// grpcPackage reports whether path is the package of the gRPC dial
// functions.
func (m *Model) grpcPackage(path string) bool {
	for key := range m.Table.GRPC.Dials {
		if knowledge.PathOf(key) == path {
			return true
		}
	}
	return false
}

// optionFuncBound is what the options a function returns do: read in its
// body for this package's functions, from its OptionFact for others.
func (m *Model) optionFuncBound(fn *types.Func, stream bool, depth int) Bound {
	if fn.Pkg() != m.Pass.Pkg {
		f := new(OptionFact)
		if !m.Pass.ImportObjectFact(fn.Origin(), f) {
			return HasTimeout
		}
		if stream {
			return f.Stream
		}
		return f.Unary
	}
	decl := m.decls[fn.Origin()]
	if decl == nil || decl.Body == nil || depth > maxDepth {
		return HasTimeout
	}
	results, ok := analysisutil.FirstResults(m.info, decl.Body)
	if !ok || len(results) == 0 {
		return HasTimeout
	}
	env := newConnEnv(nil)
	for _, r := range results {
		var b Bound
		if _, isSlice := m.info.TypeOf(r).Underlying().(*types.Slice); isSlice {
			b = m.spreadBound(r, stream, env, depth+1)
		} else {
			b = m.optionBound(r, stream, env, depth+1)
		}
		if b != NoTimeout {
			return HasTimeout
		}
	}
	return NoTimeout
}

// interceptorBound is NoTimeout when the interceptor e — a literal, a
// function, or a function's result — passes the caller's context to the
// invoker unchanged: it gives no call a deadline.
func (m *Model) interceptorBound(e ast.Expr, depth int) Bound {
	if depth > maxDepth {
		return HasTimeout
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		return m.passesCtx(x.Type, x.Body)
	case *ast.Ident, *ast.SelectorExpr:
		var id *ast.Ident
		if sel, ok := x.(*ast.SelectorExpr); ok {
			id = sel.Sel
		} else {
			id = x.(*ast.Ident)
		}
		fn, ok := m.info.Uses[id].(*types.Func)
		if !ok {
			return HasTimeout
		}
		if fn.Pkg() != m.Pass.Pkg {
			return m.importedInterceptor(fn)
		}
		if decl := m.decls[fn.Origin()]; decl != nil && decl.Body != nil {
			return m.passesCtx(decl.Type, decl.Body)
		}
	case *ast.CallExpr:
		fn, _ := m.Callee(x)
		if fn == nil {
			return HasTimeout
		}
		if fn.Pkg() != m.Pass.Pkg {
			return m.importedInterceptor(fn)
		}
		return m.returnsInterceptor(fn, depth+1)
	}
	return HasTimeout
}

func (m *Model) importedInterceptor(fn *types.Func) Bound {
	f := new(OptionFact)
	if fn.Pkg() == nil || !m.Pass.ImportObjectFact(fn.Origin(), f) {
		return HasTimeout
	}
	return f.Interceptor
}

// returnsInterceptor is interceptorBound of every first result of a
// function of this package.
func (m *Model) returnsInterceptor(fn *types.Func, depth int) Bound {
	decl := m.decls[fn.Origin()]
	if decl == nil || decl.Body == nil || depth > maxDepth {
		return HasTimeout
	}
	results, ok := analysisutil.FirstResults(m.info, decl.Body)
	if !ok || len(results) == 0 {
		return HasTimeout
	}
	for _, r := range results {
		if m.interceptorBound(r, depth+1) != NoTimeout {
			return HasTimeout
		}
	}
	return NoTimeout
}

// passesCtx reads an interceptor's body: NoTimeout when its context
// parameter is never reassigned and every call of one of its function
// parameters (the invoker or streamer) is given that context first.
func (m *Model) passesCtx(ft *ast.FuncType, body *ast.BlockStmt) Bound {
	if ft == nil || ft.Params == nil || body == nil {
		return HasTimeout
	}
	var ctx *types.Var
	funcs := map[*types.Var]bool{}
	for _, f := range ft.Params.List {
		for _, name := range f.Names {
			v, _ := m.info.Defs[name].(*types.Var)
			if v == nil {
				continue
			}
			if ctx == nil && analysisutil.IsContext(v.Type()) {
				ctx = v
			}
			if _, ok := v.Type().Underlying().(*types.Signature); ok {
				funcs[v] = true
			}
		}
	}
	if ctx == nil || len(funcs) == 0 || len(m.defs[ctx]) > 0 || m.addrTaken[ctx] {
		return HasTimeout
	}
	invokes, ok := 0, true
	ast.Inspect(body, func(n ast.Node) bool {
		call, isCall := n.(*ast.CallExpr)
		if !isCall || !ok {
			return ok
		}
		id, isID := ast.Unparen(call.Fun).(*ast.Ident)
		if !isID {
			return true
		}
		v, _ := m.info.Uses[id].(*types.Var)
		if !funcs[v] {
			return true
		}
		invokes++
		if len(call.Args) == 0 {
			ok = false
			return false
		}
		a, isID := ast.Unparen(call.Args[0]).(*ast.Ident)
		if !isID || m.info.Uses[a] != ctx {
			ok = false
		}
		return ok
	})
	if !ok || invokes == 0 {
		return HasTimeout
	}
	return NoTimeout
}

// optionFact computes the OptionFact of a function of this package: nil
// when it neither returns dial options nor is or returns an interceptor
// whose context handling is read.
func (m *Model) optionFact(fn *types.Func, decl *ast.FuncDecl) *OptionFact {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || decl.Body == nil {
		return nil
	}
	f := &OptionFact{Unary: HasTimeout, Stream: HasTimeout, Interceptor: HasTimeout}
	if sig.Results().Len() > 0 {
		t := sig.Results().At(0).Type()
		if sl, ok := t.Underlying().(*types.Slice); ok {
			t = sl.Elem()
		}
		if g := m.Table.GRPC.DialOptionType; g != "" && analysisutil.TypeKey(t) == g {
			f.Unary, f.Stream = m.optionFuncBound(fn, false, 0), m.optionFuncBound(fn, true, 0)
		} else if _, ok := t.Underlying().(*types.Signature); ok {
			f.Interceptor = m.returnsInterceptor(fn, 0)
		}
	}
	if f.Interceptor != NoTimeout && sig.Params().Len() > 0 && analysisutil.IsContext(sig.Params().At(0).Type()) {
		f.Interceptor = m.passesCtx(decl.Type, decl.Body)
	}
	if f.Unary != NoTimeout && f.Stream != NoTimeout && f.Interceptor != NoTimeout {
		return nil
	}
	return f
}
