package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// cond evaluates a boolean expression on a path. stat: the decision
// involves an HTTP status or a gRPC code; track: it involves the call's
// results.
func (w *walker) cond(e ast.Expr, st pstate) (tri, bool, bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			r, s, t := w.cond(e.X, st)
			return r.not(), s, t
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND, token.LOR:
			rx, sx, tx := w.cond(e.X, st)
			if (e.Op == token.LAND && rx == no) || (e.Op == token.LOR && rx == yes) {
				return rx, sx, tx
			}
			ry, sy, ty := w.cond(e.Y, st)
			r := rx.or(ry)
			if e.Op == token.LAND {
				r = rx.and(ry)
			}
			if r != unk {
				return r, sx || sy, tx || ty
			}
			// Undecided: only the undecided parts say what it depends on.
			var s, t bool
			if rx == unk {
				s, t = s || sx, t || tx
			}
			if ry == unk {
				s, t = s || sy, t || ty
			}
			return r, s, t
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return w.compare(e, st)
		}
	case *ast.CallExpr:
		fn, _ := w.m.callee(e)
		if fn != nil {
			switch analysisutil.Key(fn) {
			case "errors.Is", "errors.As":
				if r, ok := w.classCond(analysisutil.Key(fn), e, st); ok {
					return r, false, true
				}
				if len(e.Args) > 0 && w.isErr(e.Args[0]) && st.active && st.err == no {
					return no, false, true
				}
				// Walking an error that carries a status: errors.As into a
				// status-carrying error type finds it.
				if analysisutil.Key(fn) == "errors.As" && len(e.Args) == 2 && w.isErr(e.Args[0]) && st.active &&
					st.err == yes && w.a.errStatus && w.m.statusTarget(e.Args[1]) {
					return yes, false, true
				}
			}
			if r, s, t, ok := w.predicate(fn, e, st); ok {
				return r, s, t
			}
			if r, s, t, ok := w.helperCond(e, st); ok {
				return r, s, t
			}
		}
	case *ast.IndexExpr:
		// retryable[status.Code(err)] of a set that is a map literal never
		// changed: membership of the code or status the walk assumes.
		if keys := w.m.constSet(e.X); keys != nil {
			code := w.m.isCodeExpr(e.Index)
			var n int64
			var known bool
			if code {
				n, known, _ = w.codeVal(e.Index, st)
			} else if w.m.isStatusExpr(e.Index) {
				n, known, _ = w.intVal(e.Index, st)
			} else {
				break
			}
			if !known {
				return unk, true, true
			}
			for _, k := range keys {
				if k == n {
					return yes, true, true
				}
			}
			return no, true, true
		}
	case *ast.Ident:
		if x, ok := w.subst[w.m.info.Uses[e]]; ok {
			saved := w.subst
			w.subst = nil
			r, s, t := w.cond(x, st)
			w.subst = saved
			return r, s, t
		}
		// A boolean computed once in the loop: its definition.
		if rhs := w.localDef(e); rhs != nil && w.inline < 8 {
			w.inline++
			r, s, t := w.cond(rhs, st)
			w.inline--
			return r, s, t
		}
		// ok of status.FromError(err): true for nil and for status errors.
		if v, isVar := w.m.info.Uses[e].(*types.Var); isVar {
			if ds := w.m.x.defs[v]; len(ds) == 1 && ds[0].index == 1 {
				if c, isCall := ast.Unparen(ds[0].rhs).(*ast.CallExpr); isCall && w.m.rt.FromError[w.m.key(c)] &&
					len(c.Args) == 1 && w.isErr(c.Args[0]) && st.active && st.err != unk {
					return yes, false, true
				}
			}
		}
	}
	return unk, w.statusIn(e, st), w.tracked(e)
}

// blindToErr reports whether an undecided part of a condition reads the
// call's error or what another call of the loop returned
// (shouldRetry(err, resp, n), if !ok after ok, _ := c.kv.CAS(...); err ==
// nil && n == 0 is not: the part left undecided reads the call's n only).
func (w *walker) blindToErr(e ast.Expr, st pstate) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return w.blindToErr(x.X, st)
		}
	case *ast.BinaryExpr:
		if x.Op == token.LAND || x.Op == token.LOR {
			rx, _, _ := w.cond(x.X, st)
			ry, _, _ := w.cond(x.Y, st)
			return rx == unk && w.blindToErr(x.X, st) || ry == unk && w.blindToErr(x.Y, st)
		}
	}
	if r, _, _ := w.cond(e, st); r != unk {
		return false
	}
	return w.readsErr(e, 0)
}

// readsErr reports whether e reads the call's error, or the call, directly
// or through variables defined once in the loop body (not through the
// call's other results).
func (w *walker) readsErr(e ast.Node, depth int) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if n == w.call {
			found = true
		}
		if id, ok := n.(*ast.Ident); ok {
			v, isVar := w.m.info.Uses[id].(*types.Var)
			switch {
			case !isVar || w.resV[v]:
			case w.errV[v]:
				found = true
			case w.otherResult(v):
				found = true // what another call of the loop returned
			case depth < 6:
				if rhs := w.loopDef(id); rhs != nil && w.readsErr(rhs, depth+1) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// otherResult reports whether the loop body sets v from what a call other
// than the one under study returned (ok, _, err := c.kv.CAS(...) while
// walking c.kv.Get).
func (w *walker) otherResult(v *types.Var) bool {
	for _, d := range w.m.x.defs[v] {
		if !within(d.pos, w.L.Body) {
			continue
		}
		c, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
		if !ok || c == w.call || within(w.call.Pos(), c) || w.readsResults(c) {
			continue // a read of the call's results is part of its outcome
		}
		if tv, ok := w.m.info.Types[c.Fun]; ok && tv.IsType() {
			continue
		}
		if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok {
			if _, ok := w.m.info.Uses[id].(*types.Builtin); ok {
				continue
			}
		}
		return true
	}
	return false
}

// predicate evaluates a call of a function of this package whose body is
// one return of a boolean (func retryable(code int) bool { return code >= 500 }),
// with its parameters bound to the arguments.
func (w *walker) predicate(fn *types.Func, call *ast.CallExpr, st pstate) (tri, bool, bool, bool) {
	if w.inline >= 4 || call.Ellipsis.IsValid() {
		return unk, false, false, false
	}
	decl := w.m.x.decls[fn.Origin()]
	if decl == nil || decl.Body == nil || len(decl.Body.List) != 1 || decl.Recv != nil {
		return unk, false, false, false
	}
	ret, ok := decl.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return unk, false, false, false
	}
	bind := map[types.Object]ast.Expr{}
	i := 0
	for _, f := range decl.Type.Params.List {
		for _, n := range f.Names {
			if i >= len(call.Args) {
				return unk, false, false, false
			}
			bind[w.m.info.Defs[n]] = call.Args[i]
			i++
		}
		if len(f.Names) == 0 {
			i++
		}
	}
	saved := w.subst
	w.subst = bind
	w.inline++
	r, s, t := w.cond(ret.Results[0], st)
	w.inline--
	w.subst = saved
	return r, s, t || w.tracked(call), true
}

// localDef returns the one definition of a variable declared in the loop
// body (is1xx := 100 <= code && code <= 199), or nil.
func (w *walker) localDef(id *ast.Ident) ast.Expr {
	v, ok := w.m.info.Uses[id].(*types.Var)
	if !ok || !within(v.Pos(), w.L.Body) || w.m.x.addrTaken[v] {
		return nil
	}
	ds := w.m.x.defs[v]
	if len(ds) != 1 || ds[0].rhs == nil || ds[0].index >= 0 || (ds[0].op != token.DEFINE && ds[0].op != token.ASSIGN) {
		return nil
	}
	return ds[0].rhs
}

// loopDef returns the one definition a variable gets inside the loop body,
// before its use at id (shouldRetry, checkErr = c.CheckRetry(ctx, resp, err)),
// or nil.
func (w *walker) loopDef(id *ast.Ident) ast.Expr {
	v, ok := w.m.info.Uses[id].(*types.Var)
	if !ok || w.m.x.addrTaken[v] {
		return nil
	}
	var rhs ast.Expr
	n := 0
	for _, d := range w.m.x.defs[v] {
		if within(d.pos, w.L.Body) {
			n++
			rhs = d.rhs
			if d.pos > id.Pos() {
				return nil
			}
		}
	}
	if n != 1 {
		return nil
	}
	return rhs
}

// expand calls f on e and, through variables defined once in the loop
// body, on their definitions.
func (w *walker) expand(e ast.Node, f func(ast.Node) bool) {
	seen := map[*types.Var]bool{}
	var visit func(n ast.Node, depth int)
	visit = func(n ast.Node, depth int) {
		ast.Inspect(n, func(x ast.Node) bool {
			if x == nil || !f(x) {
				return false
			}
			if id, ok := x.(*ast.Ident); ok && depth < 6 {
				if v, ok := w.m.info.Uses[id].(*types.Var); ok && !seen[v] {
					seen[v] = true
					if rhs := w.loopDef(id); rhs != nil {
						visit(rhs, depth+1)
					}
				}
			}
			return true
		})
	}
	visit(e, 0)
}

// compare evaluates a comparison.
func (w *walker) compare(e *ast.BinaryExpr, st pstate) (tri, bool, bool) {
	if r, ok := w.classCompare(e, st); ok {
		return r, false, true
	}
	// ctx.Err() != nil on a path where the call succeeded: the context is
	// live (a success that went through), so that exit is cancellation,
	// not the success leaving.
	if e.Op == token.EQL || e.Op == token.NEQ {
		for _, p := range [][2]ast.Expr{{e.X, e.Y}, {e.Y, e.X}} {
			if st.active && st.err == no && analysisutil.IsNil(w.m.info, p[1]) && w.m.ctxErrCall(p[0]) {
				if e.Op == token.EQL {
					return yes, false, false
				}
				return no, false, false
			}
		}
	}
	// err == nil, err != nil
	for _, p := range [][2]ast.Expr{{e.X, e.Y}, {e.Y, e.X}} {
		if analysisutil.IsNil(w.m.info, p[1]) && (e.Op == token.EQL || e.Op == token.NEQ) {
			if w.isErr(p[0]) {
				if !st.active || st.err == unk {
					return unk, false, true
				}
				r := st.err // yes: non-nil
				if e.Op == token.EQL {
					r = r.not()
				}
				return r, false, true
			}
			if v := w.m.x.varOf(p[0]); v != nil && st.active && st.err == no && w.a.err == no && w.derivedErr(v) {
				// A helper of the package that checks the status it is
				// given decides (if err := checkResponse(resp); err != nil).
				if o, ok := w.derivedOutcome(v, st); ok {
					r := o.r
					if e.Op == token.EQL {
						r = r.not()
					}
					return r, o.decided || r == unk, true
				}
				// The attempt succeeded: reading its results succeeds too
				// (b, derr := decode(resp); if derr == nil { return b, nil }).
				if e.Op == token.EQL {
					return yes, false, true
				}
				return no, false, true
			}
			if v := w.m.x.varOf(p[0]); v != nil && w.resV[v] && st.active && st.err == no {
				// The call succeeded: its pointer results are set.
				if _, ok := types.Unalias(v.Type()).(*types.Pointer); ok {
					if e.Op == token.NEQ {
						return yes, false, true
					}
					return no, false, true
				}
			}
		}
	}
	if w.m.isCodeExpr(e.X) || w.m.isCodeExpr(e.Y) {
		x, okx, sx := w.codeVal(e.X, st)
		y, oky, sy := w.codeVal(e.Y, st)
		if okx && oky {
			return compare(e.Op, x, y), sx || sy, true
		}
		return unk, sx || sy, true
	}
	x, okx, sx := w.intVal(e.X, st)
	y, oky, sy := w.intVal(e.Y, st)
	if okx && oky && (sx || sy) {
		return compare(e.Op, x, y), true, true
	}
	return unk, sx || sy, w.tracked(e)
}

// equal evaluates tag == e for a switch case.
func (w *walker) equal(tag, e ast.Expr, st pstate) (tri, bool, bool) {
	return w.compare(&ast.BinaryExpr{X: tag, Op: token.EQL, Y: e}, st)
}

// derivedErr reports whether v is the error of reading the call's results:
// an error variable of the loop body every definition of which is the last
// result of another call on them (b, derr := decode(resp), data, rerr :=
// io.ReadAll(resp.Body)). A walk that assumes the call succeeded assumes
// that this succeeds as well: success of an attempt is the whole of it.
func (w *walker) derivedErr(v *types.Var) bool {
	if w.errV[v] || w.resV[v] || !types.Identical(v.Type(), errorType) {
		return false
	}
	defs := w.m.x.defs[v]
	if len(defs) == 0 {
		return false
	}
	for _, d := range defs {
		if d.rhs == nil || d.stmt == nil || !within(d.stmt.Pos(), w.L.Body) {
			return false
		}
		call, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
		if !ok || call == w.call {
			return false
		}
		sig, ok := w.m.info.TypeOf(call.Fun).(*types.Signature)
		if !ok || sig.Results().Len() == 0 || d.index != sig.Results().Len()-1 && !(d.index < 0 && sig.Results().Len() == 1) {
			return false
		}
		if !w.tracked(call) {
			return false
		}
	}
	return true
}

// isErr reports whether e is the call's error: one of its error variables,
// or the call itself when it returns only an error.
func (w *walker) isErr(e ast.Expr) bool {
	e = ast.Unparen(e)
	if e == w.call {
		return true
	}
	if id, ok := e.(*ast.Ident); ok && w.subst != nil {
		if x, ok := w.subst[w.m.info.Uses[id]]; ok {
			saved := w.subst
			w.subst = nil
			r := w.isErr(x)
			w.subst = saved
			return r
		}
	}
	v := w.m.x.varOf(e)
	return v != nil && w.errV[v]
}

// tracked reports whether e mentions the call's results.
func (w *walker) tracked(e ast.Node) bool {
	found := false
	w.expand(e, func(n ast.Node) bool {
		if found {
			return false
		}
		if n == w.call {
			found = true
			return false
		}
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := w.m.info.Uses[id].(*types.Var); ok && (w.errV[v] || w.resV[v]) {
				found = true
			}
		}
		return true
	})
	return found
}

// statusIn reports whether e reads an HTTP status or a gRPC code.
func (w *walker) statusIn(e ast.Node, st pstate) bool {
	found := false
	w.expand(e, func(n ast.Node) bool {
		if found {
			return false
		}
		if x, ok := n.(ast.Expr); ok && (w.m.isStatusExpr(x) || w.m.isCodeExpr(x)) {
			found = true
		}
		return true
	})
	return found
}

// intVal evaluates an integer expression: a constant, or an HTTP status
// under the walk's assumption.
func (w *walker) intVal(e ast.Expr, st pstate) (int64, bool, bool) {
	if n, ok := w.m.constInt(e); ok {
		return n, true, false
	}
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		if x, ok := w.subst[w.m.info.Uses[id]]; ok {
			saved := w.subst
			w.subst = nil
			n, known, s := w.intVal(x, st)
			w.subst = saved
			return n, known, s
		}
		// class := resp.StatusCode / 100: a local computed once from the
		// status is that computation.
		if x := w.m.statusDerived(id); x != nil {
			return w.intVal(x, st)
		}
	}
	if w.m.isStatusExpr(e) {
		carried := w.li.errStatus && w.m.errCarried(e)
		if st.active && w.a.status != 0 && ((st.err == no && !carried) || (st.err == yes && carried && w.a.errStatus)) {
			return int64(w.a.status), true, true
		}
		return 0, false, true
	}
	switch e := e.(type) {
	case *ast.BinaryExpr:
		x, okx, sx := w.intVal(e.X, st)
		y, oky, sy := w.intVal(e.Y, st)
		if okx && oky {
			if r, ok := arith(e.Op, x, y); ok {
				return r, true, sx || sy
			}
		}
		return 0, false, sx || sy
	case *ast.CallExpr:
		if len(e.Args) == 1 {
			if tv, ok := w.m.info.Types[e.Fun]; ok && tv.IsType() {
				return w.intVal(e.Args[0], st)
			}
		}
	}
	return 0, false, false
}

// codeVal evaluates a gRPC code expression under the walk's assumption.
func (w *walker) codeVal(e ast.Expr, st pstate) (int64, bool, bool) {
	if n, ok := w.m.constInt(e); ok {
		return n, true, false
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if x, ok := w.subst[w.m.info.Uses[id]]; ok {
			saved := w.subst
			w.subst = nil
			n, known, s := w.codeVal(x, st)
			w.subst = saved
			return n, known, s
		}
	}
	if !w.m.isCodeExpr(e) {
		return 0, false, false
	}
	if st.active {
		switch {
		case st.err == yes && w.a.code >= 0:
			return int64(w.a.code), true, true
		case st.err == no:
			return 0, true, true // codes.OK
		}
	}
	return 0, false, true
}

// ctxErrCall reports whether e calls the Err method of a context.
func (m *model) ctxErrCall(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, recv := m.callee(call)
	return fn != nil && recv != nil && m.table.ContextErr[analysisutil.Key(fn)] && analysisutil.IsContext(m.info.TypeOf(recv))
}

// statusDerived returns the one definition of a local variable that
// computes an integer from an HTTP status (class := resp.StatusCode / 100),
// or nil.
func (m *model) statusDerived(id *ast.Ident) ast.Expr {
	v, ok := m.info.Uses[id].(*types.Var)
	if !ok || m.x.addrTaken[v] || len(m.x.defs[v]) != 1 || m.isStatusIdent(id) {
		return nil
	}
	d := m.x.defs[v][0]
	if d.rhs == nil || d.index >= 0 {
		return nil
	}
	b, ok := ast.Unparen(d.rhs).(*ast.BinaryExpr)
	if !ok || !m.isStatusExpr(b.X) {
		return nil
	}
	if _, ok := m.constInt(b.Y); !ok {
		return nil
	}
	return b
}

// constSet returns the constant keys of a set held in a variable: a map
// of bools whose one definition is a literal of constant keys, each true,
// whose elements are never written and whose address is never taken. nil
// otherwise.
func (m *model) constSet(e ast.Expr) []int64 {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := m.info.Uses[id].(*types.Var)
	if !ok || m.x.addrTaken[v] || m.x.elemWritten[v] || len(m.x.defs[v]) != 1 {
		return nil
	}
	d := m.x.defs[v][0]
	lit, ok := ast.Unparen(d.rhs).(*ast.CompositeLit)
	if !ok || d.index >= 0 {
		return nil
	}
	mt, ok := m.info.TypeOf(lit).Underlying().(*types.Map)
	if !ok {
		return nil
	}
	if b, ok := mt.Elem().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return nil
	}
	var keys []int64
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return nil
		}
		tv, ok := m.info.Types[kv.Value]
		if !ok || tv.Value == nil || !constant.BoolVal(tv.Value) {
			return nil
		}
		n, ok := m.constInt(kv.Key)
		if !ok {
			return nil
		}
		keys = append(keys, n)
	}
	return keys
}
