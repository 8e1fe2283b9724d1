package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// Predicate is a retry predicate handed to a retry helper (retry-go's
// RetryIf, retryablehttp's Client.CheckRetry, failsafe's HandleIf on a retry
// policy): a function whose true result retries the outcome it is given.
type Predicate struct {
	// Func is the predicate: a *ast.FuncLit, or the *ast.FuncDecl of a
	// function of the package.
	Func ast.Node
	// Site is where it is handed over (the option call, the assignment or
	// the key-value of a composite literal); Lib names the place.
	Site ast.Node
	Lib  string
	// Permanent are the conditions and returns of the predicate that
	// retry a permanent failure (Permanent.Pred is this predicate).
	Permanent []*Permanent
}

// predSite is a value handed over as a retry predicate.
type predSite struct {
	expr ast.Expr
	site ast.Node
	row  knowledge.RetryPredicate
}

// predicateCall records the predicate argument of a call of the table's
// Predicates (retry.RetryIf(f), builder.HandleIf(f)).
func (m *model) predicateCall(call *ast.CallExpr) {
	if len(m.rt.Predicates) == 0 {
		return
	}
	fn, recv := m.callee(call)
	if fn == nil {
		return
	}
	row, ok := m.rt.Predicates[analysisutil.Key(fn)]
	if !ok || row.Arg < 0 || call.Ellipsis.IsValid() {
		return
	}
	if row.Recv != "" && (recv == nil || analysisutil.TypeKey(m.info.TypeOf(recv)) != row.Recv) {
		return
	}
	if a := arg(call, row.Arg); a != nil {
		m.predSites = append(m.predSites, predSite{expr: a, site: call, row: row})
	}
}

// predicateAssign records a predicate assigned to a field of the table's
// Predicates (client.CheckRetry = f).
func (m *model) predicateAssign(as *ast.AssignStmt) {
	if len(m.rt.Predicates) == 0 || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
		return
	}
	for i, l := range as.Lhs {
		sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
		if !ok {
			continue
		}
		s, ok := m.info.Selections[sel]
		if !ok || s.Kind() != types.FieldVal {
			continue
		}
		if row, ok := m.rt.Predicates[fieldKey(s)]; ok && row.Arg < 0 {
			m.predSites = append(m.predSites, predSite{expr: as.Rhs[i], site: as, row: row})
		}
	}
}

// predicateLiteral records a predicate given to a field of the table's
// Predicates in a composite literal (&retryablehttp.Client{CheckRetry: f}).
func (m *model) predicateLiteral(cl *ast.CompositeLit) {
	if len(m.rt.Predicates) == 0 {
		return
	}
	tk := analysisutil.TypeKey(m.info.TypeOf(cl))
	if tk == "" {
		return
	}
	for _, el := range cl.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		id, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		if row, ok := m.rt.Predicates[tk+"."+id.Name]; ok && row.Arg < 0 {
			m.predSites = append(m.predSites, predSite{expr: kv.Value, site: kv, row: row})
		}
	}
}

// fieldKey returns the "path.Type.Field" key of a field selection: the
// named type that declares the field, through embedded fields.
func fieldKey(s *types.Selection) string {
	t := s.Recv()
	idx := s.Index()
	for _, i := range idx[:len(idx)-1] {
		st := structOf(t)
		if st == nil || i >= st.NumFields() {
			return ""
		}
		t = st.Field(i).Type()
	}
	tk := analysisutil.TypeKey(t)
	if tk == "" {
		return ""
	}
	return tk + "." + s.Obj().Name()
}

// predicates walks the predicates handed to retry helpers and records
// those that retry a permanent failure.
func (m *model) predicates() {
	done := map[ast.Node]bool{}
	for _, ps := range m.predSites {
		fnode, sig, body := m.predicateFunc(ps.expr, 0)
		if fnode == nil || sig == nil || body == nil || done[fnode] {
			continue
		}
		done[fnode] = true
		p := &Predicate{Func: fnode, Site: ps.site, Lib: ps.row.Lib}
		m.predicate(p, sig, body)
		if len(p.Permanent) > 0 {
			m.preds = append(m.preds, p)
		}
	}
}

// predicateFunc returns the function a predicate value denotes: a function
// literal (maybe in a local variable defined once), or a function or
// method of the package; a conversion (retryablehttp.CheckRetry(f)) is
// looked through.
func (m *model) predicateFunc(e ast.Expr, depth int) (ast.Node, *types.Signature, *ast.BlockStmt) {
	if e == nil || depth > 4 {
		return nil, nil, nil
	}
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok {
		if tv, ok := m.info.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 {
			return m.predicateFunc(call.Args[0], depth+1)
		}
		return nil, nil, nil
	}
	if lit := m.funcLitOf(e); lit != nil {
		sig, _ := types.Unalias(m.info.TypeOf(lit)).(*types.Signature)
		return lit, sig, lit.Body
	}
	if fn := m.funcValue(e); fn != nil {
		if decl := m.x.decls[fn.Origin()]; decl != nil && decl.Body != nil {
			sig, _ := fn.Origin().Type().(*types.Signature)
			return decl, sig, decl.Body
		}
	}
	return nil, nil, nil
}

// predicate walks one predicate, with each permanent failure as what it is
// given, and records the conditions on whose path it returns true.
func (m *model) predicate(p *Predicate, sig *types.Signature, body *ast.BlockStmt) {
	if sig.Results().Len() == 0 {
		return
	}
	if b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return
	}
	errV := map[*types.Var]bool{}
	resV := map[*types.Var]bool{}
	for i := 0; i < sig.Params().Len(); i++ {
		v := sig.Params().At(i)
		switch {
		case v.Name() == "" || v.Name() == "_":
		case types.Identical(v.Type(), errorType):
			errV[v] = true
		case analysisutil.IsContext(v.Type()):
		default:
			resV[v] = true
		}
	}
	if len(errV) == 0 {
		return // nothing to say what failed
	}
	L := &Loop{Body: body, Func: p.Func}
	li := &loopInfo{body: body}
	m.scan(li)
	if !li.status && !li.codes {
		return
	}
	mk := func(a assume) *walker {
		// No call of the body is the one under study: its outcome is given.
		w := &walker{m: m, L: L, li: li, call: &ast.CallExpr{Fun: &ast.Ident{Name: "_"}}, a: a, perm: true,
			errV: errV, resV: resV, argV: map[*types.Var]bool{}, predResults: sig.Results().Len()}
		w.runPredicate()
		return w
	}
	// A predicate without a response sees only failures: a status is the
	// one its error carries.
	p.Permanent = m.permanentWalks(li, len(resV) > 0, mk)
	for _, pm := range p.Permanent {
		pm.Pred = p
	}
}

// runPredicate walks a predicate's body: the outcome it is given is known
// from the start, a return whose first result is true goes round (the
// helper retries), one whose first result is false leaves.
func (w *walker) runPredicate() {
	w.stmts(w.L.Body.List, []pstate{{active: true, err: w.a.err}})
}

// predReturn applies a return statement of a predicate.
func (w *walker) predReturn(s *ast.ReturnStmt, in []pstate) {
	if len(s.Results) != w.predResults {
		return // a bare return, or a call's results: unknown
	}
	e := s.Results[0]
	for _, st := range in {
		r, stat := w.boolResult(e, st)
		switch {
		case r == yes:
			if stat {
				st.via = s
			}
			w.round = append(w.round, st)
		case r == no:
			w.exit = append(w.exit, st)
		}
	}
}

// boolResult evaluates a returned bool in the state st: a constant is
// itself, anything else is the condition the walk reads (stat: it reads a
// status).
func (w *walker) boolResult(e ast.Expr, st pstate) (r tri, stat bool) {
	if tv, ok := w.m.info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Bool {
		if constant.BoolVal(tv.Value) {
			return yes, false
		}
		return no, false
	}
	r, stat, _ = w.cond(e, st)
	return r, stat
}
