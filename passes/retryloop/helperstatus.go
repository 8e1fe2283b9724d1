package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// A status check done in a helper (issue 13, rule 3): the loop hands the
// call's response to a function of the package that inspects its status and
// returns a distinct error, or a boolean, for some statuses
// (if err := checkResponse(resp); err != nil { return err }). The walk
// evaluates such a helper under its assumption, by walking the helper's body
// with its parameters bound to the call's arguments: what it returns for the
// assumed status decides the loop's condition. A helper that reads no status
// is not evaluated; one whose result the walk cannot decide leaves the
// condition undecided.

// helperOutcome is the value of a helper's result under the walk's
// assumption.
type helperOutcome struct {
	r tri
	// status: the helper reads the status of what it is given (its result
	// depends on it); a helper that reads none is not evaluated.
	status bool
	// decided: a condition on the status decided r.
	decided bool
}

// helperResult evaluates result idx of a call of a function of the package
// (the boolean it returns, or whether its error is non-nil) on a path of
// the walk, when the call is given what the call under study returned.
func (w *walker) helperResult(call *ast.CallExpr, idx int, st pstate) (helperOutcome, bool) {
	if !st.active || w.inline >= 4 || call.Ellipsis.IsValid() {
		return helperOutcome{}, false
	}
	fn, _ := w.m.callee(call)
	if fn == nil || fn.Pkg() != w.m.pass.Pkg {
		return helperOutcome{}, false
	}
	decl := w.m.x.decls[fn.Origin()]
	if decl == nil || decl.Body == nil {
		return helperOutcome{}, false
	}
	sig, _ := fn.Origin().Type().(*types.Signature)
	if sig == nil || idx >= sig.Results().Len() || sig.Variadic() {
		return helperOutcome{}, false
	}
	rt := sig.Results().At(idx).Type()
	errMode := types.Identical(rt, errorType)
	if b, ok := rt.Underlying().(*types.Basic); !errMode && (!ok || b.Kind() != types.Bool) {
		return helperOutcome{}, false
	}
	errV := map[*types.Var]bool{}
	resV := map[*types.Var]bool{}
	for v := range w.errV {
		errV[v] = true
	}
	for v := range w.resV {
		resV[v] = true
	}
	bind := map[types.Object]ast.Expr{}
	given := map[*types.Var]bool{} // parameters given the call's results
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		if i >= len(call.Args) {
			return helperOutcome{}, false
		}
		a := call.Args[i]
		switch {
		case w.m.isStatusExpr(a) || w.m.isCodeExpr(a):
			// The status itself (retryable(resp.StatusCode)): the
			// parameter stands for it.
			bind[p], given[p] = a, true
		case w.isErr(a):
			errV[p], given[p] = true, true
		case w.tracked(a):
			resV[p], given[p] = true, true
		default:
			bind[p] = a
		}
	}
	if len(given) == 0 || !w.m.readsGivenStatus(decl.Body, given) {
		return helperOutcome{}, false
	}
	L := &Loop{Body: decl.Body, Func: decl}
	li := &loopInfo{body: decl.Body, errStatus: w.li.errStatus, status: w.li.status, codes: w.li.codes}
	sw := &walker{m: w.m, L: L, li: li, call: &ast.CallExpr{Fun: &ast.Ident{Name: "_"}}, a: w.a,
		errV: errV, resV: resV, argV: map[*types.Var]bool{}, subst: bind, inline: w.inline + 1,
		predResults: sig.Results().Len(), helper: true, predIdx: idx, predErr: errMode}
	sw.stmts(decl.Body.List, []pstate{{active: true, err: st.err}})
	out := helperOutcome{status: true}
	if sw.steps > maxSteps || sw.predUnknown || len(sw.fatal) > 0 && len(sw.round)+len(sw.exit) == 0 {
		return out, true
	}
	switch {
	case len(sw.round) > 0 && len(sw.exit) == 0:
		out.r = yes
	case len(sw.exit) > 0 && len(sw.round) == 0:
		out.r = no
	default:
		return out, true
	}
	for _, st := range append(sw.round, sw.exit...) {
		if st.via != nil {
			out.decided = true
		}
		if st.blind {
			out.r = unk // a path passed a condition on the status it could not decide
			return out, true
		}
	}
	return out, true
}

// readsGivenStatus reports whether a helper's body reads an HTTP status or
// a gRPC code, and every status it reads is of a parameter given the call's
// results (not of a response the helper fetched itself).
func (m *model) readsGivenStatus(body *ast.BlockStmt, given map[*types.Var]bool) bool {
	reads, other := false, false
	ast.Inspect(body, func(n ast.Node) bool {
		if other {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.Ident:
			if v, ok := m.info.Uses[x].(*types.Var); ok && given[v] && (isInteger(v.Type()) || m.isCodeType(v.Type())) {
				reads = true // a parameter given the status itself
			}
		case *ast.SelectorExpr:
			if m.isStatus(x) {
				reads = true
				if v := m.x.rootVar(x); v == nil || !given[v] {
					other = true
				}
				return false
			}
		case *ast.CallExpr:
			if m.isCodeExpr(x) || m.isStatusExpr(x) {
				reads = true
				for _, a := range x.Args {
					if v := m.x.rootVar(a); v == nil || !given[v] {
						other = true
					}
				}
				if len(x.Args) == 0 {
					if _, recv := m.callee(x); recv == nil || m.x.rootVar(recv) == nil || !given[m.x.rootVar(recv)] {
						other = true
					}
				}
				return false
			}
		}
		return true
	})
	return reads && !other
}

// helperReturn applies a return statement of a helper being evaluated:
// result predIdx true (or a non-nil error) goes round, false (nil) leaves;
// a value the walk cannot decide makes the helper's result unknown.
func (w *walker) helperReturn(s *ast.ReturnStmt, in []pstate) {
	if len(s.Results) != w.predResults {
		for _, st := range in {
			if st.active {
				w.predUnknown = true
			}
		}
		return
	}
	e := s.Results[w.predIdx]
	for _, st := range in {
		var r tri
		var stat bool
		switch {
		case w.predErr && w.stopsRetry(e):
			r = no // backoff.Permanent(err): the helper returns it at once
		case w.predErr:
			r = w.m.nonNil(e)
			if r == unk {
				r = w.m.sentinel(e)
			}
			if r == unk && w.isErr(e) && st.active {
				r = st.err
			}
		default:
			r, stat = w.boolResult(e, st)
		}
		switch {
		case r == yes:
			if stat {
				st.via = s
			}
			w.round = append(w.round, st)
		case r == no:
			if stat {
				st.via = s
			}
			w.exit = append(w.exit, st)
		default:
			w.predUnknown = true
		}
	}
}

// sentinel says whether an error expression is a package-level variable
// the package sets only once, to errors.New or fmt.Errorf: non-nil.
func (m *model) sentinel(e ast.Expr) tri {
	v, ok := analysisutil.Referent(m.info, e).(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || m.x.addrTaken[v] {
		return unk
	}
	if v.Pkg() != m.pass.Pkg {
		return unk
	}
	ds := m.x.defs[v]
	if len(ds) == 0 {
		return unk
	}
	for _, d := range ds {
		if d.op != token.DEFINE && d.op != token.ASSIGN || d.rhs == nil || d.index >= 0 || m.nonNil(d.rhs) != yes {
			return unk
		}
	}
	return yes
}

// helperCond evaluates a condition that is a call of a boolean helper.
func (w *walker) helperCond(call *ast.CallExpr, st pstate) (tri, bool, bool, bool) {
	o, ok := w.helperResult(call, 0, st)
	if !ok {
		return unk, false, false, false
	}
	return o.r, o.decided || o.r == unk, true, true
}

// derivedOutcome evaluates the helper an error variable of the loop body
// comes from (err := checkResponse(resp)): whether it is non-nil.
func (w *walker) derivedOutcome(v *types.Var, st pstate) (helperOutcome, bool) {
	ds := w.m.x.defs[v]
	if len(ds) != 1 {
		return helperOutcome{}, false
	}
	call, ok := ast.Unparen(ds[0].rhs).(*ast.CallExpr)
	if !ok {
		return helperOutcome{}, false
	}
	idx := ds[0].index
	if idx < 0 {
		idx = 0
	}
	return w.helperResult(call, idx, st)
}

// checksStatus reports whether a call is of a function of the package that
// reads an HTTP status or a gRPC code of what its parameters are given
// (checkResponse(resp)), and only of that.
func (m *model) checksStatus(call *ast.CallExpr) bool {
	fn, _ := m.callee(call)
	if fn == nil || fn.Pkg() != m.pass.Pkg || len(call.Args) == 0 {
		return false
	}
	decl := m.x.decls[fn.Origin()]
	if decl == nil || decl.Body == nil {
		return false
	}
	if r, ok := m.checksMemo[decl]; ok {
		return r
	}
	sig, _ := fn.Origin().Type().(*types.Signature)
	params := map[*types.Var]bool{}
	for i := 0; sig != nil && i < sig.Params().Len(); i++ {
		if p := sig.Params().At(i); !isInteger(p.Type()) && !m.isCodeType(p.Type()) {
			params[p] = true // a status the loop reads itself is seen there
		}
	}
	if m.checksMemo == nil {
		m.checksMemo = map[*ast.FuncDecl]bool{}
	}
	r := m.readsGivenStatus(decl.Body, params)
	m.checksMemo[decl] = r
	return r
}
