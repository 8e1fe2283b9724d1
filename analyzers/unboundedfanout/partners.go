package unboundedfanout

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/loops"
)

// A limit makes the loop wait for a free slot before it starts the next
// goroutine. If a running goroutine waits for something the function does
// only after the loop (it sends results that are drained after the loop,
// waits for values or a signal sent after the launches, waits on a group
// or a lock the function releases later), every slot waits for the loop
// and the loop for a slot: the limit deadlocks a program that worked.
// blockFree proves that no goroutine of the launch can wait so, or returns
// the edit that gives a result channel room for every send (the one case a
// fix can repair); else the launch gets no fix.

// partnerKind says when a channel operation's partner runs, relative to the
// loop being limited.
type partnerKind uint8

const (
	partnerNone      partnerKind = iota
	partnerConcurent             // in a goroutine started before the loop, or in the loop itself
	partnerBefore                // in the function, before the loop (a close)
	partnerAfter                 // after the loop, or at an unknown time
)

// An op is a blocking operation of a goroutine on a channel, group or lock
// of the enclosing function.
type op struct {
	ch   *types.Var // the channel, group or lock
	send bool       // a send (else a receive)
	all  bool       // a receive of every value until close (range, or in a loop)
	node ast.Node   // the operation
	loop bool       // inside a loop of the goroutine
	// sel is the select statement the operation is a case of: the select
	// waits only when every one of its cases would.
	sel *ast.SelectStmt
}

// blockFree reports whether the goroutines of l cannot wait for a partner
// that runs only after the loop, possibly once the returned edits size a
// result channel.
func (c *checker) blockFree(l *launch) (bool, []analysis.TextEdit) {
	fnBody := l.where.Body
	if fnBody == nil {
		return false, nil
	}
	outer := l.loops[len(l.loops)-1]
	lit, isLit := ast.Unparen(l.fn).(*ast.FuncLit)
	if !isLit {
		// A function value: it reaches the function's channels, groups and
		// locks only through its arguments or receiver.
		args := append([]ast.Expr{}, l.args...)
		if sel, ok := ast.Unparen(l.fn).(*ast.SelectorExpr); ok {
			args = append(args, sel.X)
		}
		for _, a := range args {
			if c.mayBlockOn(c.pass.TypesInfo.TypeOf(a), 0) {
				return false, nil
			}
		}
		return true, nil
	}
	for _, a := range l.args {
		if c.mayBlockOn(c.pass.TypesInfo.TypeOf(a), 0) {
			return false, nil
		}
	}
	ops, ok := c.blockingOps(lit, fnBody, map[*ast.FuncLit]bool{})
	if !ok {
		return false, nil
	}
	// The operations that may wait, a select's cases together.
	var waiting [][]op
	selects := map[*ast.SelectStmt]int{}
	freeSel := map[*ast.SelectStmt]bool{}
	for _, o := range ops {
		free := c.opFree(o, lit, fnBody, outer)
		if o.sel != nil {
			if free {
				freeSel[o.sel] = true
			}
			if i, seen := selects[o.sel]; seen {
				waiting[i] = append(waiting[i], o)
				continue
			}
			selects[o.sel] = len(waiting)
			waiting = append(waiting, []op{o})
			continue
		}
		if !free {
			waiting = append(waiting, []op{o})
		}
	}
	var sizing []analysis.TextEdit
	for _, group := range waiting {
		if s := group[0].sel; s != nil && freeSel[s] {
			continue
		}
		sized := false
		for _, o := range group {
			if !o.send || len(sizing) > 0 {
				continue
			}
			if edit, ok := c.sizeChannel(o, lit, l, fnBody, outer); ok {
				if edit.Pos.IsValid() {
					sizing = append(sizing, edit)
				}
				sized = true
				break
			}
		}
		if !sized {
			return false, nil
		}
	}
	return true, sizing
}

// mayBlockOn reports whether a value of type t can be something a
// goroutine waits on: a channel, a group, a lock, or a function (whose
// body is out of sight).
func (c *checker) mayBlockOn(t types.Type, depth int) bool {
	if t == nil || depth > 3 {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Chan, *types.Signature:
		return true
	case *types.Pointer:
		return c.mayBlockOn(u.Elem(), depth+1)
	case *types.Struct:
		if c.table.SyncTypes[analysisutil.TypeKey(t)] {
			return true
		}
		if named, ok := types.Unalias(t).(*types.Named); ok && named.Obj().Pkg() != c.pass.Pkg {
			return false // another package's type: its channels are its own business
		}
		for i := 0; i < u.NumFields(); i++ {
			if c.mayBlockOn(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	case *types.Slice:
		return c.mayBlockOn(u.Elem(), depth+1)
	case *types.Array:
		return c.mayBlockOn(u.Elem(), depth+1)
	case *types.Map:
		return c.mayBlockOn(u.Elem(), depth+1)
	}
	return false
}

// blockingOps collects the operations of a goroutine literal (and of the
// literals it runs) that can wait on the enclosing function: channel
// operations, waits and locks on its variables. ok is false for an
// operation on something else that may wait (a field or a package-level
// channel, a channel handed to a call).
func (c *checker) blockingOps(lit *ast.FuncLit, fnBody *ast.BlockStmt, seen map[*ast.FuncLit]bool) ([]op, bool) {
	if seen[lit] {
		return nil, true
	}
	seen[lit] = true
	info := c.pass.TypesInfo
	var ops []op
	ok := true
	captured := func(e ast.Expr) (*types.Var, bool) {
		id, isID := ast.Unparen(e).(*ast.Ident)
		if !isID {
			return nil, false
		}
		v, isVar := info.Uses[id].(*types.Var)
		if !isVar {
			return nil, false
		}
		if v.Pos() >= lit.Pos() && v.Pos() < lit.End() {
			return nil, true // the goroutine's own
		}
		if v.Pos() >= fnBody.Pos() && v.Pos() < fnBody.End() && !v.IsField() {
			return v, true // the enclosing function's
		}
		return nil, false
	}
	// chanOp records an operation on channel expression e; local
	// channels, timers and Done channels are classified here.
	chanOp := func(e ast.Expr, send, all bool, n ast.Node, inLoop bool, sel *ast.SelectStmt) {
		if isTimerChan(info, e) {
			return // the runtime sends
		}
		v, known := captured(e)
		if !known {
			ok = false
			return
		}
		if v == nil {
			return // a channel of the goroutine itself
		}
		ops = append(ops, op{ch: v, send: send, all: all || (!send && inLoop), node: n, loop: inLoop, sel: sel})
	}
	var loopDepth int
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if r, isRange := n.(*ast.RangeStmt); isRange {
				if _, isChan := info.TypeOf(r.X).Underlying().(*types.Chan); isChan {
					chanOp(r.X, false, true, r, loopDepth > 0, nil)
				}
			}
			loopDepth++
			ast.Inspect(n, func(m ast.Node) bool {
				if m == n {
					return true
				}
				return visit(m)
			})
			loopDepth--
			return false
		case *ast.SelectStmt:
			return c.selectOps(n, visit, chanOp, loopDepth > 0, &ok)
		case *ast.SendStmt:
			chanOp(n.Chan, true, false, n, loopDepth > 0, nil)
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				if done := c.doneChan(n.X); done {
					ok = false // waits for a cancellation that may come only after the loop
					return false
				}
				chanOp(n.X, false, false, n, loopDepth > 0, nil)
			}
		case *ast.CallExpr:
			if !c.callFree(n, captured, fnBody, seen, &ops) {
				ok = false
			}
		}
		return ok
	}
	ast.Inspect(lit.Body, visit)
	return ops, ok
}

// selectOps handles a select statement: one with a default case never
// waits; otherwise it waits until one of its cases can proceed, so it is
// free when any case is (a timer case always is; a ctx.Done() case never
// counts, the cancellation may come only after the loop).
func (c *checker) selectOps(s *ast.SelectStmt, visit func(ast.Node) bool, chanOp func(ast.Expr, bool, bool, ast.Node, bool, *ast.SelectStmt), inLoop bool, ok *bool) bool {
	info := c.pass.TypesInfo
	hasDefault := false
	for _, cl := range s.Body.List {
		if cl.(*ast.CommClause).Comm == nil {
			hasDefault = true
		}
	}
	var cases []ast.Expr // channel expressions
	var sends []bool
	for _, cl := range s.Body.List {
		cc := cl.(*ast.CommClause)
		switch comm := cc.Comm.(type) {
		case *ast.SendStmt:
			cases, sends = append(cases, comm.Chan), append(sends, true)
		case *ast.ExprStmt:
			if u, isRecv := ast.Unparen(comm.X).(*ast.UnaryExpr); isRecv && u.Op == token.ARROW {
				cases, sends = append(cases, u.X), append(sends, false)
			}
		case *ast.AssignStmt:
			if len(comm.Rhs) == 1 {
				if u, isRecv := ast.Unparen(comm.Rhs[0]).(*ast.UnaryExpr); isRecv && u.Op == token.ARROW {
					cases, sends = append(cases, u.X), append(sends, false)
				}
			}
		}
		for _, st := range cc.Body {
			ast.Inspect(st, visit)
		}
		// The values sent are evaluated before the select waits.
		if send, isSend := cc.Comm.(*ast.SendStmt); isSend {
			ast.Inspect(send.Value, visit)
		}
	}
	if hasDefault {
		return false
	}
	// A timer case makes the select free: it proceeds when the timer fires.
	var channels []ast.Expr
	var chanSends []bool
	for i, e := range cases {
		if isTimerChan(info, e) {
			return false
		}
		if c.doneChan(e) {
			continue // a cancellation that may never come before the loop ends
		}
		channels, chanSends = append(channels, e), append(chanSends, sends[i])
	}
	if len(channels) == 0 {
		*ok = false
		return false
	}
	// Every channel case, marked as one select: free when one of them is.
	for i, e := range channels {
		chanOp(e, chanSends[i], false, s, inLoop, s)
	}
	return false
}

// doneChan reports whether e is ctx.Done() for a context ctx.
func (c *checker) doneChan(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, recv := c.flow.Callee(call)
	return fn != nil && recv != nil && fn.Name() == "Done" && analysisutil.IsContext(c.pass.TypesInfo.TypeOf(recv))
}

// isTimerChan reports whether e is a channel of time values made by the
// runtime's timers (time.After(d), timer.C, ticker.C): nothing in the
// program is its partner.
func isTimerChan(info *types.Info, e ast.Expr) bool {
	ch, ok := info.TypeOf(e).Underlying().(*types.Chan)
	if !ok || ch.Dir() != types.RecvOnly {
		return false
	}
	return analysisutil.TypeKey(ch.Elem()) == "time.Time"
}

// callFree reports whether a call in a goroutine cannot wait on the
// enclosing function: no wait on one of its groups, no lock of its
// mutexes, no channel of it handed over. A function literal held in a
// variable of the function and called is walked like the goroutine.
func (c *checker) callFree(call *ast.CallExpr, captured func(ast.Expr) (*types.Var, bool), fnBody *ast.BlockStmt, seen map[*ast.FuncLit]bool, ops *[]op) bool {
	info := c.pass.TypesInfo
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if _, isB := info.Uses[id].(*types.Builtin); isB {
			return true // close, len, cap: no wait
		}
		if _, isVar := info.Uses[id].(*types.Var); isVar {
			// A function value of the enclosing function: walk its literal.
			cv, known := captured(id)
			if !known {
				return false
			}
			if cv != nil {
				defs := c.flow.DefsOf(cv)
				if len(defs) != 1 {
					return false
				}
				fl, isLit := ast.Unparen(defs[0].Rhs).(*ast.FuncLit)
				if !isLit {
					return false
				}
				more, ok := c.blockingOps(fl, fnBody, seen)
				*ops = append(*ops, more...)
				if !ok {
					return false
				}
			}
		}
	}
	fn, recv := c.flow.Callee(call)
	if fn != nil && recv != nil {
		key := analysisutil.Key(fn)
		if c.table.Waits[key] || c.table.Locks[key] {
			v, known := captured(rootExpr(recv))
			if !known {
				return false
			}
			if v != nil {
				*ops = append(*ops, op{ch: v, node: call})
			}
		} else if c.ownBlocker(info.TypeOf(recv)) {
			// A method of a type of this package that holds channels or
			// locks (gt.wait() around <-g.ch), on a value of the
			// enclosing function: it may wait for what the function does
			// after the loop.
			if v, known := captured(rootExpr(recv)); !known || v != nil {
				return false
			}
		}
	}
	for _, a := range call.Args {
		if _, isLit := ast.Unparen(a).(*ast.FuncLit); isLit {
			continue // walked in place
		}
		if !c.mayBlockOn(info.TypeOf(a), 0) {
			continue
		}
		if _, isFunc := info.TypeOf(a).Underlying().(*types.Signature); isFunc {
			continue // a callback: walked where it is a literal; else its own business
		}
		v, known := captured(rootExpr(a))
		if !known || v != nil {
			return false // the function's channel or group handed to a call
		}
	}
	return true
}

// ownBlocker reports whether t (or what it points to) is a named type of
// this package that holds channels, locks or groups.
func (c *checker) ownBlocker(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	return ok && named.Obj().Pkg() == c.pass.Pkg && c.mayBlockOn(t, 0)
}

// rootExpr strips &, * and field selections: the variable an expression
// reads.
func rootExpr(e ast.Expr) ast.Expr {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return x
			}
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return x
		}
	}
}

// opFree reports whether the operation o of the goroutine cannot wait for
// a partner that runs only after the loop.
func (c *checker) opFree(o op, lit *ast.FuncLit, fnBody *ast.BlockStmt, outer ast.Stmt) bool {
	info := c.pass.TypesInfo
	if _, isChan := o.ch.Type().Underlying().(*types.Chan); !isChan {
		// A wait on a group or a lock of the function: free unless the
		// function holds the lock across the loop, or waits on the group
		// in the goroutine (its partner is the function's own progress).
		if call, ok := o.node.(*ast.CallExpr); ok {
			if fn, _ := c.flow.Callee(call); fn != nil && c.table.Locks[analysisutil.Key(fn)] {
				return !c.heldAcross(o.ch, fnBody, outer)
			}
		}
		return false
	}
	best := partnerNone
	escapes := false
	ast.Inspect(fnBody, func(n ast.Node) bool {
		if n == ast.Node(lit) {
			return false // the goroutine itself
		}
		id, ok := n.(*ast.Ident)
		if !ok || info.Uses[id] != o.ch {
			return true
		}
		stack := pathTo(fnBody, id)
		role := c.chanRole(id, stack)
		switch {
		case role == roleOther:
			escapes = true
		case (o.send && role == roleRecv) || (!o.send && (role == roleSend || role == roleClose)):
			k := c.when(stack, outer)
			if !o.send && role == roleSend && o.all && k != partnerConcurent {
				k = partnerAfter // ranging until close: sends alone do not end it
			}
			if !o.send && role == roleSend && k == partnerBefore {
				k = partnerAfter // a buffered send before the loop feeds only so many
			}
			if o.send && k == partnerBefore {
				k = partnerAfter // a receive before the loop does not drain later sends
			}
			if k != partnerNone && (best == partnerNone || k < best) {
				best = k
			}
		}
		return true
	})
	if escapes {
		return false
	}
	return best == partnerConcurent || best == partnerBefore
}

type chanRole uint8

const (
	roleNone chanRole = iota
	roleSend
	roleRecv
	roleClose
	roleMake // its definition
	roleLen  // len(ch), cap(ch): no wait
	roleOther
)

// chanRole says what the use id of a channel variable does; stack is the
// path from the function body to id.
func (c *checker) chanRole(id *ast.Ident, stack []ast.Node) chanRole {
	info := c.pass.TypesInfo
	if len(stack) < 2 {
		return roleOther
	}
	parent := stack[len(stack)-2]
	switch p := parent.(type) {
	case *ast.SendStmt:
		if ast.Unparen(p.Chan) == ast.Expr(id) {
			return roleSend
		}
	case *ast.UnaryExpr:
		if p.Op == token.ARROW {
			return roleRecv
		}
	case *ast.RangeStmt:
		if ast.Unparen(p.X) == ast.Expr(id) {
			return roleRecv
		}
	case *ast.CallExpr:
		if fid, ok := ast.Unparen(p.Fun).(*ast.Ident); ok {
			if b, isB := info.Uses[fid].(*types.Builtin); isB {
				switch b.Name() {
				case "close":
					return roleClose
				case "len", "cap":
					return roleLen
				}
			}
		}
	case *ast.ParenExpr:
		return c.chanRole(id, append(stack[:len(stack)-2:len(stack)-2], id))
	}
	return roleOther
}

// when says when the statement holding the last node of stack runs,
// relative to the loop outer: in a goroutine started before the loop or in
// the loop (concurrent with the goroutines), in the function before the
// loop, or after it (also: in a goroutine started after it, or in a
// literal whose call is out of sight).
func (c *checker) when(stack []ast.Node, outer ast.Stmt) partnerKind {
	pos := stack[len(stack)-1].Pos()
	// The outermost function literal on the path decides.
	for i, n := range stack {
		lit, ok := n.(*ast.FuncLit)
		if !ok {
			continue
		}
		var parent ast.Node
		if i > 0 {
			parent = stack[i-1]
		}
		call, isCall := parent.(*ast.CallExpr)
		started := false
		if isCall && i > 1 {
			if gs, isGo := stack[i-2].(*ast.GoStmt); isGo && gs.Call == call && call.Fun == ast.Expr(lit) {
				started = true
			}
		}
		if isCall && !started {
			if fn, _ := c.flow.Callee(call); fn != nil {
				if _, isLauncher := c.table.Launchers[analysisutil.Key(fn)]; isLauncher {
					started = true
				}
			}
		}
		switch {
		case started:
			if lit.Pos() < outer.Pos() || (lit.Pos() >= outer.Pos() && lit.End() <= outer.End()) {
				return partnerConcurent
			}
			return partnerAfter
		case isCall && call.Fun == ast.Expr(lit):
			pos = call.Pos() // called at once: runs where it is
		default:
			return partnerAfter
		}
		break
	}
	switch {
	case pos < outer.Pos():
		return partnerBefore
	case pos < outer.End():
		return partnerConcurent
	}
	return partnerAfter
}

// heldAcross reports whether the function locks mu before the loop and
// does not unlock it before the loop starts (outside function literals).
func (c *checker) heldAcross(mu *types.Var, fnBody *ast.BlockStmt, outer ast.Stmt) bool {
	held := 0
	ast.Inspect(fnBody, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if n.Pos() >= outer.Pos() {
				return false
			}
			fn, recv := c.flow.Callee(n)
			if fn == nil || recv == nil || rootVar(c.pass.TypesInfo, recv) != mu {
				return true
			}
			key := analysisutil.Key(fn)
			switch {
			case c.table.Locks[key]:
				held++
			case c.table.Unlocks[key]:
				held--
			}
		case *ast.DeferStmt:
			// A deferred unlock runs at return: the lock is held across.
			return false
		}
		return true
	})
	return held > 0
}

// pathTo returns the nodes from root down to n.
func pathTo(root, n ast.Node) []ast.Node {
	var stack, out []ast.Node
	ast.Inspect(root, func(m ast.Node) bool {
		if out != nil {
			return false
		}
		if m == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, m)
		if m == n {
			out = append([]ast.Node(nil), stack...)
			return false
		}
		if m.Pos() > n.Pos() || m.End() < n.End() {
			stack = stack[:len(stack)-1]
			return false
		}
		return true
	})
	return out
}

// sizeChannel returns the edit that makes the result channel of a send
// hold one value per iteration: make(chan T) → make(chan T, len(items));
// no edit (and true) when it is made with that capacity already.
// Only when the goroutine sends on it once (no loop around the send), no
// one else sends on it, the loop is a single loop over a collection or up
// to a count that is the same at the channel's make, and the channel is
// made before the loop with no capacity or a constant one.
func (c *checker) sizeChannel(o op, lit *ast.FuncLit, l *launch, fnBody *ast.BlockStmt, outer ast.Stmt) (analysis.TextEdit, bool) {
	info := c.pass.TypesInfo
	if o.loop || len(l.loops) != 1 || !c.flow.Visible(o.ch) {
		return analysis.TextEdit{}, false
	}
	defs := c.flow.DefsOf(o.ch)
	if len(defs) != 1 || defs[0].Rhs == nil {
		return analysis.TextEdit{}, false
	}
	mk, ok := ast.Unparen(defs[0].Rhs).(*ast.CallExpr)
	if !ok || analysisutil.BuiltinCall(info, mk, "make") == nil || mk.Pos() >= outer.Pos() || len(mk.Args) == 0 || len(mk.Args) > 2 {
		return analysis.TextEdit{}, false
	}
	sized := false // made with the capacity already
	if len(mk.Args) == 2 {
		if _, isConst := analysisutil.ConstInt(info, mk.Args[1]); !isConst {
			sized = true // checked below against the loop's count
		}
	}
	// One send in the goroutine, none elsewhere.
	sends := 0
	ast.Inspect(fnBody, func(n ast.Node) bool {
		if s, ok := n.(*ast.SendStmt); ok {
			if v, _ := info.Uses[identOf(s.Chan)].(*types.Var); v == o.ch {
				sends++
				if s.Pos() < lit.Pos() || s.End() > lit.End() {
					sends += 100
				}
			}
		}
		return true
	})
	if sends != 1 {
		return analysis.TextEdit{}, false
	}
	// The capacity: one value per iteration.
	t := loops.Of(info, outer)
	var capExpr ast.Expr
	var text string
	switch t.Kind {
	case loops.Elements:
		if t.Chan || t.Func {
			return analysis.TextEdit{}, false
		}
		capExpr = t.Collection
		text = "len(" + analysisutil.Format(c.pass.Fset, t.Collection) + ")"
	case loops.Count:
		if t.Step != 1 {
			return analysis.TextEdit{}, false
		}
		if f, isFor := outer.(*ast.ForStmt); isFor && (f.Init == nil || !startsAtZero(info, f.Init)) {
			return analysis.TextEdit{}, false // for i := 0; i < n; i++: from 0 only
		}
		capExpr = t.Bound
		text = analysisutil.Format(c.pass.Fset, t.Bound)
		if cond, ok := outer.(*ast.ForStmt); ok {
			if be, ok := ast.Unparen(cond.Cond).(*ast.BinaryExpr); ok && (be.Op == token.LEQ || be.Op == token.GEQ) {
				text = "(" + text + ")+1"
			}
		}
	default:
		return analysis.TextEdit{}, false
	}
	if !c.sameAt(capExpr, mk.Pos(), outer.Pos()) {
		return analysis.TextEdit{}, false
	}
	if sized {
		// make(chan T, len(items)) for a loop over items: room already.
		if analysisutil.Format(c.pass.Fset, mk.Args[1]) == text {
			return analysis.TextEdit{}, true
		}
		return analysis.TextEdit{}, false
	}
	if len(mk.Args) == 2 {
		return analysis.TextEdit{Pos: mk.Args[1].Pos(), End: mk.Args[1].End(), NewText: []byte(text)}, true
	}
	return analysis.TextEdit{Pos: mk.Args[0].End(), End: mk.Args[0].End(), NewText: []byte(", " + text)}, true
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

func startsAtZero(info *types.Info, init ast.Stmt) bool {
	as, ok := init.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 {
		return false
	}
	n, ok := analysisutil.ConstInt(info, as.Rhs[0])
	return ok && n == 0
}

// sameAt reports whether e, made of constants, len() and variables that
// are visible at from and never assigned after their definition, has the
// same value at from as at to (the loop, later).
func (c *checker) sameAt(e ast.Expr, from, to token.Pos) bool {
	info := c.pass.TypesInfo
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.Ident:
			switch obj := info.Uses[n].(type) {
			case *types.Var:
				if obj.IsField() || isGlobal(obj) || !analysisutil.VisibleAt(c.pass.Pkg, from, obj) || !c.flow.Visible(obj) {
					ok = false
					return false
				}
				if _, _, isParam := c.flow.IsParam(obj); isParam {
					if c.flow.Assigned(obj) {
						ok = false
					}
					return false
				}
				if len(c.flow.DefsOf(obj)) != 1 {
					ok = false
				}
			case *types.Builtin:
				if obj.Name() != "len" {
					ok = false
				}
			case *types.Const, nil:
			default:
				ok = false
			}
		case *ast.CallExpr:
			if analysisutil.BuiltinCall(info, n, "len") == nil {
				ok = false
			}
		case *ast.BasicLit, *ast.BinaryExpr, *ast.ParenExpr, nil:
		default:
			ok = false
		}
		return ok
	})
	return ok && from < to
}
