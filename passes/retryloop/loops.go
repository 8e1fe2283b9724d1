package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
	"golang.org/x/tools/go/ast/inspector"
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
	for _, imp := range m.pass.Pkg.Imports() {
		if m.importsHelpers {
			break
		}
		// A package of the module that retries or makes retry
		// configurations (ConfigFact): its clients are used here.
		m.importsHelpers = m.pass.ImportPackageFact(imp, new(RetriesFact))
	}
	sleepPaths := map[string]bool{"time": true}
	for k := range m.rt.Sleeps {
		sleepPaths[knowledge.PathOf(k)] = true
	}
	m.importsTime = analysisutil.Imports(m.pass.Pkg, sleepPaths)
	filter := []ast.Node{(*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.CallExpr)(nil),
		(*ast.AssignStmt)(nil), (*ast.CompositeLit)(nil), (*ast.LabeledStmt)(nil)}
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
			m.serviceRetry(n)
		case *ast.ForStmt, *ast.RangeStmt:
			if fn != nil {
				m.loop(n.(ast.Stmt), stack, fn, decl)
			}
		case *ast.LabeledStmt:
			if fn != nil {
				m.gotoLoop(n, stack, fn, decl)
			}
		}
		return true
	})
	m.findOwnHelpers()
	m.ownHelperCalls()
	m.predicates()
	m.opPermanents()
	m.helperClasses()
	// Where the retried work goes, once every call of the package is known
	// (an own helper's operations are handed over by its callers).
	for _, L := range m.loops {
		L.Place = m.loopPlace(L)
	}
	for _, h := range m.helpers {
		h.Place = m.opsPlace(h)
	}
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
	// refreshV: the inputs of each call's next attempt (walker.inputs).
	refreshV map[*ast.CallExpr]map[*types.Var]bool
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
	// waits are the nodes that wait (sleep calls, timer calls, receives
	// from timers), and pacing the bits of those passed on a path where the
	// call succeeded and the loop goes round: they pace the work.
	waits  []ast.Node
	pacing uint64
	// roundWaits are the bits of the waits passed on some path of some
	// walk that goes round (roundSeen: a walk went round): a wait on no
	// such path precedes no further attempt.
	roundWaits uint64
	roundSeen  bool
	roundAll   bool // a reconnect loop, judged by its shape: every wait counts
	// observed counts the candidate calls whose outcome the loop looks at
	// (0: not counted yet, -1: none); observedList holds them.
	observed     int
	observedList []*ast.CallExpr
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

// gotoLoop reads a label that a goto below it jumps back to (retry: ...;
// if err != nil { goto retry }) as a loop: the statements from the label
// to the end of its block are the body, the goto goes round, and running
// off the end leaves. The loop is synthetic: a for statement with no
// condition whose body ends in a break, at the label's position.
func (m *model) gotoLoop(ls *ast.LabeledStmt, stack []ast.Node, fn ast.Node, decl *ast.FuncDecl) {
	if len(stack) < 2 {
		return
	}
	var list []ast.Stmt
	switch p := stack[len(stack)-2].(type) {
	case *ast.BlockStmt:
		list = p.List
	case *ast.CaseClause:
		list = p.Body
	case *ast.CommClause:
		list = p.Body
	default:
		return
	}
	i := slices.Index(list, ast.Stmt(ls))
	lbl, _ := m.info.Defs[ls.Label].(*types.Label)
	if i < 0 || lbl == nil {
		return
	}
	region := append([]ast.Stmt{ls.Stmt}, list[i+1:]...)
	back := false
	for _, st := range region {
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				if n.Tok == token.GOTO && n.Label != nil && m.info.Uses[n.Label] == lbl {
					back = true
				}
			}
			return !back
		})
	}
	if !back {
		return
	}
	end := region[len(region)-1].End()
	body := &ast.BlockStmt{Lbrace: ls.Pos(), List: append(region, &ast.BranchStmt{TokPos: end, Tok: token.BREAK}), Rbrace: end}
	loop := &ast.ForStmt{For: ls.Pos(), Body: body}
	m.gotoLoops[loop] = true
	m.loop(loop, append(append(stack[:len(stack)-1:len(stack)-1], ls), loop), fn, decl)
}

func (m *model) loop(stmt ast.Stmt, stack []ast.Node, fn ast.Node, decl *ast.FuncDecl) {
	li := &loopInfo{stmt: stmt}
	var it *iterInfo
	var itCall *ast.CallExpr
	var itFact *IterFact
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
		switch types.Unalias(m.info.TypeOf(s.X)).Underlying().(type) {
		case *types.Chan:
			return // events: each iteration waits for new input
		case *types.Signature:
			// An iterator: each iteration is the next value, unless its
			// code is in sight and it yields from a loop (a retry
			// iterator, for attempt := range attempts(5, d)).
			if it = m.iterator(s.X); it == nil {
				if itCall, itFact = m.importedIter(s.X); itFact == nil {
					return
				}
			}
		}
	}
	if len(stack) >= 2 {
		if l, ok := stack[len(stack)-2].(*ast.LabeledStmt); ok {
			li.label, _ = m.info.Defs[l.Label].(*types.Label)
		}
	}
	m.scan(li)
	if len(li.calls) == 0 {
		// A loop whose only operations are in a loop it holds (a retry
		// loop around a retry loop): those calls are its own too.
		m.nestedCalls(li)
	}
	if len(li.calls) == 0 {
		return
	}
	if len(li.sleepCalls) == 0 && len(li.timerCalls) == 0 && !li.status && !li.codes && !m.anyRemote(li.calls) && it == nil && itFact == nil {
		return
	}
	L := &Loop{Stmt: stmt, Body: li.body, Func: fn, Decl: decl, Goto: m.gotoLoops[stmt]}
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
	if li.polling && L.Reconnect {
		// A loop that waits for a ticker and never leaves on success
		// does periodic work (rotate keys every interval): polling, not
		// a retry. One that leaves on success retries at every tick.
		return
	}
	m.bounds(L, li)
	if at := m.exitAt(L, li); at != nil {
		L.Exit = true
		L.addBound(ExitSignal, at)
	}
	if at := m.ctxBound(L); at != nil {
		L.CtxBound = true
		L.addBound(ContextToCall, at)
	}
	m.sleeps(L, li)
	if itFact != nil {
		m.iterFactLoop(L, itCall, itFact)
		if len(L.Sleeps) == 0 && !li.status && !li.codes && !m.anyRemote(L.Retried) {
			return
		}
	}
	if it != nil {
		m.iterLoop(L, it)
		if len(L.Sleeps) == 0 && !li.status && !li.codes && !m.anyRemote(L.Retried) {
			return
		}
	}
	// A poll or watch that waits on rounds where the call succeeded too,
	// and after a failure no shorter than that, adds no load by failing:
	// the failure wait is its cadence. Judged as a poll.
	if paces(L.Sleeps) || m.atCadence(L.Sleeps) {
		// Every wait is also passed after a success that goes round: a
		// pause between batches, pacing, not a retry loop. A poll that
		// leaves on success and also goes round on failure with nothing
		// to end it waits forever for a dependency that never becomes
		// ready (issue 13, rule 13: wait-for-ready without a deadline).
		if L.Unbounded() && !L.Reconnect {
			L.Polls = true
			m.loops = append(m.loops, L)
		}
		return
	}
	if L.Reconnect {
		// Only its waits matter: no retry layer, no attempt bound to miss.
		m.loops = append(m.loops, L)
		return
	}
	if li.status || li.codes {
		m.permanent(L, li)
	}
	m.loops = append(m.loops, L)
	L.class = m.loopClass(L, li)
	st := &site{loop: L, decl: decl, fn: fn, attempts: L.attempts(), bound: L.BoundText(), class: L.class}
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
			if v := m.x.varOf(e.X); v != nil && !m.x.addrTaken[v] && len(m.x.defs[v]) == 1 {
				if c, ok := ast.Unparen(m.x.defs[v][0].rhs).(*ast.CallExpr); ok {
					if row, ok := m.rt.Timers[m.key(c)]; ok && row.Kind == knowledge.Ticker {
						return knowledge.Ticker, c
					}
				}
			}
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

// Unbounded reports whether nothing is proven to end the loop's attempts:
// no attempt bound, no counter compared anywhere, no exit on a context, a
// deadline or a stop signal, no context that can end given to the retried
// call, and it is no reconnect loop (which has no attempt bound to miss).
func (L *Loop) Unbounded() bool {
	return len(L.Bounds) == 0 && !L.Reconnect
}

// paces reports whether a loop waits and every one of its waits paces the
// work (Sleep.Pacing).
func paces(sleeps []*Sleep) bool {
	for _, s := range sleeps {
		if !s.Pacing {
			return false
		}
	}
	return len(sleeps) > 0
}

// addBound records a piece of evidence that the loop's attempts end, once.
func (L *Loop) addBound(kind BoundKind, at ast.Node) {
	for _, b := range L.Bounds {
		if b.Kind == kind && b.Node == at {
			return
		}
	}
	L.Bounds = append(L.Bounds, BoundEvidence{Kind: kind, Node: at})
}

// atCadence reports whether a loop that goes round after success waits on a
// successful round (a pacing wait) and every wait after a failure is proven
// no shorter than one of those: the same fixed duration expression (a
// variable the loop does not change), or constants at least as long.
func (m *model) atCadence(sleeps []*Sleep) bool {
	var cadence, failure []*Sleep
	for _, s := range sleeps {
		if s.Dur == nil || s.Vary != knowledge.Invariant {
			return false
		}
		if s.Pacing {
			cadence = append(cadence, s)
		} else {
			failure = append(failure, s)
		}
	}
	if len(cadence) == 0 || len(failure) == 0 {
		return false
	}
	for _, f := range failure {
		ok := false
		for _, c := range cadence {
			if m.noShorter(f.Dur, c.Dur) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// noShorter reports whether duration a is proven at least b: both
// constants, or the same expression (the Invariant variation says the loop
// does not change it).
func (m *model) noShorter(a, b ast.Expr) bool {
	ta, tb := m.info.Types[a], m.info.Types[b]
	if ta.Value != nil && tb.Value != nil {
		return constant.Compare(ta.Value, token.GEQ, tb.Value)
	}
	return types.ExprString(ast.Unparen(a)) == types.ExprString(ast.Unparen(b))
}
