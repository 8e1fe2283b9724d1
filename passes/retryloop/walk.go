package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"net/http"
	"regexp"
	"sort"

	"github.com/resilint/resilint/internal/analysisutil"
)

// tri is a three-valued truth.
type tri int8

const (
	unk tri = 0
	yes tri = 1
	no  tri = -1
)

func (t tri) not() tri { return -t }

func (t tri) and(u tri) tri {
	switch {
	case t == no || u == no:
		return no
	case t == yes && u == yes:
		return yes
	}
	return unk
}

func (t tri) or(u tri) tri {
	switch {
	case t == yes || u == yes:
		return yes
	case t == no && u == no:
		return no
	}
	return unk
}

// assume is what a walk assumes about the call under study once it ran.
type assume struct {
	err    tri // yes: it failed with an error; no: no error
	status int // the HTTP status when err is no (0: unknown)
	code   int // the gRPC code when err is yes (-1: unknown)
	// errStatus: the call failed with an error value that carries status
	// (a *APIError with a Code field, read after errors.As).
	errStatus bool
}

// pstate is the state of one path through the loop body.
type pstate struct {
	active bool // the call under study ran on this path
	err    tri  // what its error variable holds
	// For permanent failures: the last decided condition on a status or code
	// (via), whether an undecided condition on the call's results was
	// passed (blind), and whether credentials were refreshed.
	via     ast.Node
	blind   bool
	refresh bool
}

type frame struct {
	stmt   ast.Stmt
	label  *types.Label
	loop   bool
	breaks []pstate
	conts  []pstate
}

// walker follows the paths of a loop body from a call.
type walker struct {
	m      *model
	L      *Loop
	li     *loopInfo
	call   *ast.CallExpr
	stmt   ast.Node // the statement that contains the call
	a      assume
	errV   map[*types.Var]bool // variables receiving the call's error
	resV   map[*types.Var]bool // variables receiving its other results
	argV   map[*types.Var]bool // variables its arguments read
	perm   bool
	fr     []*frame
	inline int
	// subst binds the parameters of a predicate being evaluated to the
	// arguments of its call.
	subst map[types.Object]ast.Expr
	// predResults is the number of results of a retry predicate being
	// walked (its returns decide: true goes round), 0 when walking a loop.
	predResults int
	round       []pstate
	exit        []pstate
	fatal       []pstate // paths that end the program or the test (panic, log.Fatal)
	steps       int
}

const maxSteps = 20000

func (m *model) newWalker(L *Loop, li *loopInfo, call *ast.CallExpr, a assume, perm bool) *walker {
	w := &walker{m: m, L: L, li: li, call: call, a: a, perm: perm,
		errV: map[*types.Var]bool{}, resV: map[*types.Var]bool{}, argV: map[*types.Var]bool{}}
	w.stmt = m.stmtOf(li.body, call)
	if as, ok := w.stmt.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == call {
		for i, l := range as.Lhs {
			v := m.x.varOf(l)
			if v == nil {
				continue
			}
			if types.Identical(v.Type(), errorType) && i == len(as.Lhs)-1 {
				w.errV[v] = true
			} else {
				w.resV[v] = true
			}
		}
	}
	if ds, ok := w.stmt.(*ast.DeclStmt); ok {
		if gd, ok := ds.Decl.(*ast.GenDecl); ok && len(gd.Specs) == 1 {
			if vs, ok := gd.Specs[0].(*ast.ValueSpec); ok && len(vs.Values) == 1 && ast.Unparen(vs.Values[0]) == call {
				for i, n := range vs.Names {
					if v, ok := m.info.Defs[n].(*types.Var); ok {
						if i == len(vs.Names)-1 && types.Identical(v.Type(), errorType) {
							w.errV[v] = true
						} else {
							w.resV[v] = true
						}
					}
				}
			}
		}
	}
	ast.Inspect(call, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := m.info.Uses[id].(*types.Var); ok {
				w.argV[v] = true
			}
		}
		return true
	})
	return w
}

// stmtOf returns the innermost statement of body that contains n.
func (m *model) stmtOf(body *ast.BlockStmt, n ast.Node) ast.Node {
	var out ast.Node
	ast.Inspect(body, func(x ast.Node) bool {
		if x == nil || !within(n.Pos(), x) {
			return false
		}
		if _, ok := x.(*ast.FuncLit); ok {
			return false
		}
		if s, ok := x.(ast.Stmt); ok {
			switch s.(type) {
			case *ast.BlockStmt, *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt,
				*ast.ForStmt, *ast.RangeStmt, *ast.CaseClause, *ast.CommClause, *ast.LabeledStmt:
			default:
				out = s
			}
		}
		return true
	})
	return out
}

// run walks the body once and reports whether some path reaches the next
// iteration (round) and whether some path leaves the loop (exit).
func (w *walker) run() {
	out := w.stmts(w.L.Body.List, []pstate{{}})
	w.toRound(out)
}

func (w *walker) toRound(states []pstate) {
	for _, s := range states {
		if !s.active {
			continue
		}
		if fs, ok := w.L.Stmt.(*ast.ForStmt); ok && fs.Cond != nil {
			r, _, _ := w.cond(fs.Cond, s)
			if r == no {
				w.exit = append(w.exit, s)
				continue
			}
		}
		w.round = append(w.round, s)
	}
}

func (w *walker) toExit(states []pstate) {
	for _, s := range states {
		if s.active {
			w.exit = append(w.exit, s)
		}
	}
}

func uniq(states []pstate) []pstate {
	if len(states) < 2 {
		return states
	}
	seen := map[pstate]bool{}
	out := states[:0:0]
	for _, s := range states {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func (w *walker) stmts(list []ast.Stmt, in []pstate) []pstate {
	for _, s := range list {
		if len(in) == 0 {
			return nil
		}
		in = uniq(w.stmt1(s, in, nil))
	}
	return in
}

func (w *walker) stmt1(s ast.Stmt, in []pstate, label *types.Label) []pstate {
	w.steps++
	if w.steps > maxSteps || len(in) == 0 {
		return nil
	}
	switch s := s.(type) {
	case *ast.LabeledStmt:
		lbl, _ := w.m.info.Defs[s.Label].(*types.Label)
		return w.stmt1(s.Stmt, in, lbl)
	case *ast.BlockStmt:
		return w.stmts(s.List, in)
	case *ast.ExprStmt:
		in = w.simple(s, in)
		if c, ok := s.X.(*ast.CallExpr); ok && w.m.noReturn(c) {
			for _, st := range in {
				if st.active {
					w.fatal = append(w.fatal, st)
				}
			}
			return nil
		}
		return in
	case *ast.ReturnStmt:
		in = w.simple(s, in)
		if w.predResults > 0 {
			w.predReturn(s, in)
			return nil
		}
		w.toExit(in)
		return nil
	case *ast.BranchStmt:
		return w.branch(s, in)
	case *ast.IfStmt:
		if s.Init != nil {
			in = w.stmt1(s.Init, in, nil)
		}
		var thenIn, elseIn []pstate
		for _, st := range in {
			st = w.activateIn(s.Cond, st)
			r, stat, track := w.cond(s.Cond, st)
			if st.active && r != unk && stat && !(r == no && st.via != nil && w.perm && w.refreshes(s.Body)) {
				// The anchor of a permanent finding; a credentials refresh
				// branch the status passes by (if code == 401 { refresh;
				// continue }) is exempt and is not it.
				st.via = s
			}
			if st.active && r == unk && (stat || track) {
				st.blind = true
			}
			if r != no {
				thenIn = append(thenIn, st)
			}
			if r != yes {
				elseIn = append(elseIn, st)
			}
		}
		out := w.stmts(s.Body.List, thenIn)
		if s.Else != nil {
			out = append(out, w.stmt1(s.Else, elseIn, nil)...)
		} else {
			out = append(out, elseIn...)
		}
		return out
	case *ast.SwitchStmt:
		return w.switchStmt(s, in, label)
	case *ast.TypeSwitchStmt:
		if s.Init != nil {
			in = w.stmt1(s.Init, in, nil)
		}
		in = w.simple(s.Assign, in)
		f := &frame{stmt: s, label: label}
		w.fr = append(w.fr, f)
		var out []pstate
		hasDefault := false
		for _, c := range s.Body.List {
			cc := c.(*ast.CaseClause)
			if cc.List == nil {
				hasDefault = true
			}
			out = append(out, w.stmts(cc.Body, in)...)
		}
		w.fr = w.fr[:len(w.fr)-1]
		if !hasDefault {
			out = append(out, in...)
		}
		return append(out, f.breaks...)
	case *ast.SelectStmt:
		f := &frame{stmt: s, label: label}
		w.fr = append(w.fr, f)
		var out []pstate
		for _, c := range s.Body.List {
			cc := c.(*ast.CommClause)
			if len(s.Body.List) > 1 && analysisutil.DoneRecv(w.m.info, cc.Comm) {
				// case <-ctx.Done(): the walk asks what the call's outcome
				// does while the caller still waits; the caller giving up
				// is not an outcome (the loop's exits are read apart).
				continue
			}
			st := in
			if cc.Comm != nil {
				st = w.stmt1(cc.Comm, st, nil)
			}
			out = append(out, w.stmts(cc.Body, st)...)
		}
		w.fr = w.fr[:len(w.fr)-1]
		return append(out, f.breaks...)
	case *ast.ForStmt:
		if s.Init != nil {
			in = w.stmt1(s.Init, in, nil)
		}
		f := &frame{stmt: s, label: label, loop: true}
		w.fr = append(w.fr, f)
		body := w.stmts(s.Body.List, in)
		w.fr = w.fr[:len(w.fr)-1]
		out := append([]pstate(nil), f.breaks...)
		if s.Cond != nil {
			out = append(out, in...)
			out = append(out, body...)
			out = append(out, f.conts...)
		}
		return out
	case *ast.RangeStmt:
		in = w.simple(&ast.ExprStmt{X: s.X}, in)
		f := &frame{stmt: s, label: label, loop: true}
		w.fr = append(w.fr, f)
		body := w.stmts(s.Body.List, in)
		w.fr = w.fr[:len(w.fr)-1]
		out := append([]pstate(nil), in...)
		out = append(out, body...)
		out = append(out, f.conts...)
		return append(out, f.breaks...)
	case *ast.GoStmt, *ast.DeferStmt, *ast.EmptyStmt:
		return in
	default:
		return w.simple(s, in)
	}
}

func (w *walker) switchStmt(s *ast.SwitchStmt, in []pstate, label *types.Label) []pstate {
	if s.Init != nil {
		in = w.stmt1(s.Init, in, nil)
	}
	f := &frame{stmt: s, label: label}
	w.fr = append(w.fr, f)
	var out []pstate
	for _, st := range in {
		if s.Tag != nil {
			st = w.activateIn(s.Tag, st)
		}
		matched := false // a case surely matched
		var statAll bool // every decision involved a status or code
		decidedAll := true
		var defaultClause *ast.CaseClause
		for _, c := range s.Body.List {
			cc := c.(*ast.CaseClause)
			if cc.List == nil {
				defaultClause = cc
				continue
			}
			r := no
			stat, track := false, false
			for _, e := range cc.List {
				var ri tri
				var si, ti bool
				if s.Tag != nil {
					ri, si, ti = w.equal(s.Tag, e, st)
				} else {
					st2 := w.activateIn(e, st)
					ri, si, ti = w.cond(e, st2)
				}
				r = r.or(ri)
				stat = stat || si
				track = track || ti
				if r == yes {
					break
				}
			}
			if r == unk {
				decidedAll = false
			}
			if stat {
				statAll = true
			}
			if r == no {
				continue
			}
			cs := st
			if cs.active && r == yes && stat {
				cs.via = cc
			}
			if cs.active && r == unk && (stat || track) {
				cs.blind = true
			}
			out = append(out, w.stmts(cc.Body, []pstate{cs})...)
			if r == yes {
				matched = true
				break
			}
		}
		if matched {
			continue
		}
		ds := st
		if !ds.active {
			statAll = false
		}
		if statAll && decidedAll {
			if defaultClause != nil {
				ds.via = defaultClause
			} else {
				ds.via = s
			}
		}
		if !decidedAll && statAll {
			ds.blind = true
		}
		if defaultClause != nil {
			out = append(out, w.stmts(defaultClause.Body, []pstate{ds})...)
		} else {
			out = append(out, ds)
		}
	}
	w.fr = w.fr[:len(w.fr)-1]
	return append(out, f.breaks...)
}

func (w *walker) branch(s *ast.BranchStmt, in []pstate) []pstate {
	var lbl *types.Label
	if s.Label != nil {
		lbl, _ = w.m.info.Uses[s.Label].(*types.Label)
	}
	switch s.Tok {
	case token.BREAK:
		if lbl == nil {
			if len(w.fr) == 0 {
				w.toExit(in)
				return nil
			}
			f := w.fr[len(w.fr)-1]
			f.breaks = append(f.breaks, in...)
			return nil
		}
		for i := len(w.fr) - 1; i >= 0; i-- {
			if w.fr[i].label == lbl {
				w.fr[i].breaks = append(w.fr[i].breaks, in...)
				return nil
			}
		}
		w.toExit(in) // L or an enclosing statement
		return nil
	case token.CONTINUE:
		if lbl == nil {
			for i := len(w.fr) - 1; i >= 0; i-- {
				if w.fr[i].loop {
					w.fr[i].conts = append(w.fr[i].conts, in...)
					return nil
				}
			}
			w.toRound(in)
			return nil
		}
		for i := len(w.fr) - 1; i >= 0; i-- {
			if w.fr[i].label == lbl {
				w.fr[i].conts = append(w.fr[i].conts, in...)
				return nil
			}
		}
		if lbl == w.li.label {
			w.toRound(in)
		} else {
			w.toExit(in)
		}
		return nil
	case token.GOTO:
		return nil
	}
	return in // fallthrough
}

// activateIn marks the call as run when it sits in e (an if condition,
// a switch tag).
func (w *walker) activateIn(e ast.Expr, st pstate) pstate {
	if !st.active && within(w.call.Pos(), e) {
		st.active = true
		st.err = w.a.err
	}
	return st
}

// simple applies a simple statement: the call runs in it, or an error
// variable is set, or credentials are refreshed.
func (w *walker) simple(s ast.Node, in []pstate) []pstate {
	if s == nil {
		return in
	}
	contains := within(w.call.Pos(), s)
	var refresh bool
	if w.perm {
		refresh = w.refreshes(s)
	}
	out := in[:0:0]
	for _, st := range in {
		if contains && !st.active {
			st.active = true
			st.err = w.a.err
			out = append(out, st)
			continue
		}
		if st.active {
			if as, ok := s.(*ast.AssignStmt); ok {
				st = w.assign(as, st)
			}
			if refresh {
				st.refresh = true
			}
		}
		out = append(out, st)
	}
	return out
}

func (w *walker) assign(as *ast.AssignStmt, st pstate) pstate {
	for i, l := range as.Lhs {
		v := w.m.x.varOf(l)
		if v == nil || !w.errV[v] {
			continue
		}
		if len(as.Lhs) != len(as.Rhs) {
			st.err = unk
			continue
		}
		st.err = w.m.nonNil(as.Rhs[i])
	}
	return st
}

// nonNil says whether an error expression is nil.
func (m *model) nonNil(e ast.Expr) tri {
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.Ident:
		if e.Name == "nil" {
			if _, ok := m.info.Uses[e].(*types.Nil); ok {
				return no
			}
		}
	case *ast.CompositeLit:
		return yes
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return yes
		}
	case *ast.CallExpr:
		fn, _ := m.callee(e)
		if fn != nil {
			switch analysisutil.Key(fn) {
			case "errors.New", "fmt.Errorf":
				return yes
			}
		}
	}
	return unk
}

// refreshVars returns the variables that a refresh-named call of the loop
// reads (d.token(ctx, sub, forceRefresh)): setting one on a path asks the
// next iteration for fresh credentials. Computed once per loop.
func (m *model) refreshVars(li *loopInfo) map[*types.Var]bool {
	if li.refreshV != nil {
		return li.refreshV
	}
	li.refreshV = map[*types.Var]bool{}
	ast.Inspect(li.body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if fn, _ := m.callee(c); fn != nil && refreshName.MatchString(fn.Name()) {
			for _, a := range c.Args {
				if id, ok := ast.Unparen(a).(*ast.Ident); ok {
					if v, ok := m.info.Uses[id].(*types.Var); ok {
						li.refreshV[v] = true
					}
				}
			}
		}
		return true
	})
	return li.refreshV
}

var refreshName = regexp.MustCompile(`(?i)(refresh|renew|reauth|relogin|login|authenticat|token|credential)`)

// refreshes reports whether a statement refreshes credentials: it calls a
// function named like a refresh, or assigns a variable (or a field of one)
// that the retried call reads.
func (w *walker) refreshes(s ast.Node) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if n == w.call {
				return false
			}
			if fn, _ := w.m.callee(n); fn != nil && refreshName.MatchString(fn.Name()) {
				found = true
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if v := w.m.x.rootVar(l); v != nil && (w.argV[v] || w.m.refreshVars(w.li)[v]) && !w.errV[v] && !w.resV[v] {
					found = true
				}
			}
		}
		return true
	})
	return found
}

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
	// err == nil, err != nil
	for _, p := range [][2]ast.Expr{{e.X, e.Y}, {e.Y, e.X}} {
		if isNil(w.m.info, p[1]) && (e.Op == token.EQL || e.Op == token.NEQ) {
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

func isNil(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := info.Uses[id].(*types.Nil)
	return isNil
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

var statusName = regexp.MustCompile(`(?i)^(status|statuscode|code|httpcode|httpstatus|httpstatuscode|respcode|respstatus|rescode|responsecode|responsestatus|statuscd)$`)

// isStatusExpr reports whether e reads an HTTP status: a StatusCode field
// or method, or a variable named like one.
func (m *model) isStatusExpr(e ast.Expr) bool {
	e = ast.Unparen(e)
	t := m.info.TypeOf(e)
	if t == nil || !isInteger(t) || m.isCodeType(t) {
		return false
	}
	if _, ok := m.info.Types[e]; ok && m.info.Types[e].Value != nil {
		return false
	}
	switch e := e.(type) {
	case *ast.SelectorExpr:
		return m.isStatus(e)
	case *ast.Ident:
		return m.isStatusIdent(e)
	case *ast.CallExpr:
		if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok && len(e.Args) == 0 {
			return sel.Sel.Name == "StatusCode"
		}
	}
	return false
}

// isStatus reports whether a selector reads an HTTP status field.
func (m *model) isStatus(sel *ast.SelectorExpr) bool {
	s, ok := m.info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal || !isInteger(s.Obj().Type()) {
		return false
	}
	if key := analysisutil.TypeKey(s.Recv()) + "." + sel.Sel.Name; m.rt.StatusFields[key] {
		return true
	}
	switch sel.Sel.Name {
	case "StatusCode", "HTTPStatus", "HTTPStatusCode":
		return true
	case "Code", "Status":
		// An error type carrying the status of a failed call
		// (var apiErr *APIError; errors.As(err, &apiErr) && apiErr.Code >= 400).
		return isErrorType(s.Recv())
	}
	return false
}

// errCarried reports whether a status expression reads a field of an error
// value (apiErr.Code, apiErr.StatusCode).
func (m *model) errCarried(e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s, ok := m.info.Selections[sel]
	return ok && s.Kind() == types.FieldVal && isErrorType(s.Recv())
}

// statusTarget reports whether the target of errors.As (&apiErr) is an
// error type with a status field.
func (m *model) statusTarget(e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return false
	}
	t := m.info.TypeOf(u.X)
	if t == nil || !isErrorType(t) {
		return false
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		switch f := st.Field(i); f.Name() {
		case "StatusCode", "HTTPStatus", "HTTPStatusCode", "Code", "Status":
			if isInteger(f.Type()) {
				return true
			}
		}
	}
	return false
}

// isErrorType reports whether t, or a pointer to it, implements error.
func isErrorType(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if _, ok := t.Underlying().(*types.Struct); !ok {
		return false
	}
	return types.Implements(t, errorIface) || types.Implements(types.NewPointer(t), errorIface)
}

var errorIface = errorType.Underlying().(*types.Interface)

// isStatusIdent reports whether an identifier is an integer variable named
// like a status, or defined from one.
func (m *model) isStatusIdent(id *ast.Ident) bool {
	v, ok := m.info.Uses[id].(*types.Var)
	if !ok || !isInteger(v.Type()) || m.isCodeType(v.Type()) || v.IsField() {
		return false
	}
	if statusName.MatchString(v.Name()) {
		return true
	}
	ds := m.x.defs[v]
	if len(ds) == 1 && ds[0].rhs != nil && ds[0].index < 0 {
		if sel, ok := ast.Unparen(ds[0].rhs).(*ast.SelectorExpr); ok {
			return m.isStatus(sel)
		}
	}
	return false
}

func (m *model) isCodeType(t types.Type) bool {
	return analysisutil.TypeKey(t) == m.rt.CodeType
}

// isCodeExpr reports whether e is a non-constant gRPC code.
func (m *model) isCodeExpr(e ast.Expr) bool {
	tv, ok := m.info.Types[e]
	return ok && tv.Value == nil && !tv.IsType() && m.isCodeType(tv.Type)
}

// isCode is isCodeExpr for scanning.
func (m *model) isCode(e ast.Expr) bool { return m.isCodeExpr(e) }

// retried reports whether the loop retries call: its failure can go round
// again, success can leave, and it repeats the same operation.
func (m *model) retried(L *Loop, li *loopInfo, call *ast.CallExpr) bool {
	w := m.newWalker(L, li, call, assume{err: yes, code: -1}, false)
	if !w.observed() {
		return false
	}
	if m.onEvent(li, call) {
		return false
	}
	if m.varies(L, li, call) {
		// A watch loop resuming from its last result (next, err :=
		// watch(ctx, rv); ...; rv = next) repeats the same call after a
		// failure: a reconnect loop still retries it.
		// Only a loop that never leaves on success: one that does (a page
		// token that ends) is walking through results, not watching.
		if m.reconnects(L, li, call) && m.sameAfterFailure(L, call) {
			ws := m.newWalker(L, li, call, assume{err: no, status: 200, code: 0}, false)
			ws.run()
			if len(ws.exit) == 0 {
				li.reconnect = append(li.reconnect, call)
				return true
			}
		}
		return false
	}
	// The failure walks: an error (with each transient gRPC code when the
	// loop reads codes), then each transient HTTP status.
	type outcome struct {
		a                      assume
		round, exit, predRound bool
	}
	var fails []outcome
	try := func(a assume) {
		w := m.newWalker(L, li, call, a, false)
		w.run()
		fails = append(fails, outcome{a, len(w.round) > 0, len(w.exit) > 0, w.roundByPredicate()})
	}
	if li.codes {
		for _, c := range m.rt.TransientCodes {
			try(assume{err: yes, code: c})
		}
	} else {
		try(assume{err: yes, code: -1})
	}
	// Transient statuses count only where the loop reads a status: a loop
	// that never looks at it treats a 503 like a 200, so whatever sends it
	// round (a job not done yet) is polling, not a retry of a failure.
	if li.status && (m.isResponseCall(call) || w.statusResult()) {
		for _, s := range m.rt.TransientStatuses {
			try(assume{err: no, status: s, code: -1})
		}
	}
	w = m.newWalker(L, li, call, assume{err: no, status: 200, code: 0}, false)
	w.run()
	if (len(w.exit) == 0 || len(w.round) > 0) && li.status {
		// Success may be another 2xx that the loop waits for (status ==
		// http.StatusAccepted) while a 200 goes round: the first one the
		// loop compares the status with that always leaves.
		for _, s := range m.successStatuses(li) {
			ws := m.newWalker(L, li, call, assume{err: no, status: s, code: 0}, false)
			ws.run()
			if len(ws.exit) > 0 && len(ws.round) == 0 {
				w = ws
				break
			}
		}
	}
	if len(w.exit) == 0 {
		// Success never leaves: a watch or consumer loop. It still retries
		// the call when it waits only on the call's failure path.
		if m.reconnects(L, li, call) {
			li.reconnect = append(li.reconnect, call)
			return true
		}
		return false
	}
	// The call's outcome must decide: a loop that goes round and leaves
	// alike whether the call failed or not (a reader loop that stops at EOF
	// and keeps an error for later) does not retry it, unless a predicate on
	// the outcome decides (shouldRetry(resp, err, n)).
	ok := false
	for _, f := range fails {
		if !f.round || (len(w.round) > 0 && f.exit && !f.predRound) {
			continue
		}
		ok = true
		if f.predRound {
			L.Predicate = true
		}
		if f.a.status != 0 && !containsInt(L.Statuses, f.a.status) {
			L.Statuses = append(L.Statuses, f.a.status)
		}
		if name := m.rt.CodeNames[f.a.code]; f.a.code >= 0 && name != "" && !containsStr(L.Codes, name) {
			L.Codes = append(L.Codes, name)
		}
	}
	return ok
}

// successStatuses returns the 2xx statuses other than 200 that the loop
// body compares an HTTP status with for equality (status ==
// http.StatusAccepted, case http.StatusNoContent:), in source order.
func (m *model) successStatuses(li *loopInfo) []int {
	var out []int
	add := func(status, other ast.Expr) {
		if !m.isStatusExpr(status) {
			return
		}
		if n, ok := m.constInt(other); ok && n > 200 && n < 300 && !containsInt(out, int(n)) {
			out = append(out, int(n))
		}
	}
	ast.Inspect(li.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				add(n.X, n.Y)
				add(n.Y, n.X)
			}
		case *ast.SwitchStmt:
			if n.Tag != nil {
				for _, c := range n.Body.List {
					if cc, ok := c.(*ast.CaseClause); ok {
						for _, e := range cc.List {
							add(n.Tag, e)
						}
					}
				}
			}
		}
		return true
	})
	return out
}

// roundByPredicate reports whether a path went round through a condition
// on the call's outcome that the walk could not decide (a retry predicate).
func (w *walker) roundByPredicate() bool {
	for _, s := range w.round {
		if s.blind {
			return true
		}
	}
	return false
}

// statusResult reports whether the call returns an HTTP status in a
// variable (code, err := c.post(ctx, body)).
func (w *walker) statusResult() bool {
	for v := range w.resV {
		if isInteger(v.Type()) && !w.m.isCodeType(v.Type()) && statusName.MatchString(v.Name()) {
			return true
		}
	}
	return false
}

func (m *model) isResponseCall(call *ast.CallExpr) bool {
	sig, ok := types.Unalias(m.info.TypeOf(call.Fun)).Underlying().(*types.Signature)
	return ok && m.isResponse(sig)
}

// observed reports whether the loop looks at the call's outcome: its error
// is kept in a variable or tested in place, or its response is kept.
func (w *walker) observed() bool {
	if len(w.errV) > 0 {
		return true
	}
	for v := range w.resV {
		if analysisutil.TypeKey(v.Type()) == "net/http.Response" {
			return true
		}
	}
	if w.stmt == nil {
		// No simple statement holds the call: it is in the condition of an
		// if or the tag of a switch of the body (if c.post(ctx) == nil).
		return w.inHeader()
	}
	switch w.stmt.(type) {
	case *ast.ExprStmt, *ast.AssignStmt, *ast.DeclStmt:
		return false // the error is dropped (or assigned to _)
	}
	return true // in a condition, a return, a switch tag
}

// inHeader reports whether the call is in the condition of an if statement
// or the tag of a switch statement of the loop body, outside function
// literals.
func (w *walker) inHeader() bool {
	found := false
	ast.Inspect(w.li.body, func(n ast.Node) bool {
		if found || n == nil || !within(w.call.Pos(), n) {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			found = within(w.call.Pos(), n.Cond)
		case *ast.SwitchStmt:
			found = n.Tag != nil && within(w.call.Pos(), n.Tag)
		}
		return !found
	})
	return found
}

// varies reports whether the call's inputs change from one iteration to
// the next: they read the element or index iterated, or a variable the
// loop sets from what the call returned.
func (m *model) varies(L *Loop, li *loopInfo, call *ast.CallExpr) bool {
	w := m.newWalker(L, li, call, assume{}, false)
	results := map[*types.Var]bool{}
	for v := range w.errV {
		results[v] = true
	}
	for v := range w.resV {
		results[v] = true
	}
	memo := map[*types.Var]bool{}
	var varying func(v *types.Var, depth int) bool
	var exprVaries func(e ast.Node, depth int) bool
	exprVaries = func(e ast.Node, depth int) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if found {
				return false
			}
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := m.info.Uses[id].(*types.Var); ok && varying(v, depth+1) {
					found = true
				}
			}
			return true
		})
		return found
	}
	varying = func(v *types.Var, depth int) bool {
		if r, ok := memo[v]; ok {
			return r
		}
		if depth > 12 {
			return false
		}
		// Cycles: a variable declared before the loop and computed from its
		// own previous value changes from one iteration to the next.
		memo[v] = !within(v.Pos(), L.Stmt) && !results[v]
		r := false
		switch {
		case results[v]:
			r = true
		case v == L.Counter:
			r = true
		case m.rangeVar(L, v):
			r = true
		case within(v.Pos(), L.Stmt):
			// Declared in the loop: varies if a definition does.
			for _, d := range m.x.defs[v] {
				if !within(d.pos, L.Stmt) {
					continue
				}
				if d.rng != nil && d.rng != L.Stmt {
					// An inner loop's element: another operation each
					// time, unless a failure restarts the outer loop
					// (continue outer), which tries the element again.
					if !m.continuesTo(d.rng, li.label) || m.readsIteration(L, d.rng.X) {
						r = true
						break
					}
					continue
				}
				if d.rhs != nil && exprVaries(d.rhs, depth) {
					r = true
					break
				}
			}
		default:
			// Declared outside: varies if the loop sets it from something
			// that varies (a page token), or steps it.
			for _, d := range m.x.defs[v] {
				if !within(d.pos, L.Stmt) {
					continue
				}
				if d.op == token.INC || d.op == token.DEC || d.rng != nil {
					r = true
					break
				}
				if d.rhs != nil && (d.rhs == call || within(call.Pos(), d.rhs)) {
					continue // the call's own result
				}
				if d.rhs != nil && exprVaries(d.rhs, depth) {
					r = true
					break
				}
			}
		}
		memo[v] = r
		return r
	}
	if m.callbackCall(L, call) {
		// A helper handing its operation the attempt number
		// (f(ctx, attempt)) repeats the same operation.
		for _, a := range call.Args {
			if !m.attemptNumber(L, a) && exprVaries(a, 0) {
				return true
			}
		}
		return false
	}
	return exprVaries(call, 0)
}

// callbackCall reports whether call calls a parameter of function type of
// the loop's declaration: a retry helper's operation.
func (m *model) callbackCall(L *Loop, call *ast.CallExpr) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || L.Decl == nil {
		return false
	}
	v, ok := m.info.Uses[id].(*types.Var)
	if !ok || m.paramIndex(L.Decl, v) < 0 {
		return false
	}
	_, ok = types.Unalias(v.Type()).Underlying().(*types.Signature)
	return ok
}

// attemptNumber reports whether e is the loop's attempt counter, maybe
// converted or offset by a constant (attempt, attempt+1, uint(attempt)).
func (m *model) attemptNumber(L *Loop, e ast.Expr) bool {
	if L.Counter == nil {
		return false
	}
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return m.info.Uses[x] == L.Counter
		case *ast.BinaryExpr:
			if x.Op != token.ADD && x.Op != token.SUB {
				return false
			}
			switch {
			case m.info.Types[x.Y].Value != nil:
				e = x.X
			case x.Op == token.ADD && m.info.Types[x.X].Value != nil:
				e = x.Y
			default:
				return false
			}
		case *ast.CallExpr:
			if len(x.Args) != 1 || !m.info.Types[x.Fun].IsType() {
				return false
			}
			e = x.Args[0]
		default:
			return false
		}
	}
}

// readsIteration reports whether e reads the loop's counter or the element
// it ranges over (for _, shard := range shards { for x := range shard.items:
// each round is another shard, not a retry).
func (m *model) readsIteration(L *Loop, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := m.info.Uses[id].(*types.Var); ok && (v == L.Counter || m.rangeVar(L, v)) {
				found = true
			}
		}
		return !found
	})
	return found
}

// onEvent reports whether the call runs in a select case that received a
// value from a channel other than a timer or a context's Done (case
// <-c.doReset:): each iteration handles a new event, an event loop, not a
// retry of the call.
func (m *model) onEvent(li *loopInfo, call *ast.CallExpr) bool {
	for _, r := range li.receives {
		if r.clause == nil || r.clause.Comm == nil || !within(call.Pos(), r.clause) || within(call.Pos(), r.clause.Comm) {
			continue
		}
		if k, _ := m.timerOf(r.expr.X); k != 0 {
			continue
		}
		if analysisutil.DoneRecv(m.info, r.clause.Comm) {
			continue
		}
		return true
	}
	return false
}

// continuesTo reports whether an inner loop holds a continue to the label
// of the loop (continue outer), outside function literals.
func (m *model) continuesTo(inner ast.Node, lbl *types.Label) bool {
	if lbl == nil {
		return false
	}
	found := false
	ast.Inspect(inner, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			if n.Tok == token.CONTINUE && n.Label != nil && m.info.Uses[n.Label] == lbl {
				found = true
			}
		}
		return !found
	})
	return found
}

// rangeVar reports whether v is the key or value of a range loop L over a
// collection.
func (m *model) rangeVar(L *Loop, v *types.Var) bool {
	rs, ok := L.Stmt.(*ast.RangeStmt)
	if !ok {
		return false
	}
	return m.x.varOf(rs.Key) == v || m.x.varOf(rs.Value) == v
}

// permanent finds the conditions that send permanent failures round.
func (m *model) permanent(L *Loop, li *loopInfo) {
	for _, call := range L.Retried {
		mk := func(a assume) *walker {
			w := m.newWalker(L, li, call, a, true)
			w.run()
			return w
		}
		ps := m.permanentWalks(li, true, mk)
		if m.rereads(L, call) {
			ps = withoutConflict(ps)
		}
		L.Permanent = append(L.Permanent, ps...)
	}
	L.Permanent = mergePermanent(L.Permanent)
	for _, p := range L.Permanent {
		p.Loop = L
	}
}

// rereads reports whether the call is given, each iteration, what another
// call to a dependency has just read (cur, err := api.Get(ctx, name);
// cur.Replicas = n; api.Update(ctx, cur)): a read-modify-write loop, for
// which 409 Conflict means "read again", not a permanent failure.
func (m *model) rereads(L *Loop, call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
			a = u.X
		}
		v := m.x.rootVar(a)
		if v == nil {
			continue
		}
		for _, d := range m.x.defs[v] {
			c, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
			if !ok || c == call || d.index > 0 || !within(d.pos, L.Stmt) {
				continue
			}
			if m.outbound(c) { // a read from the dependency, not a request builder
				return true
			}
		}
	}
	return false
}

// withoutConflict drops 409 Conflict from permanent-failure conditions.
func withoutConflict(ps []*Permanent) []*Permanent {
	out := ps[:0]
	for _, p := range ps {
		var st []int
		for _, s := range p.Statuses {
			if s != http.StatusConflict {
				st = append(st, s)
			}
		}
		p.Statuses = st
		if len(p.Statuses) > 0 || len(p.Codes) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// permanentWalks walks each permanent failure with walkers made by walk and
// returns the conditions on whose paths it goes round, in the order found.
// response: the outcome can be a response with a status (not only an
// error carrying one).
func (m *model) permanentWalks(li *loopInfo, response bool, walk func(assume) *walker) []*Permanent {
	byNode := map[ast.Node]*Permanent{}
	var order []*Permanent
	note := func(n ast.Node, status int, code string) {
		p := byNode[n]
		if p == nil {
			p = &Permanent{Node: n}
			byNode[n] = p
			order = append(order, p)
		}
		if status != 0 && !containsInt(p.Statuses, status) {
			p.Statuses = append(p.Statuses, status)
		}
		if code != "" && !containsStr(p.Codes, code) {
			p.Codes = append(p.Codes, code)
		}
	}
	if li.status {
		for _, s := range permanentStatuses {
			for _, a := range []assume{{err: no, status: s, code: -1}, {err: yes, status: s, code: -1, errStatus: true}} {
				if (a.errStatus && !li.errStatus) || (!a.errStatus && !response) {
					continue
				}
				w := walk(a)
				for _, st := range w.round {
					if st.via == nil || st.blind || (s == 401 && st.refresh) {
						continue
					}
					note(st.via, s, "")
				}
			}
		}
	}
	if li.codes {
		names := make([]string, 0, len(m.rt.PermanentCodes))
		for n := range m.rt.PermanentCodes {
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool { return m.rt.PermanentCodes[names[i]] < m.rt.PermanentCodes[names[j]] })
		for _, name := range names {
			w := walk(assume{err: yes, code: m.rt.PermanentCodes[name]})
			for _, st := range w.round {
				if st.via == nil || st.blind || (name == "Unauthenticated" && st.refresh) {
					continue
				}
				note(st.via, 0, name)
			}
		}
	}
	for _, p := range order {
		sort.Ints(p.Statuses)
	}
	return order
}

// mergePermanent merges the entries of a list that have the same node (one
// per retried call), keeping the first's place.
func mergePermanent(list []*Permanent) []*Permanent {
	byNode := map[ast.Node]*Permanent{}
	var out []*Permanent
	for _, p := range list {
		q := byNode[p.Node]
		if q == nil {
			byNode[p.Node] = p
			out = append(out, p)
			continue
		}
		for _, s := range p.Statuses {
			if !containsInt(q.Statuses, s) {
				q.Statuses = append(q.Statuses, s)
			}
		}
		for _, c := range p.Codes {
			if !containsStr(q.Codes, c) {
				q.Codes = append(q.Codes, c)
			}
		}
		sort.Ints(q.Statuses)
	}
	return out
}

// permanentStatuses are the 4xx statuses a retry cannot fix (not 408, 425,
// 429).
var permanentStatuses = []int{400, 401, 402, 403, 404, 405, 406, 407, 409, 410, 411, 412, 413, 414, 415,
	416, 417, 418, 421, 422, 423, 424, 426, 428, 431, 451}

func containsInt(list []int, x int) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}

func containsStr(list []string, x string) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}
