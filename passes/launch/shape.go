package launch

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/loops"
)

// capFactor: a cap stated in code counts as a limit up to this many times
// the fan-out limit.
const capFactor = 4

// shape reads how a launch's loops start goroutines: their trip counts,
// capped by guards before them, the feed of loops with no fixed end, and
// whether the goroutines designate items of work.
func (s *state) shape(l *Launch) {
	limit := int64(s.cfg.FanoutLimit)
	trips := make([]loops.Trip, len(l.Loops))
	product, upTo := int64(1), false
	var open []int // indexes of loops that are not a small constant
	for i, lp := range l.Loops {
		t := loops.Of(s.info, lp)
		if n, ok := s.capped(l, lp, t); ok {
			// if len(ids) > 10 { return errTooMany } before the loop, or
			// range min(len(ids), 8): at most n iterations.
			t.Kind, t.N, t.Capped = loops.Const, n, true
		}
		trips[i] = t
		switch t.Kind {
		case loops.Unknown:
			l.Trips, l.Shape = trips, ShapeUnknown
			return
		case loops.Const:
			if t.N <= 0 {
				l.Trips, l.Shape = trips, ShapeOnce // the body never runs
				return
			}
			if t.Capped && t.N <= capFactor*limit {
				// A cap the code states before the loop (if len(ids) >
				// 25 { ids = ids[:25] }, or a validation that refuses
				// more) is a limit its author chose; far above the
				// fan-out limit it bounds the input, not the concurrency.
				upTo = true
				break
			}
			if product <= limit {
				product *= t.N
			}
			upTo = upTo || t.Capped
		default:
			open = append(open, i)
		}
	}
	l.Trips, l.Open, l.N, l.UpTo = trips, open, product, upTo
	if len(open) == 0 && product <= limit {
		l.Shape = ShapeSmall
		return
	}
	// A loop with no fixed end is fan-out when it feeds the goroutine a
	// stream of work: values received from a channel, messages taken from
	// a queue, or an iterator (for sc.Scan()). Other endless loops (a dial
	// racer waiting on a timer, a server reading its requests, draining a
	// list) are not understood.
	for _, i := range open {
		if trips[i].Kind != loops.Forever {
			continue
		}
		ch, ok := s.feed(l, l.Loops[i])
		if !ok {
			l.Shape = ShapeUnknown
			return
		}
		if ch != nil {
			trips[i].Kind, trips[i].Chan, trips[i].Collection = loops.Elements, true, ch
		}
	}
	if s.singleLaunch(l) {
		l.Shape = ShapeOnce
		return
	}
	// A counting loop whose goroutines do not designate an item is a pool
	// of workers; it is fan-out when each handles the item its index
	// designates.
	counting := len(open) > 0
	for _, i := range open {
		if trips[i].Kind != loops.Count {
			counting = false
		}
	}
	if counting {
		perItem := false
		for _, i := range open {
			if s.machineCount(trips[i].Bound) {
				l.Shape = ShapePool // a goroutine per CPU
				return
			}
			if isLen(s.info, trips[i].Bound) || s.designates(l, trips[i].Index) {
				perItem = true
			}
		}
		if !perItem {
			l.Shape = ShapePool
			return
		}
	}
	if len(open) == 0 {
		if !s.distinct(l, trips) {
			l.Shape = ShapePool // a constant number of identical goroutines
			return
		}
		l.Shape = ShapeConst
		return
	}
	l.Shape = ShapeItems
}

// distinct reports whether the goroutines of constant loops differ: they
// use a loop variable.
func (s *state) distinct(l *Launch, trips []loops.Trip) bool {
	for _, t := range trips {
		if s.usesVar(l, t.Index) || s.usesVar(l, t.Value) {
			return true
		}
	}
	return false
}

// usesVar reports whether the goroutine uses v: in its arguments, or in
// its function literal (captured).
func (s *state) usesVar(l *Launch, v *types.Var) bool {
	if v == nil {
		return false
	}
	nodes := []ast.Node{l.Fn}
	for _, a := range l.Args {
		nodes = append(nodes, a)
	}
	for _, n := range nodes {
		if analysisutil.Mentions(s.info, n, v) {
			return true
		}
	}
	return false
}

// designates reports whether the goroutines of a counting loop each get
// the item the index v designates: v is handed to the function the
// goroutine runs, or read in its literal, other than as the slot a result
// is written to (failures[id]++, errs[i] = err), which a pool of workers
// does too.
func (s *state) designates(l *Launch, v *types.Var) bool {
	if v == nil {
		return false
	}
	vars := map[*types.Var]bool{v: true}
	lit, _ := ast.Unparen(l.Fn).(*ast.FuncLit)
	if lit == nil {
		for _, a := range l.Args {
			if analysisutil.Mentions(s.info, a, v) {
				return true
			}
		}
		return analysisutil.Mentions(s.info, l.Fn, v)
	}
	// go func(id int) { ... }(i): the parameter stands for the index.
	i := 0
	for _, f := range lit.Type.Params.List {
		for _, name := range f.Names {
			if i < len(l.Args) && analysisutil.Mentions(s.info, l.Args[i], v) {
				if pv, ok := s.info.Defs[name].(*types.Var); ok {
					vars[pv] = true
				}
			}
			i++
		}
		if len(f.Names) == 0 {
			i++
		}
	}
	slots := map[*ast.Ident]bool{} // uses as the index of a written slot
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		var lhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			lhs = n.Lhs
		case *ast.IncDecStmt:
			lhs = []ast.Expr{n.X}
		}
		for _, e := range lhs {
			if ix, ok := ast.Unparen(e).(*ast.IndexExpr); ok {
				if id, ok := ast.Unparen(ix.Index).(*ast.Ident); ok {
					slots[id] = true
				}
			}
		}
		return true
	})
	found := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !slots[id] {
			if uv, ok := s.info.Uses[id].(*types.Var); ok && vars[uv] {
				found = true
			}
		}
		return !found
	})
	return found
}

func isLen(info *types.Info, e ast.Expr) bool {
	return analysisutil.BuiltinCall(info, e, "len") != nil
}

// machineCount reports whether e is the machine's parallelism
// (runtime.NumCPU()), or a variable set only from it.
func (s *state) machineCount(e ast.Expr) bool {
	return s.machine(e, 0)
}

func (s *state) machine(e ast.Expr, depth int) bool {
	if depth > 4 || e == nil {
		return false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if tv, ok := s.info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
			return s.machine(x.Args[0], depth+1)
		}
		if fn, _ := s.flow.Callee(x); fn != nil && s.table.MachineCounts[analysisutil.Key(fn)] {
			return true
		}
	case *ast.BinaryExpr:
		// 2*runtime.NumCPU()
		return s.machine(x.X, depth+1) || s.machine(x.Y, depth+1)
	case *ast.Ident:
		v, ok := s.info.Uses[x].(*types.Var)
		if !ok || !s.flow.Visible(v) {
			return false
		}
		defs := s.flow.DefsOf(v)
		if len(defs) == 0 {
			return false
		}
		for _, d := range defs {
			if d.Rhs == nil || d.Index >= 0 || !s.machine(d.Rhs, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// singleLaunch reports whether the loop leaves right after the launch (the
// launch is followed, in its block, by a return or break of the loop).
func (s *state) singleLaunch(l *Launch) bool {
	inner := l.Loops[0]
	for i := len(l.Stack) - 1; i > 0; i-- {
		if l.Stack[i] == ast.Node(inner) {
			break
		}
		blk, ok := l.Stack[i-1].(*ast.BlockStmt)
		if !ok {
			continue
		}
		after := false
		for _, st := range blk.List {
			if st == l.Stack[i] {
				after = true
				continue
			}
			if !after {
				continue
			}
			switch st := st.(type) {
			case *ast.ReturnStmt:
				return true
			case *ast.BranchStmt:
				if st.Tok == token.BREAK && st.Label == nil {
					return true
				}
			}
		}
	}
	return false
}

// feed returns how an endless loop feeds the launch: the channel whose
// received value the iteration hands to the goroutine, or nil for an
// iterator condition (for sc.Scan()) or a message taken from a queue; ok
// is false for neither.
func (s *state) feed(l *Launch, loop ast.Stmt) (ast.Expr, bool) {
	fs, ok := loop.(*ast.ForStmt)
	if !ok {
		return nil, false
	}
	// A receive in a select case, or in a statement of the iteration
	// before the launch.
	for i := len(l.Stack) - 1; i > 0 && l.Stack[i] != ast.Node(loop); i-- {
		if cc, ok := l.Stack[i].(*ast.CommClause); ok {
			if ch := recvValue(cc.Comm); ch != nil {
				return ch, true
			}
		}
	}
	for _, st := range s.aroundIn(l, loop, true) {
		if ch := recvValue(st); ch != nil {
			return ch, true
		}
		if s.takesMessage(st) {
			return nil, true // like an iterator: the next message per iteration
		}
	}
	if _, isCall := ast.Unparen(fs.Cond).(*ast.CallExpr); isCall {
		return nil, true
	}
	return nil, false
}

// takesMessage reports whether a statement takes the next message of a
// queue or subscription (m, err := r.FetchMessage(ctx), also read through
// a method of the result: rdb.BLPop(ctx, 0, q).Result()).
func (s *state) takesMessage(st ast.Stmt) bool {
	as, ok := st.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 {
		return false
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return false
	}
	source := func(call *ast.CallExpr) bool {
		fn, _ := s.flow.Callee(call)
		return fn != nil && s.table.MessageSources[analysisutil.Key(fn)]
	}
	if source(call) {
		return true
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
	return ok && source(inner)
}

// recvValue returns the channel of a statement that assigns a received
// value (v := <-ch, v, ok = <-ch), or nil.
func recvValue(st ast.Stmt) ast.Expr {
	as, ok := st.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 {
		return nil
	}
	if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name == "_" && len(as.Lhs) == 1 {
		return nil
	}
	u, ok := ast.Unparen(as.Rhs[0]).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return nil
	}
	return u.X
}
