package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/outbound"
)

// site is a retry layer: a retry loop or a retry-helper call.
type site struct {
	loop     *Loop
	helper   *Helper
	own      *ownHelper // the helper is a team's own, found by its code
	decl     *ast.FuncDecl
	fn       ast.Node
	attempts int
	bound    string // Layer.Bound
	// param is 1 + the index of a parameter of decl bounding a loop's
	// attempts (Layer.Param), 0 for none.
	param, paramOffset int
	via                string // the helper, "" for a loop
	class              layerClass
	resil              bool
	ctxArg             ast.Expr // resil.Retry's context argument
	// closed is the package of a library helper that is given no
	// operation of the caller's (Layer.Closed), "" otherwise.
	closed string

	inner     []innerCall
	innerDone bool
	remote    tri
}

// innerCall is a call inside a retry layer that may reach another layer.
type innerCall struct {
	node   ast.Node      // where a finding is reported
	call   *ast.CallExpr // the call, nil for an operation given as a function value
	fn     *types.Func   // the function called
	helper *site         // the call is itself a retry helper call
	opCtx  *types.Var    // the context parameter of resil.Retry's operation
	lit    *ast.FuncLit  // the operation literal the call is in
}

func (m *model) addSite(s *site) {
	m.sites = append(m.sites, s)
	if s.decl != nil {
		m.byDecl[s.decl] = append(m.byDecl[s.decl], s)
	}
	if s.helper != nil {
		if m.siteByCall == nil {
			m.siteByCall = map[*ast.CallExpr]*site{}
		}
		m.siteByCall[s.helper.Call] = s
	}
}

// isRemote reports whether a site is a retry layer for amplification: a
// helper call, or a loop that retries a call reaching another process.
func (s *site) isRemote(m *model) bool {
	switch s.remote {
	case yes:
		return true
	case no:
		return false
	}
	s.remote = no // cycles: not remote unless shown
	if s.helper != nil {
		if s.own != nil && m.ownRemote(s) || s.own == nil && m.opsRemote(s.helper) == yes {
			s.remote = yes
			return true
		}
		return false
	}
	if s.loop.Place == outbound.Local {
		return false
	}
	if len(s.loop.Statuses) > 0 || len(s.loop.Codes) > 0 {
		// Its failures carry an HTTP status or a gRPC code.
		s.remote = yes
		s.loop.Remote = true
		return true
	}
	for _, c := range s.loop.Retried {
		if m.remoteLayer(c) {
			s.remote = yes
			s.loop.Remote = true
			return true
		}
	}
	return false
}

// node is where the site is: the loop, or the helper call.
func (s *site) node() ast.Node {
	if s.loop != nil {
		return s.loop.Stmt
	}
	return s.helper.Call
}

// switchedOff reports whether a call does not take a fact's first layer:
// a constant argument fails one of its guards (do(ctx, req, false) for a
// function that retries only if retry is true).
func (m *model) switchedOff(l Layer, call *ast.CallExpr) bool {
	if call == nil {
		return false
	}
	for _, g := range l.Off {
		i := g.Param - 1
		if i < 0 || i >= len(call.Args) || call.Ellipsis.IsValid() && i == len(call.Args)-1 {
			continue
		}
		k, ok := m.argConst(call.Args[i])
		if g.Field != "" {
			k, ok = m.fieldArg(call.Args[i], g.Field)
		}
		if ok && !g.holds(k) {
			return true
		}
	}
	return false
}

// passOff carries a fact's first-layer guards to the caller's fact when the
// call's argument for the guarded parameter is a parameter of the caller
// (decl), renumbered; other guards are settled at this call or unknown.
// None when the layer was dropped at this call (it attempts once).
func (m *model) passOff(l Layer, call *ast.CallExpr, decl *ast.FuncDecl, drop bool) []Guard {
	if drop || call == nil || decl == nil {
		return nil
	}
	var out []Guard
	for _, g := range l.Off {
		i := g.Param - 1
		if i < 0 || i >= len(call.Args) {
			continue
		}
		if p := m.guardParam(decl, call.Args[i]); p > 0 {
			g.Param = p
			out = append(out, g)
		}
	}
	return out
}

// layer is the site as a layer of a function's fact.
func (s *site) layer(fn string) Layer {
	return Layer{Attempts: s.attempts, Bound: s.bound, Func: fn, Via: s.via, Resil: s.resil, Param: s.param, ParamOffset: s.paramOffset,
		On: s.class.on, OnUnknown: s.class.unknown, Closed: s.closed}
}

// atCall resolves the first layer of a fact at a call of its function: a
// constant argument for the parameter bounding its attempts gives them (at
// most 1: the layer does not retry, and drop is true); an argument that is
// itself a parameter of decl (nil: none) stays a parameter, of decl. Any
// other argument leaves the attempts unknown.
func (m *model) atCall(l Layer, call *ast.CallExpr, decl *ast.FuncDecl) (_ Layer, drop bool) {
	if l.Param == 0 {
		return l, false
	}
	i := l.Param - 1
	l.Param = 0
	if call == nil || i >= len(call.Args) || call.Ellipsis.IsValid() && i == len(call.Args)-1 {
		return l, false
	}
	arg := call.Args[i]
	if l.Attempts <= 0 {
		l.Bound = boundText(arg, l.ParamOffset) // in the caller's terms
	}
	if c, ok := m.constInt(arg); ok {
		n := c + int64(l.ParamOffset)
		if n <= 1 {
			return l, true
		}
		if l.Attempts <= 0 || n < int64(l.Attempts) {
			l.Attempts = int(n)
		}
		return l, false
	}
	if decl != nil {
		if id, ok := ast.Unparen(arg).(*ast.Ident); ok {
			if v, ok := m.info.Uses[id].(*types.Var); ok && len(m.x.defs[v]) == 0 && !m.x.addrTaken[v] {
				if j := m.paramIndex(decl, v); j >= 0 {
					l.Param = j + 1
				}
			}
		}
	}
	// A local variable given only constants (attempts := 1; if retry {
	// attempts = 3 }): the most it can be; when one of them is a single
	// attempt, whether this call retries depends on the run: unsure, so
	// no layer.
	if lo, hi, ok := m.constDefs(arg); ok {
		if lo+int64(l.ParamOffset) <= 1 {
			return l, true
		}
		if n := hi + int64(l.ParamOffset); l.Attempts <= 0 || n < int64(l.Attempts) {
			l.Attempts = int(n)
		}
	}
	return l, false
}

// constDefs returns the least and the greatest of the constants a local
// variable is given, when every definition of it is a constant.
func (m *model) constDefs(e ast.Expr) (lo, hi int64, ok bool) {
	id, isID := ast.Unparen(e).(*ast.Ident)
	if !isID {
		return 0, 0, false
	}
	v, isVar := m.info.Uses[id].(*types.Var)
	if !isVar || m.x.addrTaken[v] || len(m.x.defs[v]) == 0 {
		return 0, 0, false
	}
	for i, d := range m.x.defs[v] {
		if d.rhs == nil || d.index >= 0 || d.op != token.DEFINE && d.op != token.ASSIGN {
			return 0, 0, false
		}
		n, isConst := m.constInt(d.rhs)
		if !isConst {
			return 0, 0, false
		}
		if i == 0 || n < lo {
			lo = n
		}
		if i == 0 || n > hi {
			hi = n
		}
	}
	return lo, hi, true
}

func (m *model) declName(decl *ast.FuncDecl) string {
	if decl == nil {
		return ""
	}
	if fn, ok := m.info.Defs[decl.Name].(*types.Func); ok {
		return analysisutil.Name(fn)
	}
	return decl.Name.Name
}

// innerCalls returns the calls of a site that can reach another layer: the
// retried calls of a loop and the calls in their function-literal
// arguments; every call in a helper's operation, or the operation itself
// when it is a function value.
func (m *model) innerCalls(s *site) []innerCall {
	if s.innerDone {
		return s.inner
	}
	s.innerDone = true
	var out []innerCall
	addCallsIn := func(body ast.Node, lit *ast.FuncLit, opCtx *types.Var) {
		ast.Inspect(body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if hs := m.siteByCall[call]; hs != nil && hs != s {
				out = append(out, innerCall{node: call, call: call, helper: hs, opCtx: opCtx, lit: lit})
				return true
			}
			if fn := m.staticCallee(call); fn != nil {
				out = append(out, innerCall{node: call, call: call, fn: fn, opCtx: opCtx, lit: lit})
			}
			return true
		})
	}
	if s.loop != nil {
		for _, c := range s.loop.Retried {
			if hs := m.siteByCall[c]; hs != nil {
				out = append(out, innerCall{node: c, call: c, helper: hs})
			} else if fn := m.staticCallee(c); fn != nil {
				out = append(out, innerCall{node: c, call: c, fn: fn})
			}
			for _, a := range c.Args {
				if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
					addCallsIn(lit.Body, lit, nil)
				}
			}
		}
	}
	if s.helper != nil {
		for _, op := range s.helper.Ops {
			lit := m.funcLitOf(op)
			if lit != nil {
				var opCtx *types.Var
				if s.resil {
					opCtx = m.ctxParam(lit)
				}
				addCallsIn(lit.Body, lit, opCtx)
				continue
			}
			if fn := m.funcValue(op); fn != nil {
				out = append(out, innerCall{node: op, fn: fn})
			}
		}
	}
	s.inner = out
	return out
}

// staticCallee returns the function a call statically invokes: not a call
// through an interface or a function value, nor a known retry helper (the
// helper's row, not the library's own code, says what it does).
func (m *model) staticCallee(call *ast.CallExpr) *types.Func {
	fn, _ := m.callee(call)
	if fn == nil {
		return nil
	}
	if _, ok := m.rt.Helpers[analysisutil.Key(fn)]; ok {
		return nil
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
		return nil
	}
	return fn
}

// funcLitOf returns the function literal an operation argument is: the
// literal itself, or a local variable defined once by one.
func (m *model) funcLitOf(e ast.Expr) *ast.FuncLit {
	e = ast.Unparen(e)
	if lit, ok := e.(*ast.FuncLit); ok {
		return lit
	}
	if id, ok := e.(*ast.Ident); ok {
		if v, ok := m.info.Uses[id].(*types.Var); ok && !m.x.addrTaken[v] {
			if ds := m.x.defs[v]; len(ds) == 1 && ds[0].index < 0 {
				if lit, ok := ast.Unparen(ds[0].rhs).(*ast.FuncLit); ok {
					return lit
				}
			}
		}
	}
	return nil
}

// funcValue returns the function an operation given as a function value
// denotes (fetch, c.fetch), not an interface method.
func (m *model) funcValue(e ast.Expr) *types.Func {
	e = ast.Unparen(e)
	var fn *types.Func
	switch x := e.(type) {
	case *ast.Ident:
		fn, _ = m.info.Uses[x].(*types.Func)
	case *ast.SelectorExpr:
		if s, ok := m.info.Selections[x]; ok {
			if s.Kind() == types.MethodVal || s.Kind() == types.MethodExpr {
				fn, _ = s.Obj().(*types.Func)
				if types.IsInterface(s.Recv()) {
					return nil
				}
			}
		} else {
			fn, _ = m.info.Uses[x.Sel].(*types.Func)
		}
	}
	return fn
}

// ctxParam returns a function literal's context parameter.
func (m *model) ctxParam(lit *ast.FuncLit) *types.Var {
	for _, f := range lit.Type.Params.List {
		for _, n := range f.Names {
			if v, ok := m.info.Defs[n].(*types.Var); ok && analysisutil.IsContext(v.Type()) {
				return v
			}
		}
	}
	return nil
}

// innerLayers returns the layers a call inside site s reaches, outermost
// first; nil when it reaches none. A layer that is resil.Retry given the
// context of an outer resil.Retry's operation attempts once and is dropped.
func (m *model) innerLayers(s *site, ic innerCall, depth int) []Layer {
	return related(s.class, m.innerChain(s, ic, depth), m.ownSentinel)
}

// innerChain is innerLayers before the failures each layer retries are
// related to the outer ones'.
func (m *model) innerChain(s *site, ic innerCall, depth int) []Layer {
	if depth > maxLayers {
		return nil
	}
	if ic.helper != nil {
		hs := ic.helper
		if hs.own != nil && !hs.isRemote(m) {
			return nil
		}
		if s.resil && hs.resil && ic.opCtx != nil && hs.ctxArg != nil && m.m.Context(hs.ctxArg).Param == ic.opCtx {
			return m.bestInner(hs, depth+1)
		}
		layers := []Layer{hs.layer(m.declName(hs.decl))}
		return append(layers, m.bestInner(hs, depth+1)...)
	}
	f := m.fact(ic.fn)
	if f == nil || len(f.Layers) == 0 {
		return nil
	}
	layers := append([]Layer(nil), f.Layers...)
	if m.switchedOff(layers[0], ic.call) {
		return nil
	}
	l0, drop := m.atCall(layers[0], ic.call, nil)
	if drop {
		// The function's own layer attempts once for this call.
		if len(layers) == 1 {
			return nil
		}
		return layers[1:]
	}
	layers[0] = l0
	if s.resil && f.ResilCtx >= 0 && ic.opCtx != nil && ic.call != nil && f.ResilCtx < len(ic.call.Args) {
		if m.m.Context(ic.call.Args[f.ResilCtx]).Param == ic.opCtx {
			layers = layers[1:]
			if len(layers) == 0 {
				return nil
			}
			return layers
		}
	}
	layers[0].Call = analysisutil.Name(ic.fn)
	return layers
}

// bestInner returns the longest (then largest) chain of layers the calls
// of a site reach.
func (m *model) bestInner(s *site, depth int) []Layer {
	var best []Layer
	for _, ic := range m.innerCalls(s) {
		if l := m.innerLayers(s, ic, depth); better(l, best) {
			best = l
		}
	}
	return best
}

// better orders chains of layers: more layers, then a larger known product,
// then fewer unknown counts.
func better(a, b []Layer) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	pa, pb := knownProduct(a), knownProduct(b)
	if pa != pb {
		return pa > pb
	}
	return unknowns(a) < unknowns(b)
}

func knownProduct(ls []Layer) int {
	p := 1
	for _, l := range ls {
		if l.Attempts > 0 {
			p *= l.Attempts
		}
	}
	return p
}

func unknowns(ls []Layer) int {
	n := 0
	for _, l := range ls {
		if l.Attempts <= 0 {
			n++
		}
	}
	return n
}

// fact returns the RetryFact of a function: imported, or computed for this
// package's functions from their retry layers and calls.
func (m *model) fact(fn *types.Func) *RetryFact {
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return nil
	}
	if fn.Pkg() != m.pass.Pkg {
		f := new(RetryFact)
		if m.pass.ImportObjectFact(fn, f) {
			return f
		}
		return nil
	}
	if m.collecting {
		return nil
	}
	if f, ok := m.factMemo[fn]; ok {
		return f
	}
	if m.factBusy[fn] {
		return nil // recursion: no layer is known yet
	}
	m.factBusy[fn] = true
	f := m.computeFact(fn)
	delete(m.factBusy, fn)
	m.factMemo[fn] = f
	return f
}

func (m *model) computeFact(fn *types.Func) *RetryFact {
	decl := m.x.decls[fn]
	if decl == nil || decl.Body == nil {
		return nil
	}
	name := analysisutil.Name(fn)
	var best []Layer
	resilCtx := -1
	for _, s := range m.byDecl[decl] {
		if !s.isRemote(m) || m.async(decl, s.node()) {
			continue // not a layer, or not on the path of a call of fn
		}
		l0 := s.layer(name)
		l0.Off = append(m.guards(decl, s.node()), m.boundGuards(decl, s.loop)...)
		layers := append([]Layer{l0}, m.bestInner(s, 1)...)
		if better(layers, best) {
			best = layers
			resilCtx = -1
			if s.resil && s.ctxArg != nil {
				resilCtx = m.paramIndex(decl, m.m.Context(s.ctxArg).Param)
			}
		}
	}
	for _, call := range m.calls[decl] {
		if m.siteByCall[call] != nil {
			continue // a helper call: a layer of its own, above
		}
		callee := m.staticCallee(call)
		if callee == nil || callee.Origin() == fn || m.async(decl, call) {
			continue
		}
		f := m.fact(callee)
		if f == nil || len(f.Layers) == 0 {
			continue
		}
		layers := append([]Layer(nil), f.Layers...)
		l0, drop := m.atCall(layers[0], call, decl)
		if m.switchedOff(layers[0], call) {
			continue // the call does not take the callee's layer
		}
		if drop {
			layers = layers[1:]
		} else {
			layers[0] = l0
		}
		if len(layers) > 0 {
			layers[0].Off = append(m.passOff(f.Layers[0], call, decl, drop), m.guards(decl, call)...)
		}
		if better(layers, best) {
			best = layers
			resilCtx = -1
			if !drop && f.ResilCtx >= 0 && f.ResilCtx < len(call.Args) {
				resilCtx = m.paramIndex(decl, m.m.Context(call.Args[f.ResilCtx]).Param)
			}
		}
	}
	oh := m.ownHelpers[fn]
	if len(best) == 0 && oh == nil {
		return nil
	}
	if len(best) > maxLayers {
		best = best[:maxLayers]
	}
	f := &RetryFact{Layers: best, ResilCtx: resilCtx}
	if oh != nil {
		f.Op, f.OpLayer = oh.op+1, oh.layer
	}
	return f
}

// paramIndex returns the index of v among decl's parameters, or -1.
func (m *model) paramIndex(decl *ast.FuncDecl, v *types.Var) int {
	return fieldIndex(m.info, decl.Type.Params, v)
}

// fieldIndex returns the index of v among the parameters of a field list,
// or -1.
func fieldIndex(info *types.Info, params *ast.FieldList, v *types.Var) int {
	if v == nil || params == nil {
		return -1
	}
	i := 0
	for _, f := range params.List {
		if len(f.Names) == 0 {
			i++
			continue
		}
		for _, n := range f.Names {
			if info.Defs[n] == v {
				return i
			}
			i++
		}
	}
	return -1
}

// exportFacts exports the facts of the package's exported functions and
// methods.
func (m *model) exportFacts() {
	m.collecting = false
	m.exportPlaces()
	m.exportRuns()
	for _, L := range m.loops {
		if L.Reconnect {
			continue
		}
		for _, c := range L.Retried {
			if m.remoteLayer(c) {
				L.Remote = true
				break
			}
		}
	}
	any := false
	for fn, decl := range m.x.decls {
		if !fn.Exported() || decl.Body == nil {
			continue
		}
		if f := m.fact(fn); f != nil {
			m.pass.ExportObjectFact(fn, f)
			any = true
		}
		if f := m.configFact(fn); f != nil {
			m.pass.ExportObjectFact(fn, f)
			any = true
		}
		if !m.importsTime {
			continue
		}
		if f := m.sleepFact(fn); f != nil {
			m.pass.ExportObjectFact(fn, f)
		}
		if f := m.delayFact(fn); f != nil {
			m.pass.ExportObjectFact(fn, f)
		}
	}
	if m.importsTime && m.exportIterFacts() {
		any = true
	}
	if any {
		m.pass.ExportPackageFact(&RetriesFact{})
	}
}

// nestedReports lists the calls of every retry layer that reach another.
func (m *model) nestedReports() []*Nested {
	var out []*Nested
	seen := map[ast.Node]bool{}
	for _, s := range m.sites {
		if !s.isRemote(m) {
			continue
		}
		outer := s.layer(m.declName(s.decl))
		for _, ic := range m.innerCalls(s) {
			if seen[ic.node] {
				continue
			}
			layers := m.innerLayers(s, ic, 1)
			if len(layers) == 0 || !anyKnown(append([]Layer{outer}, layers...)) {
				continue // a chain of unknown counts proves no amplification
			}
			seen[ic.node] = true
			callee := ""
			if ic.fn != nil {
				callee = analysisutil.Name(ic.fn)
			} else if ic.helper != nil {
				callee = ic.helper.via
				// The call is the helper that retries: it retries where it
				// is called, not in a function of its own.
				layers[0].Func = ""
			}
			out = append(out, &Nested{Node: ic.node, Callee: callee, Outer: outer, Inner: layers})
		}
		out = append(out, m.nestedLoops(s, outer, seen)...)
	}
	return out
}

// nestedLoops reports the retry loops written inside a retry loop's body,
// in the same function, that retry a call the outer loop retries too:
// every outer attempt runs the inner loop to its end (two stacked loops
// around one request).
func (m *model) nestedLoops(s *site, outer Layer, seen map[ast.Node]bool) []*Nested {
	if s.loop == nil {
		return nil
	}
	var out []*Nested
	for _, t := range m.byDecl[s.decl] {
		if t == s || t.loop == nil || t.fn != s.fn || !within(t.loop.Stmt.Pos(), s.loop.Body) || seen[t.loop.Stmt] {
			continue
		}
		if !sharesRetried(s.loop, t.loop) || !t.isRemote(m) {
			continue
		}
		inner := t.layer(m.declName(t.decl))
		inner.Func = ""
		layers := related(s.class, []Layer{inner}, m.ownSentinel)
		if len(layers) == 0 || !anyKnown([]Layer{outer, inner}) {
			continue
		}
		seen[t.loop.Stmt] = true
		out = append(out, &Nested{Node: t.loop.Stmt, Outer: outer, Inner: layers, Loop: true})
	}
	return out
}

// sharesRetried reports whether two loops retry a call in common.
func sharesRetried(a, b *Loop) bool {
	for _, c := range b.Retried {
		for _, d := range a.Retried {
			if c == d {
				return true
			}
		}
	}
	return false
}

// anyKnown reports whether one of the layers has a known number of
// attempts.
func anyKnown(ls []Layer) bool {
	for _, l := range ls {
		if l.Attempts > 0 {
			return true
		}
	}
	return false
}
