package retryloop

import (
	"go/ast"
	"go/types"
)

// Range-over-func retry loops (issue 13, rule 9): for attempt := range
// attempts(5, time.Second) { if err := send(ctx); err == nil { break } }
// retries send, and the iterator's pause between two yields is the loop's
// wait. The wait is charged to the loop that ranges over the iterator and
// reported where it is, in the iterator.

// iterInfo is an iterator whose code is in sight: the loop of its body that
// yields, and the call that made it.
type iterInfo struct {
	lit   *ast.FuncLit  // the iterator function
	loop  ast.Stmt      // its loop that calls yield
	yield *ast.CallExpr // the yield call in that loop
	call  *ast.CallExpr // the call returning the iterator, or nil
	decl  *ast.FuncDecl // the function that returns it, for call
}

// iterator returns the iterator a range statement ranges over when its
// code is in the package: a function literal, a local variable defined
// once by one, or a call of a function of the package every return of
// which is one literal.
func (m *model) iterator(x ast.Expr) *iterInfo {
	x = ast.Unparen(x)
	if call, ok := x.(*ast.CallExpr); ok {
		fn, _ := m.callee(call)
		if fn == nil || fn.Pkg() != m.pass.Pkg {
			return nil
		}
		d := m.x.decls[fn.Origin()]
		if d == nil || d.Body == nil {
			return nil
		}
		it := m.iteratorOf(d)
		if it != nil {
			it.call = call
		}
		return it
	}
	if lit := m.funcLitOf(x); lit != nil {
		return m.yieldLoop(&iterInfo{lit: lit})
	}
	return nil
}

// yieldLoop completes an iterator with its yield call and the loop of its
// body that makes it; nil when it has none.
func (m *model) yieldLoop(it *iterInfo) *iterInfo {
	// The yield parameter, and the loop of the body that calls it.
	params := it.lit.Type.Params
	if params == nil || len(params.List) != 1 || len(params.List[0].Names) != 1 {
		return nil
	}
	yv, _ := m.info.Defs[params.List[0].Names[0]].(*types.Var)
	if yv == nil {
		return nil
	}
	for _, st := range it.lit.Body.List {
		switch st.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
		default:
			continue
		}
		ast.Inspect(st, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if c, ok := n.(*ast.CallExpr); ok && it.yield == nil {
				if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && m.info.Uses[id] == yv {
					it.yield = c
				}
			}
			return it.yield == nil
		})
		if it.yield != nil {
			it.loop = st
			break
		}
	}
	if it.loop == nil {
		return nil
	}
	return it
}

// iterLoop reads the iterator's yielding loop as a loop of its own: its
// attempt bound (the yields it makes; a bound on a parameter of the
// function returning the iterator is read from the call's constant
// argument), its exits, and its waits, which become L's.
func (m *model) iterLoop(L *Loop, it *iterInfo) {
	IL, il := m.yieldingLoop(it, L.Decl)
	L.Bound, L.Attempts, L.BoundExpr, L.BoundOffset = IL.Bound, IL.Attempts, IL.BoundExpr, IL.BoundOffset
	L.dropRangeBounds()
	for _, b := range IL.Bounds {
		L.addBound(IteratorYields, b.Node)
	}
	L.Param = nil
	if IL.Bound != ConstBound && it.call != nil && it.decl != nil {
		if id, ok := IL.BoundExpr.(*ast.Ident); ok {
			if p, ok := m.info.Uses[id].(*types.Var); ok && len(m.x.defs[p]) == 0 {
				if i := m.paramIndex(it.decl, p); i >= 0 && i < len(it.call.Args) {
					if n, ok := m.constInt(it.call.Args[i]); ok && n+int64(IL.BoundOffset) > 0 {
						L.Bound, L.Attempts = ConstBound, int(n)+IL.BoundOffset
					} else {
						L.BoundExpr = it.call.Args[i]
					}
				}
			}
		}
	}
	if at := m.exitAt(IL, il); at != nil {
		L.Exit = true
		L.addBound(ExitSignal, at)
	}
	m.sleeps(IL, il)
	// A pause between yields holds up the loop that ranges over the
	// iterator: the context it should observe is that loop's, when the
	// iterator has none of its own.
	if far := m.ctxFor(L, L.Stmt.Pos()); far != "" {
		for _, s := range IL.Sleeps {
			if s.Ctx == "" {
				s.Ctx, s.CtxOutside = far, true
			}
		}
	}
	L.Sleeps = append(L.Sleeps, IL.Sleeps...)
}

// yieldingLoop reads an iterator's loop that yields as a loop of its own,
// retrying the yield: its counters and attempt bounds (decl is the
// declaration it is read in).
func (m *model) yieldingLoop(it *iterInfo, decl *ast.FuncDecl) (*Loop, *loopInfo) {
	il := &loopInfo{stmt: it.loop}
	switch s := it.loop.(type) {
	case *ast.ForStmt:
		il.body = s.Body
	case *ast.RangeStmt:
		il.body = s.Body
	}
	m.scan(il)
	IL := &Loop{Stmt: it.loop, Body: il.body, Func: it.lit, Decl: decl, Retried: []*ast.CallExpr{it.yield}}
	m.counters(IL, il)
	m.bounds(IL, il)
	return IL, il
}

// dropRangeBounds removes the bound of a range over a collection from a
// loop that ranges over an iterator: the iterator's yields bound it.
func (L *Loop) dropRangeBounds() {
	bounds := L.Bounds[:0:0]
	for _, b := range L.Bounds {
		if b.Kind != CollectionRange {
			bounds = append(bounds, b)
		}
	}
	L.Bounds = bounds
}
