package retryloop

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

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
	note := func(n int, ok bool, at ast.Node) {
		bounded = true
		if ok && n > 0 && (best < 0 || n < best) {
			best = n
		}
		kind := AttemptLimit
		if _, isRange := L.Stmt.(*ast.RangeStmt); isRange && at == L.Stmt {
			kind = CollectionRange
		}
		L.addBound(kind, at)
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
				if !analysisutil.Mentions(m.info, s.Cond, c.v) {
					continue
				}
				n, ok := m.simulate(L, c, s.Cond, false, false)
				note(n, ok, s.Cond)
				if !ok {
					m.paramBound(L, c, s.Cond, false, false, false)
				}
			}
		}
	case *ast.RangeStmt:
		switch u := types.Unalias(m.info.TypeOf(s.X)).Underlying().(type) {
		case *types.Basic:
			n, ok := m.constInt(s.X)
			note(int(n), ok, s)
			if !ok {
				L.BoundExpr = ast.Unparen(s.X)
			}
		case *types.Array:
			note(int(u.Len()), true, s)
		default:
			if n, ok := m.literalLen(s.X); ok {
				note(n, true, s)
			} else {
				note(0, false, s)
				L.BoundExpr = &ast.CallExpr{Fun: ast.NewIdent("len"), Lparen: s.X.Pos(), Args: []ast.Expr{s.X}, Rparen: s.X.End()}
			}
		}
	}
	// Checks in the body that leave the loop: if attempt >= max { return },
	// or if attempt < max { sleep; continue } followed by a return, and the
	// same in a switch case (case attempt >= max: return).
	parents := parentLists(L.Body)
	check := func(at ast.Node, test, cond ast.Expr) {
		for _, c := range counters {
			if !m.mentionsVia(L, test, c.v) {
				continue
			}
			incBefore := c.pos.IsValid() && c.pos < at.Pos()
			after := at.Pos() > firstCall
			n, ok := m.simulate(L, c, cond, true, incBefore)
			if ok && after {
				n++
			}
			note(n, ok, at)
			if !ok {
				m.paramBound(L, c, cond, true, incBefore, after)
			}
		}
	}
	m.eachIf(L.Body, func(ifs *ast.IfStmt) {
		breakLeaves := !m.inSwitch(L.Body, ifs)
		switch {
		case m.leaves(ifs.Body.List, breakLeaves, L, li):
			check(ifs, ifs.Cond, ifs.Cond)
		case ifs.Else == nil && goesRound(ifs.Body.List) && m.leaves(parents[ifs], breakLeaves, L, li):
			check(ifs, ifs.Cond, &ast.UnaryExpr{Op: token.NOT, X: ifs.Cond})
		}
	})
	m.eachCase(L.Body, func(sw *ast.SwitchStmt, cc *ast.CaseClause) {
		if cond := caseCond(sw, cc); cond != nil && m.leaves(cc.Body, false, L, li) {
			check(cc, cond, cond)
		}
	})
	// An attempt counter compared anywhere else in the body (if attempt > 3
	// { log }) bounds nothing we can count, but whoever wrote it thought
	// about the attempts: no claim that the loop runs forever.
	for _, c := range counters {
		if at := m.compared(L, c.v); at != nil {
			L.CounterChecked = true
			L.addBound(CounterCompared, at)
		}
	}
	switch {
	case best > 0:
		L.Bound, L.Attempts = ConstBound, best
	case bounded:
		L.Bound = VarBound
	}
}

// eachCase calls f for every case clause of an expression switch of a loop
// body, not inside nested loops or function literals.
func (m *model) eachCase(body *ast.BlockStmt, f func(*ast.SwitchStmt, *ast.CaseClause)) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.SwitchStmt:
			for _, c := range n.Body.List {
				if cc, ok := c.(*ast.CaseClause); ok && cc.List != nil {
					f(n, cc)
				}
			}
		}
		return true
	})
}

// caseCond returns the condition under which a case clause runs: its
// expressions or'ed (switch { case a, b: }), compared with the tag (switch
// attempt { case 5: }); nil when the switch has an init statement.
func caseCond(sw *ast.SwitchStmt, cc *ast.CaseClause) ast.Expr {
	if sw.Init != nil {
		return nil
	}
	var cond ast.Expr
	for _, e := range cc.List {
		if sw.Tag != nil {
			e = &ast.BinaryExpr{X: sw.Tag, OpPos: e.Pos(), Op: token.EQL, Y: e}
		}
		if cond == nil {
			cond = e
		} else {
			cond = &ast.BinaryExpr{X: cond, OpPos: e.Pos(), Op: token.LOR, Y: e}
		}
	}
	return cond
}

// compared returns where the loop body compares v (or a variable defined
// from it in the body) with something: in a comparison or a switch tag.
func (m *model) compared(L *Loop, v *types.Var) ast.Node {
	var found ast.Node
	ast.Inspect(L.Body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			switch n.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				if m.mentionsVia(L, n, v) {
					found = n
				}
			}
		case *ast.SwitchStmt:
			if n.Tag != nil && m.mentionsVia(L, n.Tag, v) {
				found = n.Tag
			}
		}
		return found == nil
	})
	return found
}

// paramBound records on L what bounds its attempts when it is not a
// constant: the one expression the counter is compared with (attempt <
// attempts, attempt >= c.maxRetries) and the fixed offset between its
// value and the attempts, found by simulating the condition with the
// expression at several values (BoundExpr, BoundOffset). When that
// expression is a parameter of the loop's declaration, never assigned nor
// addressed, it is also Param, ParamOffset: a caller passing a constant
// then knows the attempts.
func (m *model) paramBound(L *Loop, c counter, cond ast.Expr, fires, incBefore, after bool) {
	if L.BoundExpr != nil {
		return
	}
	var leaves []ast.Expr
	m.boundLeaves(cond, c.v, &leaves, 0)
	if len(leaves) == 0 {
		return
	}
	key := types.ExprString(ast.Unparen(leaves[0]))
	for _, l := range leaves[1:] {
		if types.ExprString(ast.Unparen(l)) != key {
			return
		}
	}
	at := func(val int64) (int64, bool) {
		m.bindKey, m.bindVal = key, val
		defer func() { m.bindKey = "" }()
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
	L.BoundExpr, L.BoundOffset = ast.Unparen(leaves[0]), int(off)
	if L.Decl == nil || L.Func != ast.Node(L.Decl) {
		return
	}
	id, ok := L.BoundExpr.(*ast.Ident)
	if !ok {
		return
	}
	if p, ok := m.info.Uses[id].(*types.Var); ok && isInteger(p.Type()) && len(m.x.defs[p]) == 0 && !m.x.addrTaken[p] && m.paramIndex(L.Decl, p) >= 0 {
		L.Param, L.ParamOffset = p, int(off)
	}
}

// boundLeaves collects the operands of an integer condition that are
// neither constants nor the counter v (nor computed from it in the loop):
// what the counter is compared with.
func (m *model) boundLeaves(e ast.Expr, v *types.Var, out *[]ast.Expr, depth int) {
	if e == nil || depth > 8 {
		return
	}
	if _, ok := m.constInt(e); ok {
		return
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			m.boundLeaves(x.X, v, out, depth+1)
			return
		}
	case *ast.BinaryExpr:
		m.boundLeaves(x.X, v, out, depth+1)
		m.boundLeaves(x.Y, v, out, depth+1)
		return
	case *ast.CallExpr:
		if len(x.Args) == 1 && m.info.Types[x.Fun].IsType() {
			m.boundLeaves(x.Args[0], v, out, depth+1)
			return
		}
	case *ast.Ident:
		w, ok := m.info.Uses[x].(*types.Var)
		if ok && w == v {
			return
		}
		if ok {
			if ds := m.x.defs[w]; len(ds) == 1 && ds[0].rhs != nil && ds[0].index < 0 && ds[0].op == token.DEFINE && analysisutil.Mentions(m.info, ds[0].rhs, v) {
				m.boundLeaves(ds[0].rhs, v, out, depth+1)
				return
			}
		}
	}
	if t := m.info.TypeOf(e); t == nil || !isInteger(t) {
		return
	}
	*out = append(*out, e)
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
	if m.bindKey != "" && types.ExprString(ast.Unparen(e)) == m.bindKey {
		return m.bindVal, true
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if m.info.Uses[e] == v {
			return val, true
		}
		// A local computed from the counter once per iteration:
		// remain := max - attempt.
		if w, ok := m.info.Uses[e].(*types.Var); ok {
			if ds := m.x.defs[w]; len(ds) == 1 && ds[0].rhs != nil && ds[0].index < 0 && ds[0].op == token.DEFINE && analysisutil.Mentions(m.info, ds[0].rhs, v) {
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
	if analysisutil.Mentions(m.info, e, v) {
		return true
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if w, ok := m.info.Uses[id].(*types.Var); ok && within(w.Pos(), L.Body) {
				if ds := m.x.defs[w]; len(ds) == 1 && ds[0].rhs != nil && analysisutil.Mentions(m.info, ds[0].rhs, v) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// boundText spells a bound of expr + offset attempts (maxRetries+1).
func boundText(expr ast.Expr, offset int) string {
	if expr == nil {
		return ""
	}
	t := types.ExprString(expr)
	switch {
	case offset > 0:
		t += fmt.Sprintf("+%d", offset)
	case offset < 0:
		t += fmt.Sprintf("%d", offset)
	}
	return t
}

// BoundText spells the loop's attempt bound when it is not a constant
// (maxRetries+1, len(hosts)), "" when unknown or constant.
func (L *Loop) BoundText() string {
	if L.Bound == ConstBound {
		return ""
	}
	return boundText(L.BoundExpr, L.BoundOffset)
}
