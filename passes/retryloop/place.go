package retryloop

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/outbound"
)

// Where a retried call goes (issue 13, rule 1): retrying or waiting on
// local work (the file system, subprocesses, unix sockets, loopback
// addresses, in-process state) is no retry of a dependency. The outbound
// pass says where each outbound call goes (outbound.Result.Locality); the
// model carries that through the functions of the module: a function whose
// body makes a remote call is remote, one whose every call stays on this
// machine (and that makes at least one) is local, anything else unknown.
// PlaceFact carries the answer across packages.

// PlaceFact is exported for a function whose calls are known to reach
// another machine (Remote) or to stay on this one (Local).
type PlaceFact struct {
	Locality outbound.Locality
}

func (*PlaceFact) AFact() {}

func (f *PlaceFact) String() string { return "place " + f.Locality.String() }

// placeOf returns where a call goes: the outbound pass's answer for an
// outbound call or a call of a package that works on this machine only;
// for a call of a function of the module, where its body goes; unknown for
// calls through interfaces and function values.
func (m *model) placeOf(call *ast.CallExpr) outbound.Locality {
	if p := m.ob.Locality(call).Locality; p != outbound.LocalityUnknown {
		return p
	}
	if m.outbound(call) {
		return outbound.LocalityUnknown // an outbound call whose target is out of sight
	}
	if tv, ok := m.info.Types[call.Fun]; ok && tv.IsType() {
		return outbound.Local // a conversion
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if _, ok := m.info.Uses[id].(*types.Builtin); ok {
			return outbound.Local
		}
	}
	fn, _ := m.callee(call)
	if fn == nil {
		// A local function value defined once by a literal (run :=
		// func() error { ... }; run()): its body is where the call goes.
		if lit := m.funcLitOf(call.Fun); lit != nil {
			return m.nodePlace(lit, lit.Body)
		}
		return outbound.LocalityUnknown
	}
	return m.funcPlace(fn)
}

// funcPlace returns where a function's calls go.
func (m *model) funcPlace(fn *types.Func) outbound.Locality {
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return outbound.LocalityUnknown
	}
	if m.rt.LocalPackages[fn.Pkg().Path()] {
		return outbound.Local // the file system, the kernel, in-process work
	}
	if _, ok := m.table.Requests[analysisutil.Key(fn)]; ok {
		// Building or re-contexting a request is in-process: where it
		// goes is the place of the call that sends it.
		return outbound.Local
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
		return outbound.LocalityUnknown
	}
	if fn.Pkg() != m.pass.Pkg {
		f := new(PlaceFact)
		if m.pass.ImportObjectFact(fn, f) {
			return f.Locality
		}
		return outbound.LocalityUnknown
	}
	var body *ast.BlockStmt
	if d := m.x.decls[fn]; d != nil {
		body = d.Body
	}
	return m.nodePlace(fn, body)
}

// Places in a cycle. Functions (and local function literals) that call
// each other form strongly connected components of the call graph, found
// as Tarjan's algorithm finds them, each body read once: a function asked
// about while its own body is being read contributes an unknown guess, and
// when a component is complete its members get one place, the same
// whichever member was asked first (the order is a map's): remote when
// the body of one of them makes a remote call, unknown otherwise (a cycle
// is never local: its guesses are unknown). Outside a cycle the place is
// the body's.

// placeFrame is a node of the call graph whose body is being read, or
// whose component is not complete.
type placeFrame struct {
	index, low int
	place      outbound.Locality // from its body, with the guesses
}

// nodePlace returns the place of a function or function literal (key)
// with the given body (nil: unknown).
func (m *model) nodePlace(key any, body *ast.BlockStmt) outbound.Locality {
	if p, ok := m.placeMemo[key]; ok {
		return p
	}
	parent := m.placeCur
	if f, ok := m.placeOpen[key]; ok {
		// On the stack: part of the component of the functions being
		// read; its place comes when the component is complete.
		if parent != nil {
			m.placeOpen[parent].low = min(m.placeOpen[parent].low, f.index)
		}
		return outbound.LocalityUnknown
	}
	f := &placeFrame{index: m.placeNext, low: m.placeNext, place: outbound.LocalityUnknown}
	m.placeNext++
	m.placeOpen[key] = f
	m.placeStack = append(m.placeStack, key)
	m.placeCur = key
	if body != nil {
		f.place = m.bodyPlace(body)
	}
	m.placeCur = parent
	if parent != nil {
		m.placeOpen[parent].low = min(m.placeOpen[parent].low, f.low)
	}
	if f.low != f.index {
		return f.place // the component's root, above, gives the place
	}
	// key is the root of a component: its members are on the stack from it.
	i := len(m.placeStack) - 1
	for m.placeStack[i] != key {
		i--
	}
	members := m.placeStack[i:]
	m.placeStack = m.placeStack[:i]
	p := f.place
	if len(members) > 1 {
		p = outbound.LocalityUnknown
		for _, k := range members {
			if m.placeOpen[k].place == outbound.Remote {
				p = outbound.Remote
			}
		}
	}
	for _, k := range members {
		m.placeMemo[k] = p
		delete(m.placeOpen, k)
	}
	return p
}

// bodyPlace returns where the calls of a function body go: Remote when one
// is remote, Local when there is one and every one is local, unknown
// otherwise. A body with no call at all proves nothing (a stub).
func (m *model) bodyPlace(body *ast.BlockStmt) outbound.Locality {
	remote, unknown, local := false, false, false
	ast.Inspect(body, func(n ast.Node) bool {
		if remote {
			return false
		}
		switch n := n.(type) {
		case *ast.GoStmt:
			return false // apart from the call
		case *ast.CallExpr:
			if _, ok := ast.Unparen(n.Fun).(*ast.FuncLit); ok {
				return true // called here: its body is this body's
			}
			switch m.placeOf(n) {
			case outbound.Remote:
				remote = true
			case outbound.Local:
				local = true
			default:
				unknown = true
			}
		}
		return true
	})
	switch {
	case remote:
		return outbound.Remote
	case local && !unknown:
		return outbound.Local
	}
	return outbound.LocalityUnknown
}

// exportPlaces exports the PlaceFact of the package's exported functions
// whose place is known.
func (m *model) exportPlaces() {
	for fn, decl := range m.x.decls {
		if !fn.Exported() || decl.Body == nil {
			continue
		}
		if p := m.funcPlace(fn); p != outbound.LocalityUnknown {
			m.pass.ExportObjectFact(fn, &PlaceFact{Locality: p})
		}
	}
}

// loopPlace returns where the calls a loop retries go: Remote when one is
// remote, Local when every one is local, unknown otherwise. A call of a
// function parameter (an own helper's operation) goes where the operations
// the package's calls of the helper hand it go.
func (m *model) loopPlace(L *Loop) outbound.Locality {
	local := true
	for _, c := range L.Retried {
		p := m.placeOf(c)
		if p == outbound.LocalityUnknown {
			p = m.paramPlace(L, c)
		}
		switch p {
		case outbound.Remote:
			return outbound.Remote
		case outbound.LocalityUnknown:
			local = false
		}
	}
	if local && len(L.Retried) > 0 {
		return outbound.Local
	}
	return outbound.LocalityUnknown
}

// paramPlace returns where a loop's call of a function parameter of its
// declaration goes: where every operation the package hands that
// parameter goes, when the function is unexported (its callers are all in
// sight) and there is one; unknown otherwise.
func (m *model) paramPlace(L *Loop, c *ast.CallExpr) outbound.Locality {
	id, ok := ast.Unparen(c.Fun).(*ast.Ident)
	if !ok || L.Decl == nil {
		return outbound.LocalityUnknown
	}
	v, ok := m.info.Uses[id].(*types.Var)
	if !ok || len(m.x.defs[v]) > 0 || m.x.addrTaken[v] {
		return outbound.LocalityUnknown
	}
	i := m.paramIndex(L.Decl, v)
	fn, _ := m.info.Defs[L.Decl.Name].(*types.Func)
	if i < 0 || fn == nil || fn.Exported() {
		return outbound.LocalityUnknown
	}
	var places []outbound.Locality
	uses := 0
	for _, id := range m.uses(fn) {
		uses++
		call := m.callOf(id)
		if call == nil || i >= len(call.Args) {
			return outbound.LocalityUnknown // a function value: called out of sight
		}
		places = append(places, m.opPlace(call.Args[i]))
	}
	if uses == 0 {
		return outbound.LocalityUnknown
	}
	for _, p := range places {
		if p != outbound.Local {
			if p == outbound.Remote {
				return outbound.Remote
			}
			return outbound.LocalityUnknown
		}
	}
	return outbound.Local
}

// opPlace returns where an operation handed over as a function value
// goes: a literal's body, a function's.
func (m *model) opPlace(op ast.Expr) outbound.Locality {
	if lit := m.funcLitOf(op); lit != nil {
		return m.bodyPlace(lit.Body)
	}
	if fn := m.funcValue(op); fn != nil {
		return m.funcPlace(fn)
	}
	return outbound.LocalityUnknown
}

// uses returns the identifiers that refer to fn in the package.
func (m *model) uses(fn *types.Func) []*ast.Ident {
	if m.usesOf == nil {
		m.usesOf = map[*types.Func][]*ast.Ident{}
		for id, obj := range m.info.Uses {
			if f, ok := obj.(*types.Func); ok && f.Pkg() == m.pass.Pkg {
				m.usesOf[f.Origin()] = append(m.usesOf[f.Origin()], id)
			}
		}
	}
	return m.usesOf[fn]
}

// callOf returns the call whose function id is (f(...), x.f(...)), or nil.
func (m *model) callOf(id *ast.Ident) *ast.CallExpr {
	if m.callByFun == nil {
		m.callByFun = map[*ast.Ident]*ast.CallExpr{}
		for _, calls := range m.calls {
			for _, c := range calls {
				switch f := ast.Unparen(c.Fun).(type) {
				case *ast.Ident:
					m.callByFun[f] = c
				case *ast.SelectorExpr:
					m.callByFun[f.Sel] = c
				case *ast.IndexExpr:
					if x, ok := ast.Unparen(f.X).(*ast.Ident); ok {
						m.callByFun[x] = c
					}
				}
			}
		}
	}
	return m.callByFun[id]
}

// opsPlace returns where a helper call's operations go: Local when there
// are some and every one stays on this machine, Remote when one is remote.
func (m *model) opsPlace(h *Helper) outbound.Locality {
	if len(h.Ops) == 0 {
		return outbound.LocalityUnknown
	}
	local := true
	for _, op := range h.Ops {
		switch m.opPlace(op) {
		case outbound.Remote:
			return outbound.Remote
		case outbound.LocalityUnknown:
			local = false
		}
	}
	if local {
		return outbound.Local
	}
	return outbound.LocalityUnknown
}
