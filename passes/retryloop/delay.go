package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// sleeps fills L.Sleeps from the waits the scan found.
func (m *model) sleeps(L *Loop, li *loopInfo) {
	stmtOnly := map[ast.Node]ast.Stmt{}
	ast.Inspect(L.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ExprStmt:
			stmtOnly[ast.Unparen(n.X)] = n
		}
		return true
	})
	// Sleep calls and sleeping helpers.
	for _, c := range li.sleepCalls {
		if m.firstOnly(L, c) || !li.beforeRound(c) {
			continue // a wait before the first attempt only, or on a way out: no backoff
		}
		fn, _ := m.callee(c)
		key := analysisutil.Key(fn)
		s := &Sleep{Node: c, Call: c, Name: analysisutil.Name(fn)}
		if row, ok := m.rt.Sleeps[key]; ok {
			s.Dur = arg(c, row.Dur)
			if row.Ctx >= 0 {
				s.Form, s.CtxAware = CtxSleep, true
			} else {
				s.Form = Blocking
				s.Stmt = stmtOnly[c]
			}
			s.Vary = m.vary(s.Dur, L)
		} else if sf := m.sleepFact(fn); sf != nil {
			s.Form, s.CtxAware = HelperSleep, sf.CtxAware
			s.Vary = m.varyCall(sf.Delay, c, L)
			if sf.Delay.Pure && len(sf.Delay.Deps) == 1 && sf.Delay.Deps[0] >= 0 {
				s.Dur = arg(c, sf.Delay.Deps[0])
			}
		}
		L.Sleeps = append(L.Sleeps, s)
	}
	// Receives from timers. A timer that also times out a wait for
	// something else (a select case that carries on) is a timeout, not a
	// pause, wherever it is received.
	timeouts := map[ast.Node]bool{}
	ast.Inspect(L.Body, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			if m.continuesTo(n, li.label) {
				return true // it restarts L on failure: part of L's body
			}
			ast.Inspect(n.(ast.Stmt), func(x ast.Node) bool {
				if x == n {
					return true
				}
				if sel, ok := x.(*ast.SelectStmt); ok {
					// A select waiting in an inner loop: its timers time
					// the inner wait out.
					for _, c := range sel.Body.List {
						if cc := c.(*ast.CommClause); cc.Comm != nil {
							ast.Inspect(cc.Comm, func(y ast.Node) bool {
								if u, ok := y.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
									if _, made := m.timerOf(u.X); made != nil {
										timeouts[made] = true
									}
								}
								return true
							})
						}
					}
				}
				_, lit := x.(*ast.FuncLit)
				return !lit
			})
			return false
		}
		sel, ok := n.(*ast.SelectStmt)
		if !ok {
			return true
		}
		for _, c := range sel.Body.List {
			cc := c.(*ast.CommClause)
			if cc.Comm == nil {
				continue
			}
			ast.Inspect(cc.Comm, func(x ast.Node) bool {
				if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
					if kind, made := m.timerOf(u.X); (kind == knowledge.After || kind == knowledge.NewTimer) && made != nil {
						if !m.othersLeave(sel, cc, L, li) {
							timeouts[made] = true
						}
					}
				}
				return true
			})
		}
		return true
	})
	for _, r := range li.receives {
		kind, made := m.timerOf(r.expr.X)
		// A retry paced by a ticker made before the loop (for { if err :=
		// flush(ctx); err == nil { return }; <-t.C }): every attempt waits
		// the same period.
		ticker := kind == knowledge.Ticker && made != nil && !within(made.Pos(), L.Stmt)
		if kind != knowledge.After && kind != knowledge.NewTimer && !ticker {
			continue
		}
		if made != nil && timeouts[made] {
			continue
		}
		s := &Sleep{Node: r.expr}
		if r.clause != nil {
			if !m.othersLeave(r.sel, r.clause, L, li) {
				continue // a timeout on waiting for something else, not a pause
			}
			s.Form = SelectCase
			s.CtxAware = m.otherCase(r.sel, r.clause)
		} else {
			s.Form = Blocking
			s.Stmt = stmtOnly[r.expr]
		}
		if ticker {
			s.Name, s.Ticker, s.Call = "a time.Ticker", true, made
			s.Dur = arg(made, m.rt.Timers[m.key(made)].Dur)
			s.Vary = m.vary(s.Dur, L)
			L.Sleeps = append(L.Sleeps, s)
			continue
		}
		s.Name = "time.After"
		if kind == knowledge.NewTimer {
			s.Name = "a time.Timer"
		}
		switch {
		case made != nil && within(made.Pos(), L.Body):
			row := m.rt.Timers[m.key(made)]
			s.Call, s.Dur = made, arg(made, row.Dur)
			if kind == knowledge.NewTimer {
				s.Node, s.Others = made, []ast.Node{r.expr}
			}
		default:
			// A timer made before the loop: the loop resets it.
			if reset := m.resetIn(L, r.expr.X); reset != nil {
				s.Call, s.Dur = reset, arg(reset, 0)
				s.Node, s.Others = reset, []ast.Node{r.expr}
			} else if made != nil && kind == knowledge.After {
				s.Call, s.Dur = made, arg(made, 0)
			}
		}
		if s.Dur != nil {
			s.Vary = m.vary(s.Dur, L)
		}
		if s.Call == nil {
			continue
		}
		L.Sleeps = append(L.Sleeps, s)
	}
	sort.Slice(L.Sleeps, func(i, j int) bool { return L.Sleeps[i].Node.Pos() < L.Sleeps[j].Node.Pos() })
	for _, s := range L.Sleeps {
		s.Ctx = m.ctxFor(L, s.Node.Pos())
		if s.Ctx != "" && m.uncancellablePath(L, s.Node) {
			s.Ctx = "" // reached only when the context cannot be cancelled
		}
		for _, n := range append([]ast.Node{s.Node, s.Call}, s.Others...) {
			if n != nil && li.pacing&li.waitBits(n) != 0 {
				s.Pacing = true
			}
		}
	}
}

func arg(c *ast.CallExpr, i int) ast.Expr {
	if i < 0 || i >= len(c.Args) {
		return nil
	}
	return c.Args[i]
}

// otherCase reports whether a select has a case other than clause that
// receives from a channel that is not a timer (ctx.Done(), a done channel).
func (m *model) otherCase(sel *ast.SelectStmt, clause *ast.CommClause) bool {
	if sel == nil {
		return false
	}
	for _, c := range sel.Body.List {
		cc := c.(*ast.CommClause)
		if cc == clause || cc.Comm == nil {
			continue
		}
		found := false
		ast.Inspect(cc.Comm, func(n ast.Node) bool {
			if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				if k, _ := m.timerOf(u.X); k == 0 {
					found = true
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// othersLeave reports whether every other case of a select with a timer
// case leaves the loop (ctx.Done(), a quit channel): then the timer is the
// pause before the next attempt. A case that carries on (a result arrived)
// makes the timer a timeout instead.
func (m *model) othersLeave(sel *ast.SelectStmt, clause *ast.CommClause, L *Loop, li *loopInfo) bool {
	for _, c := range sel.Body.List {
		cc := c.(*ast.CommClause)
		if cc == clause {
			continue
		}
		if cc.Comm == nil {
			return false // default: the select does not wait
		}
		if !m.leaves(cc.Body, false, L, li) {
			return false
		}
	}
	return true
}

// resetIn returns a (*time.Timer).Reset call in the loop on the timer whose
// channel ch is.
func (m *model) resetIn(L *Loop, ch ast.Expr) *ast.CallExpr {
	sel, ok := ast.Unparen(ch).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	v := m.x.varOf(sel.X)
	if v == nil {
		return nil
	}
	for _, c := range m.x.methodCalls[v] {
		if within(c.Pos(), L.Body) && m.key(c) == "(*time.Timer).Reset" {
			return c
		}
	}
	return nil
}

// join combines the variations of the parts of an expression: randomness
// anywhere jitters it; an unknown part makes it unknown; a changing part
// makes it grow.
func join(a, b knowledge.Variation) knowledge.Variation {
	switch {
	case a == knowledge.Randomised || b == knowledge.Randomised:
		return knowledge.Randomised
	case a == knowledge.VaryUnknown || b == knowledge.VaryUnknown:
		return knowledge.VaryUnknown
	case a == knowledge.Grows || b == knowledge.Grows:
		return knowledge.Grows
	}
	return knowledge.Invariant
}

// vary classifies how a duration expression changes across the iterations
// of L.
func (m *model) vary(e ast.Expr, L *Loop) knowledge.Variation {
	if e == nil {
		return knowledge.VaryUnknown
	}
	c := &classifier{m: m, L: L, seen: map[*types.Var]bool{}}
	return c.expr(e, 0)
}

// classifier classifies durations, relative to a loop (L) or, for a
// function summary, relative to its parameters (L nil).
type classifier struct {
	m    *model
	L    *Loop
	seen map[*types.Var]bool
	// For summaries: the function and the parameters the value depends on.
	fn    *ast.FuncDecl
	deps  map[int]bool
	state bool // the function reads state it also changes
}

func (c *classifier) expr(e ast.Expr, depth int) knowledge.Variation {
	if depth > 24 {
		return knowledge.VaryUnknown
	}
	m := c.m
	if tv, ok := m.info.Types[e]; ok && tv.Value != nil {
		return knowledge.Invariant
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		switch obj := m.info.Uses[e].(type) {
		case *types.Var:
			return c.ident(obj, depth)
		case *types.Const, *types.Nil:
			return knowledge.Invariant
		}
		return knowledge.VaryUnknown
	case *ast.BasicLit:
		return knowledge.Invariant
	case *ast.BinaryExpr:
		return join(c.expr(e.X, depth+1), c.expr(e.Y, depth+1))
	case *ast.UnaryExpr:
		if e.Op == token.ARROW || e.Op == token.AND {
			return knowledge.VaryUnknown
		}
		return c.expr(e.X, depth+1)
	case *ast.SelectorExpr:
		return c.selector(e, depth)
	case *ast.IndexExpr:
		return join(c.expr(e.X, depth+1), c.expr(e.Index, depth+1))
	case *ast.CallExpr:
		return c.call(e, depth)
	}
	return knowledge.VaryUnknown
}

func (c *classifier) ident(v *types.Var, depth int) knowledge.Variation {
	m := c.m
	if c.seen[v] {
		return knowledge.Grows // a value computed from its previous value
	}
	if m.x.addrTaken[v] {
		return knowledge.VaryUnknown
	}
	c.seen[v] = true
	defer delete(c.seen, v)
	if c.L == nil {
		return c.identInFunc(v, depth)
	}
	L := c.L
	if v == L.Counter || m.rangeVar(L, v) {
		return knowledge.Grows
	}
	var inLoop, outside []vdef
	for _, d := range m.x.defs[v] {
		if within(d.pos, L.Stmt) {
			inLoop = append(inLoop, d)
		} else {
			outside = append(outside, d)
		}
	}
	if within(v.Pos(), L.Stmt) {
		// Declared in the loop: as its definitions.
		r := knowledge.Invariant
		for _, d := range inLoop {
			r = join(r, c.def(d, depth))
		}
		return r
	}
	if len(inLoop) > 0 {
		// Declared before the loop and changed in it.
		r := knowledge.Invariant
		changes := false
		for _, d := range inLoop {
			if d.op == token.INC || d.op == token.DEC || (d.op != token.ASSIGN && d.op != token.DEFINE) {
				changes = true
			}
			dv := c.def(d, depth)
			if dv == knowledge.Grows {
				changes = true
			}
			r = join(r, dv)
		}
		if r == knowledge.Invariant && changes {
			r = knowledge.Grows
		}
		return r
	}
	// Not changed in the loop: the same value every time, unless it was
	// drawn at random or comes from out of sight.
	if _, _, isParam := m.m.IsParam(v); isParam || v.IsField() || v.Parent() == v.Pkg().Scope() {
		return knowledge.Invariant
	}
	r := knowledge.Invariant
	for _, d := range outside {
		dv := c.def(d, depth)
		if dv == knowledge.Randomised || dv == knowledge.VaryUnknown {
			return dv
		}
	}
	return r
}

// def classifies one definition's value.
func (c *classifier) def(d vdef, depth int) knowledge.Variation {
	if d.rng != nil {
		return knowledge.VaryUnknown
	}
	if d.op == token.INC || d.op == token.DEC {
		return knowledge.Grows
	}
	if d.rhs == nil {
		return knowledge.Invariant // var d time.Duration
	}
	if d.index >= 0 {
		// One result of a multi-valued call.
		if call, ok := ast.Unparen(d.rhs).(*ast.CallExpr); ok {
			return c.call(call, depth)
		}
		return knowledge.VaryUnknown
	}
	return c.expr(d.rhs, depth+1)
}

func (c *classifier) selector(e *ast.SelectorExpr, depth int) knowledge.Variation {
	m := c.m
	if s, ok := m.info.Selections[e]; ok {
		if s.Kind() != types.FieldVal {
			return knowledge.VaryUnknown // a method value
		}
		fv, _ := s.Obj().(*types.Var)
		base := c.expr(e.X, depth+1)
		if base == knowledge.VaryUnknown || base == knowledge.Randomised {
			return base
		}
		if c.L == nil {
			if c.writesField(fv) {
				c.state = true
				return knowledge.VaryUnknown
			}
			return base
		}
		// A field the loop changes.
		for _, d := range m.x.fields[fv] {
			if within(d.pos, c.L.Stmt) {
				if d.op == token.INC || d.op == token.DEC || d.op != token.ASSIGN {
					return knowledge.Grows
				}
				if d.rhs != nil {
					if v := c.expr(d.rhs, depth+1); v != knowledge.Invariant {
						if v == knowledge.VaryUnknown {
							return v
						}
						return join(v, knowledge.Grows)
					}
				}
				return knowledge.Grows
			}
		}
		return base
	}
	// A qualified identifier.
	switch obj := m.info.Uses[e.Sel].(type) {
	case *types.Const:
		return knowledge.Invariant
	case *types.Var:
		if c.L != nil {
			for _, d := range m.x.defs[obj] {
				if within(d.pos, c.L.Stmt) {
					return knowledge.Grows
				}
			}
		}
		return knowledge.Invariant
	}
	return knowledge.VaryUnknown
}

// writesField reports whether the summarised function assigns the field.
func (c *classifier) writesField(fv *types.Var) bool {
	if c.fn == nil {
		return false
	}
	for _, d := range c.m.x.fields[fv] {
		if within(d.pos, c.fn) {
			return true
		}
	}
	return false
}

var pureFuncs = map[string]bool{
	"math.Pow": true, "math.Min": true, "math.Max": true, "math.Floor": true, "math.Ceil": true,
	"math.Exp2": true, "math.Round": true, "math.Abs": true, "math.MaxInt64": true,
	"(time.Duration).Seconds": true, "(time.Duration).Milliseconds": true, "(time.Duration).Round": true,
	"(time.Duration).Truncate": true, "(time.Duration).Nanoseconds": true, "(time.Duration).Minutes": true,
	"(time.Duration).Microseconds": true, "(time.Duration).Abs": true,
}

func (c *classifier) call(e *ast.CallExpr, depth int) knowledge.Variation {
	m := c.m
	// A conversion.
	if tv, ok := m.info.Types[e.Fun]; ok && tv.IsType() {
		if len(e.Args) == 1 {
			return c.expr(e.Args[0], depth+1)
		}
		return knowledge.VaryUnknown
	}
	// min, max.
	if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok {
		if b, ok := m.info.Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "min", "max":
				r := knowledge.Invariant
				for _, a := range e.Args {
					r = join(r, c.expr(a, depth+1))
				}
				return r
			}
			return knowledge.VaryUnknown
		}
	}
	fn, recv := m.callee(e)
	if fn == nil {
		return knowledge.VaryUnknown
	}
	key := analysisutil.Key(fn)
	if m.rt.Random[key] {
		return knowledge.Randomised
	}
	if row, ok := m.rt.Delays[key]; ok {
		if !row.FromRecv {
			return row.Vary
		}
		if recv == nil {
			return knowledge.VaryUnknown
		}
		cv := m.evalConfig(recv, 0)
		if !cv.known || !cv.varySet {
			return knowledge.VaryUnknown
		}
		return cv.effective()
	}
	if pureFuncs[key] {
		r := knowledge.Invariant
		if recv != nil {
			r = join(r, c.expr(recv, depth+1))
		}
		for _, a := range e.Args {
			r = join(r, c.expr(a, depth+1))
		}
		return r
	}
	if df := m.delayFact(fn); df != nil {
		return c.apply(df.Delay, e, recv, depth)
	}
	return knowledge.VaryUnknown
}

// apply classifies a call from the summary of its callee.
func (c *classifier) apply(d DelaySummary, e *ast.CallExpr, recv ast.Expr, depth int) knowledge.Variation {
	if !d.Pure {
		return d.Vary
	}
	r := knowledge.Invariant
	for _, i := range d.Deps {
		var a ast.Expr
		if i < 0 {
			a = recv
		} else if i < len(e.Args) {
			a = e.Args[i]
		}
		if a == nil {
			return knowledge.VaryUnknown
		}
		r = join(r, c.expr(a, depth+1))
	}
	return r
}

// varyCall classifies a sleeping helper's call.
func (m *model) varyCall(d DelaySummary, call *ast.CallExpr, L *Loop) knowledge.Variation {
	c := &classifier{m: m, L: L, seen: map[*types.Var]bool{}}
	_, recv := m.callee(call)
	return c.apply(d, call, recv, 0)
}

// identInFunc classifies a variable inside a summarised function.
func (c *classifier) identInFunc(v *types.Var, depth int) knowledge.Variation {
	m := c.m
	if fnode, idx, ok := m.m.IsParam(v); ok && fnode == ast.Node(c.fn) {
		c.deps[idx] = true
		return knowledge.Invariant
	}
	if c.fn != nil && c.fn.Recv != nil {
		for _, f := range c.fn.Recv.List {
			for _, n := range f.Names {
				if m.info.Defs[n] == v {
					c.deps[-1] = true
					return knowledge.Invariant
				}
			}
		}
	}
	if v.Parent() == v.Pkg().Scope() {
		// A package variable: fine if nothing in the package assigns it
		// inside a function.
		for _, d := range m.x.defs[v] {
			if _, ok := d.stmt.(*ast.AssignStmt); ok {
				c.state = true
				return knowledge.VaryUnknown
			}
		}
		return knowledge.Invariant
	}
	if c.fn == nil || !within(v.Pos(), c.fn) {
		return knowledge.VaryUnknown // captured from outside
	}
	r := knowledge.Invariant
	self := false
	for _, d := range m.x.defs[v] {
		if !within(d.pos, c.fn) {
			continue
		}
		dv := c.def(d, depth)
		if dv == knowledge.Grows {
			self = true // accumulated in a loop: depends on every parameter
			dv = knowledge.Invariant
		}
		r = join(r, dv)
	}
	if self {
		c.allParams()
	}
	return r
}

// allParams makes the summary depend on every parameter.
func (c *classifier) allParams() {
	sig := c.m.info.Defs[c.fn.Name].(*types.Func).Type().(*types.Signature)
	for i := 0; i < sig.Params().Len(); i++ {
		c.deps[i] = true
	}
	if sig.Recv() != nil {
		c.deps[-1] = true
	}
}

// summarize summarises the duration a function computes from the
// expressions it returns or sleeps (exprs).
func (m *model) summarize(fn *ast.FuncDecl, exprs []ast.Expr) DelaySummary {
	c := &classifier{m: m, fn: fn, seen: map[*types.Var]bool{}, deps: map[int]bool{}}
	r := knowledge.Invariant
	for _, e := range exprs {
		r = join(r, c.expr(e, 0))
	}
	switch {
	case r == knowledge.Randomised:
		return DelaySummary{Vary: knowledge.Randomised}
	case r == knowledge.VaryUnknown || c.state:
		return DelaySummary{Vary: knowledge.VaryUnknown}
	case len(c.deps) == 0:
		return DelaySummary{Vary: knowledge.Invariant}
	}
	d := DelaySummary{Pure: true}
	for i := range c.deps {
		d.Deps = append(d.Deps, i)
	}
	sort.Ints(d.Deps)
	return d
}

// delayFact returns what a function returning a duration computes: from
// its fact, or summarised for this package's functions.
func (m *model) delayFact(fn *types.Func) *DelayFact {
	fn = fn.Origin()
	if fn.Pkg() != m.pass.Pkg {
		f := new(DelayFact)
		if m.pass.ImportObjectFact(fn, f) {
			return f
		}
		return nil
	}
	if f, ok := m.delayMemo[fn]; ok {
		return f
	}
	if m.busy[fn] {
		return nil
	}
	m.busy[fn] = true
	defer delete(m.busy, fn)
	var f *DelayFact
	if decl := m.x.decls[fn]; decl != nil && decl.Body != nil && returnsDuration(fn) {
		var exprs []ast.Expr
		ok := true
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(n.Results) != 1 {
					ok = false
					return false
				}
				exprs = append(exprs, n.Results[0])
			}
			return true
		})
		if ok && len(exprs) > 0 {
			if d := m.summarize(decl, exprs); d.Vary != knowledge.VaryUnknown || d.Pure {
				f = &DelayFact{Delay: d}
			}
		}
	}
	m.delayMemo[fn] = f
	return f
}

func returnsDuration(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	return sig.Results().Len() == 1 && analysisutil.TypeKey(sig.Results().At(0).Type()) == "time.Duration"
}

// sleepFact returns what a sleeping function does: from its fact, or
// summarised for this package's functions (a function that waits outside
// any loop: time.Sleep, a select on a timer).
func (m *model) sleepFact(fn *types.Func) *SleepFact {
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return nil
	}
	if fn.Pkg() != m.pass.Pkg {
		f := new(SleepFact)
		if m.pass.ImportObjectFact(fn, f) {
			return f
		}
		return nil
	}
	if m.x == nil || !m.importsTime {
		return nil
	}
	if f, ok := m.sleepMemo[fn]; ok {
		return f
	}
	if m.busy[fn] {
		return nil
	}
	m.busy[fn] = true
	defer delete(m.busy, fn)
	m.sleepMemo[fn] = nil
	decl := m.x.decls[fn]
	if decl == nil || decl.Body == nil {
		return nil
	}
	var durs []ast.Expr
	ctxAware, blocking, inLoop, other := false, false, false, false
	timer := func(u *ast.UnaryExpr, loop bool, sel *ast.SelectStmt, cc *ast.CommClause) {
		k, made := m.timerOf(u.X)
		if (k != knowledge.After && k != knowledge.NewTimer) || made == nil {
			return
		}
		if loop {
			inLoop = true
		}
		durs = append(durs, arg(made, 0))
		if sel != nil && m.otherCase(sel, cc) {
			ctxAware = true
		} else {
			blocking = true
		}
	}
	var visit func(n ast.Node, loop bool) bool
	visit = func(n ast.Node, loop bool) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			ast.Inspect(n, func(x ast.Node) bool {
				if x == n {
					return true
				}
				return visit(x, true)
			})
			return false
		case *ast.CallExpr:
			fn, _ := m.callee(n)
			key := ""
			if fn != nil {
				key = analysisutil.Key(fn)
			}
			if row, ok := m.rt.Sleeps[key]; ok {
				if loop {
					inLoop = true
				}
				durs = append(durs, arg(n, row.Dur))
				if row.Ctx >= 0 {
					ctxAware = true
				} else {
					blocking = true
				}
			} else if _, ok := m.rt.Timers[key]; !ok && m.candidate(n, fn, key) {
				other = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				timer(n, loop, nil, nil)
			}
		case *ast.SelectStmt:
			nonBlocking := false
			for _, c := range n.Body.List {
				if c.(*ast.CommClause).Comm == nil {
					nonBlocking = true // a default: the select does not wait
				}
			}
			for _, c := range n.Body.List {
				cc := c.(*ast.CommClause)
				if cc.Comm != nil && !nonBlocking {
					ast.Inspect(cc.Comm, func(x ast.Node) bool {
						if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
							timer(u, loop, n, cc)
							return false
						}
						return visit(x, loop)
					})
				}
				for _, s := range cc.Body {
					ast.Inspect(s, func(x ast.Node) bool { return visit(x, loop) })
				}
			}
			return false
		}
		return true
	}
	ast.Inspect(decl.Body, func(n ast.Node) bool { return visit(n, false) })
	if len(durs) == 0 || inLoop || other {
		return nil
	}
	for _, d := range durs {
		if d == nil {
			return nil
		}
	}
	f := &SleepFact{Delay: m.summarize(decl, durs), CtxAware: ctxAware && !blocking}
	// A sleep helper returns nothing or an error: a function that waits for
	// an event with a timeout (returning what arrived) is not one. Its name
	// does not matter.
	sig := fn.Type().(*types.Signature)
	if r := sig.Results(); r.Len() > 1 || (r.Len() == 1 && !types.Identical(r.At(0).Type(), errorType)) {
		return nil
	}
	m.sleepMemo[fn] = f
	return f
}

// uncancellablePath reports whether a wait in the loop body is reached only
// when a context cannot be cancelled: it follows, in its block or an
// enclosing one, an if statement on ctx.Done() != nil (or a variable
// holding ctx.Done()) whose body always leaves the iteration, or it sits
// in the body of one on ctx.Done() == nil:
//
//	if done := ctx.Done(); done != nil {
//		select { case <-done: return err; case <-timer.C: continue }
//	}
//	time.Sleep(next) // ctx is not cancellable
func (m *model) uncancellablePath(L *Loop, n ast.Node) bool {
	found := false
	var visit func(list []ast.Stmt)
	visit = func(list []ast.Stmt) {
		for _, st := range list {
			if found {
				return
			}
			if !within(n.Pos(), st) {
				if ifs, ok := st.(*ast.IfStmt); ok && st.End() <= n.Pos() && ifs.Else == nil &&
					m.doneTest(ifs, token.NEQ) && endsIteration(ifs.Body.List) {
					found = true
				}
				continue
			}
			switch st := st.(type) {
			case *ast.BlockStmt:
				visit(st.List)
			case *ast.IfStmt:
				if within(n.Pos(), st.Body) {
					if m.doneTest(st, token.EQL) {
						found = true
						return
					}
					visit(st.Body.List)
				} else if st.Else != nil && within(n.Pos(), st.Else) {
					if m.doneTest(st, token.NEQ) {
						found = true
						return
					}
					visit([]ast.Stmt{st.Else})
				}
			case *ast.LabeledStmt:
				visit([]ast.Stmt{st.Stmt})
			}
			return
		}
	}
	visit(L.Body.List)
	return found
}

// doneTest reports whether an if statement's condition compares a
// context's Done channel (ctx.Done(), or a variable its init statement
// sets to it) with nil by op.
func (m *model) doneTest(ifs *ast.IfStmt, op token.Token) bool {
	be, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
	if !ok || be.Op != op {
		return false
	}
	x := be.X
	if analysisutil.IsNil(m.info, x) {
		x = be.Y
	} else if !analysisutil.IsNil(m.info, be.Y) {
		return false
	}
	done := func(e ast.Expr) bool {
		c, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		_, recv := m.callee(c)
		return recv != nil && analysisutil.IsContext(m.info.TypeOf(recv)) && len(c.Args) == 0 &&
			types.Unalias(m.info.TypeOf(c)) != nil && isChan(m.info.TypeOf(c))
	}
	if done(x) {
		return true
	}
	if as, ok := ifs.Init.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 {
		if v := m.x.varOf(as.Lhs[0]); v != nil && v == m.x.varOf(x) {
			return done(as.Rhs[0])
		}
	}
	return false
}

func isChan(t types.Type) bool {
	_, ok := types.Unalias(t).Underlying().(*types.Chan)
	return ok
}

// endsIteration reports whether a statement list always ends the
// iteration: it returns, goes round, or breaks, in every branch (a select
// whose every case does).
func endsIteration(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok == token.CONTINUE || s.Tok == token.BREAK || s.Tok == token.GOTO
	case *ast.BlockStmt:
		return endsIteration(s.List)
	case *ast.SelectStmt:
		for _, c := range s.Body.List {
			if !endsIteration(c.(*ast.CommClause).Body) {
				return false
			}
		}
		return len(s.Body.List) > 0
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
		return endsIteration(s.Body.List) && endsIteration(els)
	}
	return false
}

// firstOnly reports whether n runs only in the first iteration of L: it is
// in the body of an if whose condition (or one of its conjuncts) compares
// the attempt counter with its start for equality (if numRetries == 0 {
// time.Sleep(d) }).
func (m *model) firstOnly(L *Loop, n ast.Node) bool {
	if L.Counter == nil || !L.Counted {
		return false
	}
	found := false
	ast.Inspect(L.Body, func(x ast.Node) bool {
		if found {
			return false
		}
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if within(n.Pos(), x.Body) && m.atStart(L, x.Cond) {
				found = true
				return false
			}
		}
		return x == nil || (x.Pos() <= n.Pos() && n.End() <= x.End())
	})
	return found
}

// atStart reports whether cond holds only while L's counter is at its
// start: counter == start, or a conjunction with such a part.
func (m *model) atStart(L *Loop, cond ast.Expr) bool {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	switch be.Op {
	case token.LAND:
		return m.atStart(L, be.X) || m.atStart(L, be.Y)
	case token.EQL:
		for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
			if m.x.varOf(pair[0]) == L.Counter {
				if k, ok := m.constInt(pair[1]); ok && k == L.CounterStart {
					return true
				}
			}
		}
	}
	return false
}

// beforeRound reports whether a wait of the loop body may precede another
// iteration: some walk passed it on a path that goes round (true when
// that is not known: no walk went round, or the wait is not tracked).
func (li *loopInfo) beforeRound(n ast.Node) bool {
	if !li.roundSeen || li.roundAll {
		return true
	}
	bits := li.waitBits(n)
	return bits == 0 || li.roundWaits&bits != 0
}
