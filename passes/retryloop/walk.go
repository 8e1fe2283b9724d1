package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

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
	// classWalk: the walk assumes the error is of class (a class key, see
	// classes.go; "" for a class the loop tests nowhere): a test of the
	// error against a class is decided.
	classWalk bool
	class     string
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
	// waits and pre are the waits of the loop body (bits of
	// loopInfo.waits) the path passed after the call ran, and before.
	waits, pre uint64
	// errBlind: the path passed a condition on the call's error that the
	// walk could not decide (a predicate, shouldRetry(err, resp, n)): what
	// the walk assumed of the outcome did not decide it.
	errBlind bool
	// classBlind: in a class walk, the path passed a test of the call's
	// own error that the walk could not decide (shouldRetry(err)).
	classBlind bool
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
	// helper: the walk evaluates a helper's result predIdx (predErr: an
	// error, whether it is non-nil); predUnknown: some return of it could
	// not be decided.
	helper      bool
	predIdx     int
	predErr     bool
	predUnknown bool
	// stops are the functions marking an error its retry helper does not
	// retry (backoff.Permanent), when the walk is an operation's.
	stops map[string]bool
	round []pstate
	exit  []pstate
	fatal []pstate // paths that end the program or the test (panic, log.Fatal)
	steps int
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
		w.li.roundSeen = true
		w.li.roundWaits |= s.waits | s.pre
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
		if w.helper {
			w.helperReturn(s, in)
			return nil
		}
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
		condBits := w.li.waitBits(s.Cond)
		for _, st := range in {
			st = w.activateIn(s.Cond, st).pass(condBits)
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
			if st.active && r == unk && !st.errBlind && w.blindToErr(s.Cond, st) {
				st.errBlind = true
			}
			if st.active && r == unk && w.a.classWalk && !st.classBlind && w.readsOwnErr(s.Cond, 0) {
				st.classBlind = true
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
			st = w.activateIn(s.Tag, st).pass(w.li.waitBits(s.Tag))
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
			if cs.active && r == unk && w.a.classWalk && (s.Tag != nil && w.readsOwnErr(s.Tag, 0) || w.readsOwnErr(cc, 0)) {
				cs.classBlind = true
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
		if !decidedAll && ds.active && w.a.classWalk && (s.Tag != nil && w.readsOwnErr(s.Tag, 0) || w.readsOwnErr(s.Body, 0)) {
			ds.classBlind = true
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
			if w.m.gotoLoops[w.L.Stmt] {
				w.toExit(in) // continues a loop around the goto loop
				return nil
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
		if lbl != nil && lbl == w.li.label && w.m.gotoLoops[w.L.Stmt] {
			w.toRound(in) // a goto loop's jump back
		}
		return nil
	}
	return in // fallthrough
}

// pass records on a path the waits it passes (bits of loopInfo.waits).
func (st pstate) pass(bits uint64) pstate {
	if st.active {
		st.waits |= bits
	} else {
		st.pre |= bits
	}
	return st
}

// waitBits returns the waits of the loop body that n holds, as bits of
// li.waits (the first 64).
func (li *loopInfo) waitBits(n ast.Node) uint64 {
	if n == nil {
		return 0
	}
	var bits uint64
	for i, x := range li.waits {
		if i < 64 && within(x.Pos(), n) {
			bits |= 1 << i
		}
	}
	return bits
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
	bits := w.li.waitBits(s)
	out := in[:0:0]
	for _, st := range in {
		if contains && !st.active {
			st.active = true
			st.err = w.a.err
			st.pre |= bits
			out = append(out, st)
			continue
		}
		st = st.pass(bits)
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
			// The call's error variable reused for reading its results
			// (n, err := strconv.Atoi(p.Count)): on a path where the
			// call succeeded, so does that, as for derivedErr.
			if st.err == no && w.a.err == no && i == len(as.Lhs)-1 && w.readsResults(as.Rhs[0]) {
				continue
			}
			st.err = unk
			continue
		}
		st.err = w.m.nonNil(as.Rhs[i])
	}
	return st
}

// readsResults reports whether e is a read of the call's results: a call
// of a function known statically (not a function value or an interface
// method, whose work is not in sight) that mentions them and reaches no
// other process (decode(resp), strconv.Atoi(resp.Header.Get("Count")),
// cmd.Result()). Its outcome is part of the attempt's.
func (w *walker) readsResults(e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || c == w.call || !w.tracked(c) {
		return false
	}
	fn, _ := w.m.callee(c)
	if fn == nil {
		return false
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
		return false
	}
	return !w.m.remote(c, 0)
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
