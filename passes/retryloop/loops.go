package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// collect finds the package's retry loops and helper calls.
func (m *model) collect(ins *inspector.Inspector) {
	m.x = newIndex(m.info, ins)
	m.collecting = true
	// Fast paths: helper calls only where a helper's package is imported,
	// sleep and delay summaries only where time or resil is.
	helperPaths := map[string]bool{}
	for k := range m.rt.Helpers {
		helperPaths[knowledge.PathOf(k)] = true
	}
	for k := range m.rt.Configs {
		helperPaths[knowledge.PathOf(k)] = true
	}
	for k := range m.rt.Predicates {
		helperPaths[knowledge.PathOf(k)] = true
	}
	m.importsHelpers = analysisutil.Imports(m.pass.Pkg, helperPaths)
	sleepPaths := map[string]bool{"time": true}
	for k := range m.rt.Sleeps {
		sleepPaths[knowledge.PathOf(k)] = true
	}
	m.importsTime = analysisutil.Imports(m.pass.Pkg, sleepPaths)
	filter := []ast.Node{(*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.CallExpr)(nil),
		(*ast.AssignStmt)(nil), (*ast.CompositeLit)(nil)}
	ins.WithStack(filter, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			m.predicateAssign(n)
			return true
		case *ast.CompositeLit:
			m.predicateLiteral(n)
			return true
		}
		fn, decl := enclosing(stack)
		switch n := n.(type) {
		case *ast.CallExpr:
			if decl != nil {
				m.calls[decl] = append(m.calls[decl], n)
			}
			if m.importsHelpers {
				m.helperCall(n, fn, decl)
				m.predicateCall(n)
			}
			m.maybeOwnCall(n, fn, decl)
		case *ast.ForStmt, *ast.RangeStmt:
			if fn != nil {
				m.loop(n.(ast.Stmt), stack, fn, decl)
			}
		}
		return true
	})
	m.findOwnHelpers()
	m.ownHelperCalls()
	m.predicates()
}

// enclosing returns the innermost function and the outermost declaration
// of an inspector stack.
func enclosing(stack []ast.Node) (ast.Node, *ast.FuncDecl) {
	var fn ast.Node
	var decl *ast.FuncDecl
	for _, n := range stack {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if decl == nil {
				decl = n
			}
			fn = n
		case *ast.FuncLit:
			fn = n
		}
	}
	return fn, decl
}

// loopInfo is what a scan of a loop body finds.
type loopInfo struct {
	stmt  ast.Stmt
	body  *ast.BlockStmt
	label *types.Label
	// refreshV: see refreshVars (nil until asked).
	refreshV map[*types.Var]bool
	// calls are the candidate failing calls, in source order.
	calls []*ast.CallExpr
	// receives are the channel receives of the body, with their select
	// comm clause if any.
	receives []recv
	// sleepCalls are calls of sleeps and sleeping helpers.
	sleepCalls []*ast.CallExpr
	timerCalls []*ast.CallExpr
	status     bool // an HTTP status is read
	errStatus  bool // ... from a field of an error value (apiErr.Code)
	codes      bool // a gRPC code is read
	polling    bool
	// reconnect are the calls retried as a reconnect loop retries them
	// (see reconnects).
	reconnect []*ast.CallExpr
}

type recv struct {
	expr   *ast.UnaryExpr
	clause *ast.CommClause
	sel    *ast.SelectStmt
}

// errCond returns the call of a loop condition that compares a call's
// error with nil (for c.post(ctx) != nil { sleep }), or nil.
func (m *model) errCond(cond ast.Expr) *ast.CallExpr {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || (be.Op != token.NEQ && be.Op != token.EQL) {
		return nil
	}
	for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
		call, ok := ast.Unparen(pair[0]).(*ast.CallExpr)
		if !ok || !m.info.Types[pair[1]].IsNil() {
			continue
		}
		if t := m.info.TypeOf(call); t != nil && types.Identical(t, errorType) {
			return call
		}
	}
	return nil
}

// condBody is the body a loop whose condition makes the call is walked as:
// for COND { BODY } runs as for { if !(COND) { break }; BODY }. The
// synthetic nodes take the condition's positions.
func condBody(s *ast.ForStmt) *ast.BlockStmt {
	cond := s.Cond
	ifs := &ast.IfStmt{
		If:   cond.Pos(),
		Cond: &ast.UnaryExpr{OpPos: cond.Pos(), Op: token.NOT, X: &ast.ParenExpr{Lparen: cond.Pos(), X: cond, Rparen: cond.End() - 1}},
		Body: &ast.BlockStmt{Lbrace: cond.End(), List: []ast.Stmt{&ast.BranchStmt{TokPos: cond.End(), Tok: token.BREAK}}, Rbrace: cond.End()},
	}
	return &ast.BlockStmt{Lbrace: s.For, List: append([]ast.Stmt{ifs}, s.Body.List...), Rbrace: s.Body.Rbrace}
}

func (m *model) loop(stmt ast.Stmt, stack []ast.Node, fn ast.Node, decl *ast.FuncDecl) {
	li := &loopInfo{stmt: stmt}
	switch s := stmt.(type) {
	case *ast.ForStmt:
		li.body = s.Body
		if call := m.errCond(s.Cond); call != nil {
			li.body = condBody(s)
		}
	case *ast.RangeStmt:
		li.body = s.Body
		if m.rangesOverTicker(s.X) {
			return // for range time.Tick(d): polling
		}
		switch u := types.Unalias(m.info.TypeOf(s.X)).Underlying().(type) {
		case *types.Chan, *types.Signature:
			return // events or an iterator: each iteration waits for new input
		case *types.Basic:
			_ = u
		}
	}
	if len(stack) >= 2 {
		if l, ok := stack[len(stack)-2].(*ast.LabeledStmt); ok {
			li.label, _ = m.info.Defs[l.Label].(*types.Label)
		}
	}
	m.scan(li)
	if li.polling || len(li.calls) == 0 {
		return
	}
	if len(li.sleepCalls) == 0 && len(li.timerCalls) == 0 && !li.status && !li.codes && !m.anyRemote(li.calls) {
		return
	}
	L := &Loop{Stmt: stmt, Body: li.body, Func: fn, Decl: decl}
	m.counters(L, li)
	for _, c := range li.calls {
		if m.retried(L, li, c) {
			L.Retried = append(L.Retried, c)
		}
	}
	if len(L.Retried) == 0 {
		return
	}
	L.Reconnect = len(li.reconnect) == len(L.Retried)
	m.bounds(L, li)
	L.Exit = m.exits(L, li)
	m.sleeps(L, li)
	if L.Reconnect {
		// Only its waits matter: no retry layer, no attempt bound to miss.
		m.loops = append(m.loops, L)
		return
	}
	if li.status || li.codes {
		m.permanent(L, li)
	}
	m.loops = append(m.loops, L)
	st := &site{loop: L, decl: decl, fn: fn, attempts: L.attempts()}
	if L.Param != nil {
		st.param, st.paramOffset = m.paramIndex(decl, L.Param)+1, L.ParamOffset
	}
	m.addSite(st)
}

func (L *Loop) attempts() int {
	if L.Bound == ConstBound {
		return L.Attempts
	}
	return 0
}

// rangesOverTicker reports whether x is time.Tick(d) or a ticker's channel.
func (m *model) rangesOverTicker(x ast.Expr) bool {
	k, _ := m.timerOf(x)
	return k == knowledge.Ticker
}

// timerOf classifies a channel expression: a timer call's result, a timer's
// or ticker's C. It returns the timer kind and the call that made it (nil
// when out of sight).
func (m *model) timerOf(x ast.Expr) (knowledge.TimerKind, *ast.CallExpr) {
	x = ast.Unparen(x)
	switch e := x.(type) {
	case *ast.CallExpr:
		if row, ok := m.rt.Timers[m.key(e)]; ok {
			return row.Kind, e
		}
	case *ast.Ident:
		if v, ok := m.info.Uses[e].(*types.Var); ok && !m.x.addrTaken[v] {
			for _, d := range m.x.defs[v] {
				if c, ok := ast.Unparen(d.rhs).(*ast.CallExpr); ok && d.index < 0 {
					if row, ok := m.rt.Timers[m.key(c)]; ok {
						return row.Kind, c
					}
				}
			}
		}
	case *ast.SelectorExpr:
		if e.Sel.Name != "C" {
			return 0, nil
		}
		switch analysisutil.TypeKey(m.info.TypeOf(e.X)) {
		case "time.Ticker":
			return knowledge.Ticker, nil
		case "time.Timer":
			if v := m.x.varOf(e.X); v != nil && !m.x.addrTaken[v] {
				for _, d := range m.x.defs[v] {
					if c, ok := ast.Unparen(d.rhs).(*ast.CallExpr); ok {
						if row, ok := m.rt.Timers[m.key(c)]; ok && row.Kind == knowledge.NewTimer {
							return knowledge.NewTimer, c
						}
					}
				}
			}
			return knowledge.NewTimer, nil
		}
	}
	return 0, nil
}

// scan walks a loop body (not nested function literals nor nested loops,
// except a nested loop that continues this one by its label) and fills li.
func (m *model) scan(li *loopInfo) {
	var sel *ast.SelectStmt
	var clause *ast.CommClause
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			// A nested loop is its own, unless a failure in it restarts
			// this one (continue outer): its calls are this loop's too.
			if n != li.stmt && !m.continuesTo(n, li.label) {
				return false
			}
		case *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.SelectStmt:
			outer := sel
			sel = n
			for _, c := range n.Body.List {
				cc := c.(*ast.CommClause)
				oc := clause
				clause = cc
				if cc.Comm != nil {
					ast.Inspect(cc.Comm, visit)
				}
				clause = nil
				for _, s := range cc.Body {
					ast.Inspect(s, visit)
				}
				clause = oc
			}
			sel = outer
			return false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				r := recv{expr: n}
				if clause != nil && clause.Comm != nil && within(n.Pos(), clause.Comm) {
					r.clause, r.sel = clause, sel
				}
				li.receives = append(li.receives, r)
				if k, _ := m.timerOf(n.X); k == knowledge.Ticker {
					li.polling = true
				}
			}
		case *ast.BinaryExpr:
			// apiErr.Code >= 400: an error's Code or Status field is an
			// HTTP status only when compared with one.
			if m.errStatusCompare(n) {
				li.status, li.errStatus = true, true
			}
		case *ast.SelectorExpr:
			if m.isStatus(n) && !(m.errCarried(n) && (n.Sel.Name == "Code" || n.Sel.Name == "Status")) {
				li.status = true
				if m.errCarried(n) {
					li.errStatus = true
				}
			}
		case *ast.Ident:
			if !li.status && m.isStatusIdent(n) {
				li.status = true
			}
			if !li.codes && m.isCode(n) {
				li.codes = true
			}
		case *ast.CallExpr:
			if !li.codes && m.isCode(n) {
				li.codes = true
			}
			m.scanCall(li, n)
		}
		return true
	}
	ast.Inspect(li.body, visit)
}

func (m *model) scanCall(li *loopInfo, call *ast.CallExpr) {
	fn, _ := m.callee(call)
	key := ""
	if fn != nil {
		key = analysisutil.Key(fn)
	}
	if _, ok := m.rt.Sleeps[key]; ok {
		li.sleepCalls = append(li.sleepCalls, call)
		return
	}
	if row, ok := m.rt.Timers[key]; ok {
		if row.Kind == knowledge.Ticker && key != "time.AfterFunc" {
			li.polling = true
		}
		li.timerCalls = append(li.timerCalls, call)
		return
	}
	if fn != nil && m.sleepFact(fn) != nil {
		li.sleepCalls = append(li.sleepCalls, call)
		return
	}
	if m.candidate(call, fn, key) {
		li.calls = append(li.calls, call)
	}
}

var errorType = types.Universe.Lookup("error").Type()

// candidate reports whether a call can be a retried operation: it can fail
// (an error result, or an HTTP response), it is not a sleep, a constructor
// of errors, a context method, a delay source or a listener's Accept.
func (m *model) candidate(call *ast.CallExpr, fn *types.Func, key string) bool {
	tv, ok := m.info.Types[call.Fun]
	if ok && tv.IsType() {
		return false // a conversion
	}
	sig, ok := types.Unalias(m.info.TypeOf(call.Fun)).Underlying().(*types.Signature)
	if !ok || sig.Results().Len() == 0 {
		return false
	}
	last := sig.Results().At(sig.Results().Len() - 1).Type()
	if !types.Identical(last, errorType) && !m.isResponse(sig) {
		return false
	}
	if fn != nil {
		if fn.Pkg() != nil && m.rt.LocalPackages[fn.Pkg().Path()] {
			return false
		}
		if m.rt.LocalCalls[key] {
			return false
		}
		if m.rt.Accept[key] || fn.Name() == "Accept" || fn.Name() == "AcceptTCP" || fn.Name() == "AcceptUnix" {
			return false
		}
		if _, ok := m.rt.Configs[key]; ok {
			return false
		}
		if analysisutil.IsContext(recvType(fn)) {
			return false
		}
		if fn.Name() == "Close" {
			return false
		}
	}
	return true
}

func recvType(fn *types.Func) types.Type {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return nil
	}
	return sig.Recv().Type()
}

// isResponse reports whether a signature returns an HTTP response.
func (m *model) isResponse(sig *types.Signature) bool {
	for i := 0; i < sig.Results().Len(); i++ {
		if analysisutil.TypeKey(sig.Results().At(i).Type()) == "net/http.Response" {
			return true
		}
	}
	return false
}

// anyRemote reports whether one of the calls reaches another process.
func (m *model) anyRemote(calls []*ast.CallExpr) bool {
	for _, c := range calls {
		if m.remote(c, 0) {
			return true
		}
	}
	return false
}

// outbound reports whether a call surely talks to a dependency: an outbound
// call of the table, or a function that forwards its context to one.
func (m *model) outbound(call *ast.CallExpr) bool {
	_, ok := m.ob.ByCall[call]
	return ok || m.forwards[call]
}

// reconnects reports whether a loop that never leaves on success is a
// reconnect loop for call: a for loop without a condition whose body makes
// the call as a statement of its own and handles its error right after,
//
//	for {
//		next, err := inf.watch(ctx, rv)
//		if err != nil {
//			log.Printf("watch: %v", err)
//			time.Sleep(2 * time.Second)
//			continue
//		}
//		rv = next
//	}
//
// with an if err != nil whose body waits and then goes round (continue, or
// the end of the body), and no wait anywhere else: it waits only after a
// failure, before calling again. A loop that also waits after success paces
// its work (polling) and is no reconnect loop.
func (m *model) reconnects(L *Loop, li *loopInfo, call *ast.CallExpr) bool {
	fs, ok := L.Stmt.(*ast.ForStmt)
	if !ok || fs.Cond != nil || !m.remote(call, 0) {
		return false
	}
	waits := map[*ast.CallExpr]bool{}
	for _, c := range li.sleepCalls {
		waits[c] = true
	}
	for _, c := range li.timerCalls {
		waits[c] = true
	}
	if len(waits) == 0 {
		return false
	}
	var errV *types.Var
	handled := map[*ast.CallExpr]bool{}
	for i, st := range L.Body.List {
		if errV == nil {
			as, ok := st.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != call || len(as.Lhs) == 0 {
				continue
			}
			v := m.x.varOf(as.Lhs[len(as.Lhs)-1])
			if v == nil || !types.Identical(v.Type(), errorType) {
				return false
			}
			errV = v
			continue
		}
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Init != nil || ifs.Else != nil {
			continue
		}
		if !m.failed(ifs.Cond, errV) {
			continue
		}
		last := len(ifs.Body.List) - 1
		if last < 0 {
			return false
		}
		br, isBranch := ifs.Body.List[last].(*ast.BranchStmt)
		goesRound := isBranch && br.Tok == token.CONTINUE && (br.Label == nil || li.label != nil && m.info.Uses[br.Label] == li.label)
		if !goesRound && i != len(L.Body.List)-1 {
			return false
		}
		ast.Inspect(ifs.Body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if c, ok := n.(*ast.CallExpr); ok && waits[c] {
				handled[c] = true
			}
			return true
		})
		break
	}
	return len(handled) > 0 && len(handled) == len(waits)
}

// failed reports whether cond holds only when err (v) is not nil: err !=
// nil, or err != nil && more (!errors.Is(err, redis.Nil): a sentinel that
// is no failure).
func (m *model) failed(cond ast.Expr, v *types.Var) bool {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	if be.Op == token.LAND {
		return m.failed(be.X, v)
	}
	return be.Op == token.NEQ && isNil(m.info, be.Y) && m.x.varOf(be.X) == v
}

// sameAfterFailure reports whether, in a reconnect loop (see reconnects),
// no variable the call reads is assigned in the block that handles its
// failure: after a failure it is called again as it was. To be safe it
// reads every if of the body whose condition is a comparison with != or a
// conjunction (the failure check, err != nil && ..., and any other).
func (m *model) sameAfterFailure(L *Loop, call *ast.CallExpr) bool {
	read := map[*types.Var]bool{}
	ast.Inspect(call, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := m.info.Uses[id].(*types.Var); ok {
				read[v] = true
			}
		}
		return true
	})
	same := true
	for _, st := range L.Body.List {
		ifs, ok := st.(*ast.IfStmt)
		if !ok {
			continue
		}
		be, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
		if !ok || (be.Op != token.NEQ && be.Op != token.LAND) {
			continue
		}
		ast.Inspect(ifs.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if v := m.x.rootVar(l); v != nil && read[v] {
						same = false
					}
				}
			case *ast.IncDecStmt:
				if v := m.x.rootVar(n.X); v != nil && read[v] {
					same = false
				}
			}
			return same
		})
	}
	return same
}

// sendsOut reports whether a function of the package makes an outbound
// call of the table in its body.
func (m *model) sendsOut(d *ast.FuncDecl) bool {
	if r, ok := m.sendsMemo[d]; ok {
		return r
	}
	found := false
	if d.Body != nil {
		ast.Inspect(d.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && !found {
				if _, ok := m.ob.ByCall[c]; ok {
					found = true
				}
			}
			return !found
		})
	}
	m.sendsMemo[d] = found
	return found
}

// remote reports whether a call reaches another process: an outbound call
// of the table, a gRPC-shaped method, a function that forwards its context
// to one or retries, a call taking a context, a retry helper, or a call
// whose function-literal arguments make such calls (a breaker's Execute).
func (m *model) remote(call *ast.CallExpr, depth int) bool {
	if m.outbound(call) {
		return true
	}
	fn, _ := m.callee(call)
	if fn != nil {
		if _, ok := m.rt.Helpers[analysisutil.Key(fn)]; ok {
			return true
		}
		if d := m.x.decls[fn.Origin()]; d != nil && fn.Pkg() == m.pass.Pkg && m.sendsOut(d) {
			return true // a helper of the package that makes an outbound call (t.do(req))
		}
		if m.collecting && fn.Pkg() == m.pass.Pkg && m.x.decls[fn.Origin()] != nil {
			return true // maybe: decided once every layer of the package is known
		}
		if f := m.fact(fn); f != nil && len(f.Layers) > 0 {
			return true
		}
	}
	for _, a := range call.Args {
		if analysisutil.IsContext(m.info.TypeOf(a)) {
			return true
		}
	}
	if depth > 2 {
		return false
	}
	// The result of a remote call, read by a method of its own
	// (rdb.Get(ctx, k).Bytes(), resp.Result()).
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if inner, ok := ast.Unparen(sel.X).(*ast.CallExpr); ok && m.remote(inner, depth+1) {
			return true
		}
	}
	for _, a := range call.Args {
		lit, ok := ast.Unparen(a).(*ast.FuncLit)
		if !ok {
			continue
		}
		found := false
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if found {
				return false
			}
			if c, ok := n.(*ast.CallExpr); ok && m.remote(c, depth+1) {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// counters finds the loop's attempt counter: the variable a for loop's
// post statement increments, the key of a range over an integer, or a
// variable the body increments.
func (m *model) counters(L *Loop, li *loopInfo) {
	switch s := L.Stmt.(type) {
	case *ast.ForStmt:
		if v, step := m.incOf(s.Post); v != nil && step == 1 {
			L.Counter = v
			if lo, ok := m.startOf(v, L); ok {
				L.CounterStart, L.Counted = lo, true
			}
			return
		}
	case *ast.RangeStmt:
		if b, ok := types.Unalias(m.info.TypeOf(s.X)).Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			if v := m.x.varOf(s.Key); v != nil {
				L.Counter, L.CounterStart, L.Counted = v, 0, true
			}
			return
		}
	}
	// A variable incremented once in the body.
	for _, c := range m.bodyCounters(L) {
		if c.step == 1 {
			L.Counter = c.v
			if lo, ok := m.startOf(c.v, L); ok {
				L.CounterStart, L.Counted = lo, true
			}
			return
		}
	}
}

type counter struct {
	v    *types.Var
	step int64
	pos  token.Pos // the increment in the body (NoPos in the post statement)
}

// incOf reads an increment statement: v++, v--, v += k, v -= k.
func (m *model) incOf(s ast.Stmt) (*types.Var, int64) {
	switch s := s.(type) {
	case *ast.IncDecStmt:
		v := m.x.varOf(s.X)
		if v == nil || !isInteger(v.Type()) {
			return nil, 0
		}
		if s.Tok == token.INC {
			return v, 1
		}
		return v, -1
	case *ast.AssignStmt:
		if len(s.Lhs) != 1 || len(s.Rhs) != 1 || (s.Tok != token.ADD_ASSIGN && s.Tok != token.SUB_ASSIGN) {
			return nil, 0
		}
		v := m.x.varOf(s.Lhs[0])
		k, ok := m.constInt(s.Rhs[0])
		if v == nil || !ok || !isInteger(v.Type()) {
			return nil, 0
		}
		if s.Tok == token.SUB_ASSIGN {
			k = -k
		}
		return v, k
	}
	return nil, 0
}

func isInteger(t types.Type) bool {
	b, ok := types.Unalias(t).Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// bodyCounters returns the variables the loop body increments or
// decrements by a constant and assigns nowhere else in the loop.
func (m *model) bodyCounters(L *Loop) []counter {
	var out []counter
	seen := map[*types.Var]bool{}
	ast.Inspect(L.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IncDecStmt, *ast.AssignStmt:
			v, step := m.incOf(n.(ast.Stmt))
			if v == nil || seen[v] {
				return true
			}
			seen[v] = true
			// Only this assignment in the repeated part of the loop (the
			// init statement runs once).
			count := 0
			for _, d := range m.x.defs[v] {
				if within(d.pos, L.Body) {
					count++
				}
				if fs, ok := L.Stmt.(*ast.ForStmt); ok && fs.Post != nil && within(d.pos, fs.Post) {
					count++
				}
			}
			if count == 1 && !m.x.addrTaken[v] {
				out = append(out, counter{v: v, step: step, pos: n.Pos()})
			}
		}
		return true
	})
	return out
}

// startOf returns the constant a counter starts at: the loop's init
// statement, or its one definition before the loop.
func (m *model) startOf(v *types.Var, L *Loop) (int64, bool) {
	var val ast.Expr
	n := 0
	for _, d := range m.x.defs[v] {
		if within(d.pos, L.Body) {
			continue
		}
		if fs, ok := L.Stmt.(*ast.ForStmt); ok && fs.Post != nil && within(d.pos, fs.Post) {
			continue
		}
		if d.op != token.DEFINE && d.op != token.ASSIGN {
			return 0, false
		}
		if d.index >= 0 || d.rng != nil {
			return 0, false
		}
		n++
		val = d.rhs
	}
	if n != 1 {
		return 0, false
	}
	if val == nil {
		return 0, true // var i int
	}
	return m.constInt(val)
}

// constInt returns the value of an integer constant expression, or of a
// variable whose only definition is one (attempts := 3).
func (m *model) constInt(e ast.Expr) (int64, bool) {
	return m.constIntDepth(e, 0)
}

func (m *model) constIntDepth(e ast.Expr, depth int) (int64, bool) {
	if e == nil || depth > 4 {
		return 0, false
	}
	tv, ok := m.info.Types[e]
	if !ok {
		return 0, false
	}
	if tv.Value == nil {
		id, isID := ast.Unparen(e).(*ast.Ident)
		if !isID || m.x == nil {
			return 0, false
		}
		v, isVar := m.info.Uses[id].(*types.Var)
		if !isVar || m.x.addrTaken[v] || v.IsField() {
			return 0, false
		}
		ds := m.x.defs[v]
		if len(ds) != 1 || ds[0].index >= 0 || ds[0].rhs == nil || ds[0].op != token.DEFINE {
			return 0, false
		}
		if _, _, isParam := m.m.IsParam(v); isParam {
			return 0, false
		}
		return m.constIntDepth(ds[0].rhs, depth+1)
	}
	v := constant.ToInt(tv.Value)
	if v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}

// bounds finds what limits the attempts: the loop condition, a check in the
// body that leaves the loop, the range.
func (m *model) bounds(L *Loop, li *loopInfo) {
	best := -1
	bounded := false
	note := func(n int, ok bool) {
		bounded = true
		if ok && n > 0 && (best < 0 || n < best) {
			best = n
		}
	}
	counters := m.bodyCounters(L)
	if L.Counter != nil {
		found := false
		for _, c := range counters {
			if c.v == L.Counter {
				found = true
			}
		}
		if !found {
			counters = append(counters, counter{v: L.Counter, step: 1})
		}
	}
	firstCall := L.Retried[0].Pos()
	switch s := L.Stmt.(type) {
	case *ast.ForStmt:
		if s.Cond != nil {
			for _, c := range counters {
				if !mentions(m.info, s.Cond, c.v) {
					continue
				}
				n, ok := m.simulate(L, c, s.Cond, false, false)
				note(n, ok)
				if !ok {
					m.paramBound(L, c, s.Cond, false, false, false)
				}
			}
		}
	case *ast.RangeStmt:
		switch u := types.Unalias(m.info.TypeOf(s.X)).Underlying().(type) {
		case *types.Basic:
			n, ok := m.constInt(s.X)
			note(int(n), ok)
		case *types.Array:
			note(int(u.Len()), true)
		default:
			if n, ok := m.literalLen(s.X); ok {
				note(n, true)
			} else {
				note(0, false)
			}
		}
	}
	// Checks in the body that leave the loop: if attempt >= max { return },
	// or if attempt < max { sleep; continue } followed by a return.
	parents := parentLists(L.Body)
	m.eachIf(L.Body, func(ifs *ast.IfStmt) {
		breakLeaves := !m.inSwitch(L.Body, ifs)
		var cond ast.Expr
		switch {
		case m.leaves(ifs.Body.List, breakLeaves, L, li):
			cond = ifs.Cond
		case ifs.Else == nil && goesRound(ifs.Body.List) && m.leaves(parents[ifs], breakLeaves, L, li):
			cond = &ast.UnaryExpr{Op: token.NOT, X: ifs.Cond}
		default:
			return
		}
		for _, c := range counters {
			if !m.mentionsVia(L, ifs.Cond, c.v) {
				continue
			}
			incBefore := c.pos.IsValid() && c.pos < ifs.Pos()
			after := ifs.Pos() > firstCall
			n, ok := m.simulate(L, c, cond, true, incBefore)
			if ok && after {
				n++
			}
			note(n, ok)
			if !ok {
				m.paramBound(L, c, cond, true, incBefore, after)
			}
		}
	})
	switch {
	case best > 0:
		L.Bound, L.Attempts = ConstBound, best
	case bounded:
		L.Bound = VarBound
	}
}

// paramBound records on L a parameter of the loop's function that bounds
// its attempts: a condition the counter is compared with a parameter in
// (attempt < attempts, attempt >= retries), when simulating it with the
// parameter at several values gives the value plus a fixed offset. The
// parameter must be the declaration's own, never assigned nor addressed. A
// caller passing a constant then knows the attempts.
func (m *model) paramBound(L *Loop, c counter, cond ast.Expr, fires, incBefore, after bool) {
	if L.Param != nil || L.Decl == nil || L.Func != ast.Node(L.Decl) {
		return
	}
	var params []*types.Var
	ast.Inspect(cond, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := m.info.Uses[id].(*types.Var)
		if !ok || v == c.v || !isInteger(v.Type()) || len(m.x.defs[v]) != 0 || m.x.addrTaken[v] {
			return true
		}
		if m.paramIndex(L.Decl, v) >= 0 {
			params = append(params, v)
		}
		return true
	})
	if len(params) != 1 {
		return
	}
	p := params[0]
	at := func(val int64) (int64, bool) {
		m.bind = map[*types.Var]int64{p: val}
		defer func() { m.bind = nil }()
		n, ok := m.simulate(L, c, cond, fires, incBefore)
		if ok && after {
			n++
		}
		return int64(n), ok
	}
	n, ok := at(10)
	if !ok {
		return
	}
	off := n - 10
	// The offset holds at every value checked, down to one attempt.
	for _, k := range []int64{1, 2, 3, 5, 17} {
		if n, ok := at(k - off); !ok || n != k {
			return
		}
	}
	L.Param, L.ParamOffset = p, int(off)
}

// parentLists maps each if statement of a body to the statements that
// follow it in its list.
func parentLists(body *ast.BlockStmt) map[*ast.IfStmt][]ast.Stmt {
	out := map[*ast.IfStmt][]ast.Stmt{}
	ast.Inspect(body, func(n ast.Node) bool {
		var list []ast.Stmt
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			list = n.List
		case *ast.CaseClause:
			list = n.Body
		case *ast.CommClause:
			list = n.Body
		}
		for i, s := range list {
			if ifs, ok := s.(*ast.IfStmt); ok {
				out[ifs] = list[i+1:]
			}
		}
		return true
	})
	return out
}

// goesRound reports whether a statement list ends with continue.
func goesRound(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	b, ok := list[len(list)-1].(*ast.BranchStmt)
	return ok && b.Tok == token.CONTINUE
}

// literalLen returns the length of a composite literal, or of a variable
// defined once by one.
func (m *model) literalLen(e ast.Expr) (int, bool) {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		v, _ := m.info.Uses[id].(*types.Var)
		if v == nil || len(m.x.defs[v]) != 1 || m.x.defs[v][0].index >= 0 {
			return 0, false
		}
		e = ast.Unparen(m.x.defs[v][0].rhs)
	}
	if cl, ok := e.(*ast.CompositeLit); ok {
		for _, el := range cl.Elts {
			if _, ok := el.(*ast.KeyValueExpr); ok {
				return 0, false
			}
		}
		return len(cl.Elts), true
	}
	return 0, false
}

// simulate counts the iterations a counter condition allows. For a loop
// condition (fires=false) the loop runs while cond may hold; for a check
// in the body (fires=true) the loop leaves on the first iteration where
// cond surely holds. It returns the iterations before the loop stops.
func (m *model) simulate(L *Loop, c counter, cond ast.Expr, fires, incBefore bool) (int, bool) {
	lo, ok := m.startOf(c.v, L)
	if !ok {
		return 0, false
	}
	for k := int64(0); k < 10000; k++ {
		val := lo + k*c.step
		if incBefore {
			val += c.step
		}
		r := m.evalWith(cond, c.v, val)
		if fires && r == yes {
			return int(k), true
		}
		if !fires && r == no {
			return int(k), true
		}
	}
	return 0, false
}

// evalWith evaluates a condition with v = val; unknown parts are unknown.
func (m *model) evalWith(e ast.Expr, v *types.Var, val int64) tri {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return m.evalWith(e.X, v, val).not()
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND:
			return m.evalWith(e.X, v, val).and(m.evalWith(e.Y, v, val))
		case token.LOR:
			return m.evalWith(e.X, v, val).or(m.evalWith(e.Y, v, val))
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			x, okx := m.intWith(e.X, v, val)
			y, oky := m.intWith(e.Y, v, val)
			if okx && oky {
				return compare(e.Op, x, y)
			}
		}
	}
	return unk
}

func (m *model) intWith(e ast.Expr, v *types.Var, val int64) (int64, bool) {
	if n, ok := m.constInt(e); ok {
		return n, true
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if m.info.Uses[e] == v {
			return val, true
		}
		if w, ok := m.info.Uses[e].(*types.Var); ok && m.bind != nil {
			if b, ok := m.bind[w]; ok {
				return b, true
			}
		}
		// A local computed from the counter once per iteration:
		// remain := max - attempt.
		if w, ok := m.info.Uses[e].(*types.Var); ok {
			if ds := m.x.defs[w]; len(ds) == 1 && ds[0].rhs != nil && ds[0].index < 0 && ds[0].op == token.DEFINE && mentions(m.info, ds[0].rhs, v) {
				return m.intWith(ds[0].rhs, v, val)
			}
		}
	case *ast.BinaryExpr:
		x, okx := m.intWith(e.X, v, val)
		y, oky := m.intWith(e.Y, v, val)
		if okx && oky {
			return arith(e.Op, x, y)
		}
	case *ast.CallExpr:
		if len(e.Args) == 1 {
			if tv, ok := m.info.Types[e.Fun]; ok && tv.IsType() {
				return m.intWith(e.Args[0], v, val)
			}
		}
	}
	return 0, false
}

func arith(op token.Token, x, y int64) (int64, bool) {
	switch op {
	case token.ADD:
		return x + y, true
	case token.SUB:
		return x - y, true
	case token.MUL:
		return x * y, true
	case token.QUO:
		if y != 0 {
			return x / y, true
		}
	case token.REM:
		if y != 0 {
			return x % y, true
		}
	}
	return 0, false
}

func compare(op token.Token, x, y int64) tri {
	var b bool
	switch op {
	case token.EQL:
		b = x == y
	case token.NEQ:
		b = x != y
	case token.LSS:
		b = x < y
	case token.LEQ:
		b = x <= y
	case token.GTR:
		b = x > y
	case token.GEQ:
		b = x >= y
	}
	if b {
		return yes
	}
	return no
}

// mentionsVia reports whether e uses v, directly or through a variable
// defined once in the loop from it.
func (m *model) mentionsVia(L *Loop, e ast.Node, v *types.Var) bool {
	if mentions(m.info, e, v) {
		return true
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if w, ok := m.info.Uses[id].(*types.Var); ok && within(w.Pos(), L.Body) {
				if ds := m.x.defs[w]; len(ds) == 1 && ds[0].rhs != nil && mentions(m.info, ds[0].rhs, v) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// mentions reports whether e uses v.
func mentions(info *types.Info, e ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

// eachIf calls f for every if statement of a loop body, not inside nested
// loops or function literals.
func (m *model) eachIf(body *ast.BlockStmt, f func(*ast.IfStmt)) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.IfStmt:
			f(n)
		}
		return true
	})
}

// leaves reports whether a statement list surely leaves the loop L.
// breakLeaves: an unlabelled break in the list breaks L (the list is not
// inside a switch or select of the body).
func (m *model) leaves(list []ast.Stmt, breakLeaves bool, L *Loop, li *loopInfo) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		if c, ok := s.X.(*ast.CallExpr); ok {
			return m.noReturn(c)
		}
	case *ast.BranchStmt:
		switch s.Tok {
		case token.GOTO:
			return true
		case token.BREAK:
			if s.Label == nil {
				return breakLeaves
			}
			return m.outerLabel(s.Label, L, li)
		case token.CONTINUE:
			if s.Label != nil {
				lbl, _ := m.info.Uses[s.Label].(*types.Label)
				return lbl != li.label && m.outerLabel(s.Label, L, li)
			}
		}
	case *ast.BlockStmt:
		return m.leaves(s.List, breakLeaves, L, li)
	case *ast.IfStmt:
		if s.Else == nil {
			return false
		}
		var els []ast.Stmt
		switch e := s.Else.(type) {
		case *ast.BlockStmt:
			els = e.List
		case *ast.IfStmt:
			els = []ast.Stmt{e}
		}
		return m.leaves(s.Body.List, breakLeaves, L, li) && m.leaves(els, breakLeaves, L, li)
	}
	return false
}

// outerLabel reports whether a label names L or a statement enclosing it.
func (m *model) outerLabel(id *ast.Ident, L *Loop, li *loopInfo) bool {
	lbl, _ := m.info.Uses[id].(*types.Label)
	if lbl == nil {
		return false
	}
	if lbl == li.label {
		return true
	}
	// A label declared before the loop encloses it (labels inside the body
	// come after its start).
	return lbl.Pos() < L.Stmt.Pos()
}

// noReturn reports whether a call never returns: panic, os.Exit,
// log.Fatal*, log.Panic*, (*testing.common).Fatal*, runtime.Goexit.
func (m *model) noReturn(c *ast.CallExpr) bool {
	if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && id.Name == "panic" {
		if _, ok := m.info.Uses[id].(*types.Builtin); ok {
			return true
		}
	}
	fn, _ := m.callee(c)
	if fn == nil {
		return false
	}
	switch analysisutil.Key(fn) {
	case "os.Exit", "log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf", "log.Panicln",
		"(*log.Logger).Fatal", "(*log.Logger).Fatalf", "(*log.Logger).Fatalln",
		"(*log.Logger).Panic", "(*log.Logger).Panicf", "(*log.Logger).Panicln",
		"(*testing.common).Fatal", "(*testing.common).Fatalf", "(*testing.common).FailNow",
		"(*testing.common).Skip", "(*testing.common).Skipf", "(*testing.common).SkipNow", "runtime.Goexit":
		return true
	}
	return false
}

// exits reports whether the loop leaves when a context is done, a deadline
// passes, a done channel receives, or a delay source says stop.
// holdsCall reports whether e contains one of the calls.
func holdsCall(e ast.Node, calls []*ast.CallExpr) bool {
	for _, c := range calls {
		if within(c.Pos(), e) {
			return true
		}
	}
	return false
}

func (m *model) exits(L *Loop, li *loopInfo) bool {
	results := m.callResults(L)
	if fs, ok := L.Stmt.(*ast.ForStmt); ok && fs.Cond != nil && !holdsCall(fs.Cond, L.Retried) {
		if m.deadCtx(fs.Cond) {
			return false // for ctx.Err() == nil on a context that never ends
		}
		if m.ctxish(fs.Cond) {
			return true
		}
		// A loop condition that is neither a constant, nor the outcome of
		// the calls, nor an attempt counter is a stop signal of its own:
		// for b.Ongoing() (a backoff built with ctx and a retry limit),
		// for !stopped.Load().
		if tv, ok := m.info.Types[fs.Cond]; !(ok && tv.Value != nil) &&
			!mentionsAny(m.info, fs.Cond, results) && !m.mentionsCounter(L, fs.Cond) {
			return true
		}
	}
	for _, r := range li.receives {
		if r.clause == nil {
			continue
		}
		if k, _ := m.timerOf(r.expr.X); k != 0 {
			continue
		}
		if m.deadCtx(r.expr.X) {
			continue // <-ctx.Done() of a context.Background(): never ready
		}
		if m.leaves(r.clause.Body, false, L, li) {
			return true
		}
	}
	found := false
	m.eachIf(L.Body, func(ifs *ast.IfStmt) {
		if found {
			return
		}
		cond := ifs.Cond
		if holdsCall(cond, L.Retried) {
			return // if c.post(ctx) == nil { return }: the outcome, not a stop
		}
		stop := m.ctxish(cond) || (ifs.Init != nil && m.ctxish(ifs.Init)) && m.mentionsInitVar(ifs)
		// A stop signal that does not depend on what the calls of the loop
		// returned: if p.closed() { return }, if stopping.Load() { break }.
		if !stop && ifs.Init == nil && !mentionsAny(m.info, cond, results) && !m.mentionsCounter(L, cond) {
			stop = true
		}
		if m.deadCtx(cond) || ifs.Init != nil && m.deadCtx(ifs.Init) {
			stop = false // if ctx.Err() != nil on a context that never ends
		}
		if stop && m.leaves(ifs.Body.List, !m.inSwitch(L.Body, ifs), L, li) {
			found = true
		}
	})
	return found
}

// mentionsCounter reports whether a condition reads an attempt counter of
// the loop (a bound, not a stop signal).
func (m *model) mentionsCounter(L *Loop, cond ast.Expr) bool {
	if L.Counter != nil && m.mentionsVia(L, cond, L.Counter) {
		return true
	}
	for _, c := range m.bodyCounters(L) {
		if m.mentionsVia(L, cond, c.v) {
			return true
		}
	}
	return false
}

// callResults returns the variables the loop body sets from call results.
func (m *model) callResults(L *Loop) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	ast.Inspect(L.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 {
				if _, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
					for _, l := range n.Lhs {
						if v := m.x.varOf(l); v != nil {
							out[v] = true
						}
					}
				}
				if _, ok := ast.Unparen(n.Rhs[0]).(*ast.TypeAssertExpr); ok {
					for _, l := range n.Lhs {
						if v := m.x.varOf(l); v != nil {
							out[v] = true
						}
					}
				}
			}
			for i, r := range n.Rhs {
				if i < len(n.Lhs) && len(n.Lhs) == len(n.Rhs) {
					if v := m.x.varOf(n.Lhs[i]); v != nil && mentionsAny(m.info, r, out) {
						out[v] = true
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Values) == 1 {
				if _, ok := ast.Unparen(n.Values[0]).(*ast.CallExpr); ok {
					for _, id := range n.Names {
						if v, ok := m.info.Defs[id].(*types.Var); ok {
							out[v] = true
						}
					}
				}
			}
		}
		return true
	})
	return out
}

// mentionsAny reports whether e uses one of vars.
func mentionsAny(info *types.Info, e ast.Node, vars map[*types.Var]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && vars[v] {
				found = true
			}
		}
		return !found
	})
	return found
}

// mentionsInitVar reports whether an if statement's condition tests a
// variable its init statement defines (if err := resil.Sleep(...); err != nil).
func (m *model) mentionsInitVar(ifs *ast.IfStmt) bool {
	as, ok := ifs.Init.(*ast.AssignStmt)
	if !ok {
		return false
	}
	for _, l := range as.Lhs {
		if v := m.x.varOf(l); v != nil && mentions(m.info, ifs.Cond, v) {
			return true
		}
	}
	return false
}

// inSwitch reports whether n sits inside a switch or select of body (where
// an unlabelled break does not leave the loop).
func (m *model) inSwitch(body *ast.BlockStmt, n ast.Node) bool {
	in := false
	ast.Inspect(body, func(x ast.Node) bool {
		if in {
			return false
		}
		switch x := x.(type) {
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			if within(n.Pos(), x) {
				in = true
			}
		case *ast.FuncLit:
			return false
		}
		return true
	})
	return in
}

// ctxish reports whether an expression watches a context, a deadline, or
// a stop signal: ctx.Err(), ctx.Done(), context.Canceled, the result of a
// context-aware sleep, time.Now/Since/Until and time.Time methods, a delay
// source's Stop.
// deadCtx reports whether e calls a method (Done, Err) of a context that
// never ends: context.Background() or TODO(), directly or through a local
// variable every definition of which is one. A parameter, a derived
// context (WithCancel, WithTimeout) or anything else may end.
func (m *model) deadCtx(e ast.Node) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if _, recv := m.callee(call); recv != nil && analysisutil.IsContext(m.info.TypeOf(recv)) && m.neverEnds(recv) {
				found = true
			}
		}
		return true
	})
	return found
}

// neverEnds reports whether a context expression is context.Background()
// or TODO(), directly or through a local variable defined only by them.
func (m *model) neverEnds(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		row, ok := m.table.Contexts[m.key(x)]
		return ok && row.Effect == knowledge.Root
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		return ok && !m.x.addrTaken[v] && m.rootOnly(v)
	}
	return false
}

func (m *model) ctxish(e ast.Node) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			fn, recv := m.callee(n)
			if fn == nil {
				return true
			}
			key := analysisutil.Key(fn)
			switch {
			case recv != nil && analysisutil.IsContext(m.info.TypeOf(recv)):
				found = true
			case key == "time.Now" || key == "time.Since" || key == "time.Until":
				found = true
			case analysisutil.TypeKey(recvType(fn)) == "time.Time":
				found = true
			}
			if row, ok := m.rt.Sleeps[key]; ok && row.Ctx >= 0 {
				found = true
			}
			if sf := m.sleepFact(fn); sf != nil && sf.CtxAware {
				found = true
			}
		case *ast.Ident:
			obj := m.info.Uses[n]
			if v, ok := obj.(*types.Var); ok {
				if k := analysisutil.VarKey(v); m.rt.ContextErrs[k] {
					found = true
				}
				// A variable holding a context-aware sleep's result.
				for _, d := range m.x.defs[v] {
					if c, ok := ast.Unparen(d.rhs).(*ast.CallExpr); ok {
						if fn, _ := m.callee(c); fn != nil {
							if row, ok := m.rt.Sleeps[analysisutil.Key(fn)]; ok && row.Ctx >= 0 {
								found = true
							}
						}
					}
				}
			}
			if c, ok := obj.(*types.Const); ok && c.Pkg() != nil && m.rt.Stops[c.Pkg().Path()+"."+c.Name()] {
				found = true
			}
		case *ast.SelectorExpr:
			if obj, ok := m.info.Uses[n.Sel]; ok && obj.Pkg() != nil {
				k := obj.Pkg().Path() + "." + obj.Name()
				if m.rt.ContextErrs[k] || m.rt.Stops[k] {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// errStatusCompare reports whether a comparison reads a status field of an
// error value against an HTTP status constant (100-599).
func (m *model) errStatusCompare(be *ast.BinaryExpr) bool {
	switch be.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		return false
	}
	for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
		sel, ok := ast.Unparen(pair[0]).(*ast.SelectorExpr)
		if !ok || !m.isStatus(sel) || !m.errCarried(sel) {
			continue
		}
		if n, ok := m.constInt(pair[1]); ok && n >= 100 && n <= 599 {
			return true
		}
	}
	return false
}
