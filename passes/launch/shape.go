package launch

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/loops"
)

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
		if mentions(s.info, n, v) {
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
			if mentions(s.info, a, v) {
				return true
			}
		}
		return mentions(s.info, l.Fn, v)
	}
	// go func(id int) { ... }(i): the parameter stands for the index.
	i := 0
	for _, f := range lit.Type.Params.List {
		for _, name := range f.Names {
			if i < len(l.Args) && mentions(s.info, l.Args[i], v) {
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

func mentions(info *types.Info, n ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

func isLen(info *types.Info, e ast.Expr) bool {
	return builtinCall(info, e, "len") != nil
}

// builtinCall returns e as a call of the builtin function name, or nil.
func builtinCall(info *types.Info, e ast.Expr, name string) *ast.CallExpr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	if b, ok := info.Uses[id].(*types.Builtin); !ok || b.Name() != name {
		return nil
	}
	return call
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

// capped returns a constant the trip count of a loop cannot exceed: the
// bound of min(len(x), n) (range min(len(ids), 8), i < min(len(ids), 8)),
// or, for a loop over the elements or the length of a variable x, a guard
// before the loop that leaves when x is longer than a constant
// (if len(ids) > 10 { return errTooMany }) or a reslice to a constant
// (ids = ids[:8], ids = ids[:min(len(ids), 8)]) with no later assignment
// to x before the loop.
func (s *state) capped(l *Launch, loop ast.Stmt, t loops.Trip) (n int64, ok bool) {
	info := s.info
	var x ast.Expr
	switch t.Kind {
	case loops.Count:
		defer func() {
			// A cap on the bound caps a loop stepping k at a time at
			// ceil(cap/k) iterations.
			if ok && t.Step > 1 {
				n = (n + t.Step - 1) / t.Step
			}
		}()
		if n, ok := s.minConst(t.Bound); ok {
			return n, true
		}
		if !isLen(info, t.Bound) {
			return 0, false
		}
		x = ast.Unparen(t.Bound).(*ast.CallExpr).Args[0]
	case loops.Elements:
		if t.Chan || t.Func {
			return 0, false
		}
		x = t.Collection
		if n, ok := s.literalVar(x); ok {
			return n, true
		}
		if n, ok := s.sliceCap(x, 0); ok {
			return n, true
		}
	default:
		return 0, false
	}
	v, ok := pathOf(info, x)
	if !ok {
		return 0, false
	}
	// The statements before the loop, innermost block first.
	idx := -1
	for i, n := range l.Stack {
		if n == loop {
			idx = i
		}
	}
	if idx < 0 {
		return 0, false
	}
	child := ast.Node(loop)
	for i := idx - 1; i >= 0; i-- {
		switch n := l.Stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return 0, false
		case *ast.BlockStmt:
			var before []ast.Stmt
			for _, st := range n.List {
				if st == child {
					break
				}
				before = append(before, st)
			}
			// Walk back from the loop: the nearest statement that settles
			// x's length decides; an assignment to x first means unknown.
			for j := len(before) - 1; j >= 0; j-- {
				if n, ok := s.capStmt(before[j], v); ok {
					return n, true
				}
				if assigns(info, before[j], v) {
					return 0, false
				}
			}
		}
		child = l.Stack[i]
	}
	return 0, false
}

// literalVar returns the number of elements of a local variable given a
// composite literal once and never assigned again (backends :=
// []string{"a", "b", "c"}).
func (s *state) literalVar(x ast.Expr) (int64, bool) {
	rhs := s.onlyDef(x)
	if rhs == nil {
		return 0, false
	}
	return loops.LiteralLen(s.info, rhs)
}

// sliceCap returns a constant the length of x cannot exceed when x is a
// slice expression, or a local variable given one once, that takes at most
// a constant number of elements: s[:8], s[:min(len(s), 8)], s[i:i+8],
// s[i:min(i+8, len(s))] (one chunk of a batch loop), the bound possibly in
// a local variable given it once (end := min(i+8, len(s)); s[i:end]).
func (s *state) sliceCap(x ast.Expr, depth int) (int64, bool) {
	info := s.info
	if depth > 2 {
		return 0, false
	}
	if rhs := s.onlyDef(x); rhs != nil {
		return s.sliceCap(rhs, depth+1)
	}
	sl, ok := ast.Unparen(x).(*ast.SliceExpr)
	if !ok || sl.High == nil {
		return 0, false
	}
	high := sl.High
	if rhs := s.onlyDef(high); rhs != nil {
		high = rhs
	}
	if sl.Low == nil {
		if n, ok := analysisutil.ConstInt(info, high); ok {
			return n, true
		}
		return s.minConst(high)
	}
	// s[i:i+K], s[i:min(i+K, ...)]: at most K.
	bounds := []ast.Expr{high}
	if call := builtinCall(info, high, "min"); call != nil {
		bounds = call.Args
	}
	low := types.ExprString(ast.Unparen(sl.Low))
	for _, b := range bounds {
		be, ok := ast.Unparen(b).(*ast.BinaryExpr)
		if !ok || be.Op != token.ADD {
			continue
		}
		for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
			if types.ExprString(ast.Unparen(pair[0])) != low || !s.stable(sl.Low) {
				continue
			}
			if n, ok := analysisutil.ConstInt(info, pair[1]); ok && n >= 0 {
				return n, true
			}
		}
	}
	return 0, false
}

// onlyDef returns the value of a local variable given one value once and
// never assigned again, else nil.
func (s *state) onlyDef(x ast.Expr) ast.Expr {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := s.info.Uses[id].(*types.Var)
	if !ok || !s.flow.Visible(v) || v.Parent() == s.pass.Pkg.Scope() {
		return nil
	}
	defs := s.flow.DefsOf(v)
	if len(defs) != 1 || defs[0].Index >= 0 || defs[0].Rhs == nil {
		return nil
	}
	return defs[0].Rhs
}

// stable reports whether e is a plain variable or a constant: an
// expression that reads the same in both bounds of one slice expression.
func (s *state) stable(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.BasicLit:
		return true
	case *ast.BinaryExpr:
		return s.stable(e.X) && s.stable(e.Y)
	}
	return false
}

// capStmt reads a statement that caps the length of v at a constant:
// if len(v) > n { return ... } (or >= n, and any body that leaves), or
// v = v[:n] / v = v[:min(len(v), n)].
func (s *state) capStmt(st ast.Stmt, v varPath) (int64, bool) {
	info := s.info
	switch st := st.(type) {
	case *ast.IfStmt:
		be, ok := ast.Unparen(st.Cond).(*ast.BinaryExpr)
		if !ok || st.Else != nil || !isLen(info, be.X) || !leaves(st.Body) {
			return 0, false
		}
		if p, ok := pathOf(info, ast.Unparen(be.X).(*ast.CallExpr).Args[0]); !ok || !p.equal(v) {
			return 0, false
		}
		n, ok := analysisutil.ConstInt(info, be.Y)
		if !ok {
			return 0, false
		}
		switch be.Op {
		case token.GTR:
			return n, true
		case token.GEQ:
			return n - 1, true
		}
	case *ast.AssignStmt:
		if len(st.Lhs) != 1 || len(st.Rhs) != 1 {
			return 0, false
		}
		if p, ok := pathOf(info, st.Lhs[0]); !ok || !p.equal(v) {
			return 0, false
		}
		sl, ok := ast.Unparen(st.Rhs[0]).(*ast.SliceExpr)
		if !ok || sl.High == nil || sl.Low != nil {
			return 0, false
		}
		if p, ok := pathOf(info, sl.X); !ok || !p.equal(v) {
			return 0, false
		}
		if n, ok := analysisutil.ConstInt(info, sl.High); ok {
			return n, true
		}
		return s.minConst(sl.High)
	}
	return 0, false
}

// varPath is a variable or a chain of fields on one (ids, req.Items,
// s.cfg.IDs).
type varPath struct {
	root   *types.Var
	fields []types.Object
}

// pathOf reads x as a varPath.
func pathOf(info *types.Info, x ast.Expr) (varPath, bool) {
	var fields []types.Object
	for {
		switch e := ast.Unparen(x).(type) {
		case *ast.Ident:
			v, ok := info.ObjectOf(e).(*types.Var)
			if !ok {
				return varPath{}, false
			}
			slices.Reverse(fields)
			return varPath{root: v, fields: fields}, true
		case *ast.SelectorExpr:
			sel := info.Selections[e]
			if sel == nil || sel.Kind() != types.FieldVal {
				return varPath{}, false
			}
			fields = append(fields, sel.Obj())
			x = e.X
		default:
			return varPath{}, false
		}
	}
}

func (p varPath) equal(q varPath) bool { return p.root == q.root && slices.Equal(p.fields, q.fields) }

// prefixOf reports whether p is q or a path q goes through (req for
// req.Items): assigning p changes q.
func (p varPath) prefixOf(q varPath) bool {
	return p.root == q.root && len(p.fields) <= len(q.fields) && slices.Equal(p.fields, q.fields[:len(p.fields)])
}

// minConst reads min(..., n, ...) with a constant argument n: the smallest
// constant argument.
func (s *state) minConst(e ast.Expr) (int64, bool) {
	call := builtinCall(s.info, e, "min")
	if call == nil {
		return 0, false
	}
	best, found := int64(0), false
	for _, a := range call.Args {
		if n, ok := analysisutil.ConstInt(s.info, a); ok && (!found || n < best) {
			best, found = n, true
		}
	}
	return best, found
}

// leaves reports whether a block always leaves the enclosing function or
// loop: it ends in return, panic, break, continue or goto.
func leaves(b *ast.BlockStmt) bool {
	if b == nil || len(b.List) == 0 {
		return false
	}
	switch last := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		if call, ok := ast.Unparen(last.X).(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}

// assigns reports whether a statement assigns to v or a path it goes
// through (or takes the address of one).
func assigns(info *types.Info, st ast.Stmt, v varPath) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if p, ok := pathOf(info, l); ok && p.prefixOf(v) {
					found = true
				}
			}
		case *ast.UnaryExpr:
			if p, ok := pathOf(info, n.X); ok && n.Op == token.AND && p.prefixOf(v) {
				found = true
			}
		}
		return !found
	})
	return found
}
