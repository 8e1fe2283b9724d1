package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// Whether a retry layer found in a function is taken when the function is
// called (issue 13, rule 4): a layer reached only in a goroutine the
// function starts, or in a callback it hands over to run later, is not on
// the caller's path; a layer reached only when a parameter has some value
// (if !retry { return once(ctx) }) is not taken by a call passing a
// constant that switches it off.

// Guard is a condition on a parameter under which a layer is reached: the
// argument for parameter Param-1, compared by Op with K, must give Want
// (a bool parameter p is p != 0).
type Guard struct {
	Param int
	// Field: the condition is on this field of the parameter (a struct
	// of options: if !opts.Retry), "" for the parameter itself.
	Field string
	Op    token.Token
	K     int64
	Want  bool
}

// holds evaluates the guard for a constant argument.
func (g Guard) holds(arg int64) bool {
	return (compare(g.Op, arg, g.K) == yes) == g.Want
}

// async reports whether n, inside decl, runs apart from a call of decl: in
// a goroutine decl starts, in a function literal it returns, stores in a
// field, a composite literal or an index, or hands to time.AfterFunc.
func (m *model) async(decl *ast.FuncDecl, n ast.Node) bool {
	if decl == nil || decl.Body == nil || !within(n.Pos(), decl.Body) {
		return false
	}
	if m.asyncMemo == nil {
		m.asyncMemo = map[*ast.FuncDecl][]ast.Node{}
	}
	spans, ok := m.asyncMemo[decl]
	if !ok {
		spans = m.asyncSpans(decl)
		m.asyncMemo[decl] = spans
	}
	for _, s := range spans {
		if within(n.Pos(), s) {
			return true
		}
	}
	return false
}

func (m *model) asyncSpans(decl *ast.FuncDecl) []ast.Node {
	var out []ast.Node
	lits := func(es ...ast.Expr) {
		for _, e := range es {
			if lit, ok := ast.Unparen(e).(*ast.FuncLit); ok {
				out = append(out, lit)
			}
		}
	}
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			out = append(out, n)
			return false
		case *ast.ReturnStmt:
			lits(n.Results...)
		case *ast.CompositeLit:
			for _, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					el = kv.Value
				}
				lits(el)
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if _, isID := ast.Unparen(l).(*ast.Ident); !isID && i < len(n.Rhs) {
					lits(n.Rhs[i])
				}
			}
		case *ast.CallExpr:
			if m.key(n) == "time.AfterFunc" {
				lits(n.Args...)
			}
		}
		return true
	})
	return out
}

// guards returns the conditions on decl's parameters under which n is
// reached: the if statements whose body or else branch holds it, and the
// if statements before it, in an enclosing block, whose body always
// leaves (if !retry { return once(ctx) }).
func (m *model) guards(decl *ast.FuncDecl, n ast.Node) []Guard {
	if decl == nil || decl.Body == nil {
		return nil
	}
	var out []Guard
	var visit func(list []ast.Stmt)
	visit = func(list []ast.Stmt) {
		for _, s := range list {
			if !within(n.Pos(), s) {
				if ifs, ok := s.(*ast.IfStmt); ok && ifs.Init == nil && ifs.Else == nil && s.End() <= n.Pos() && terminates(m, ifs.Body.List) {
					out = append(out, m.condGuards(decl, ifs.Cond, false)...)
				}
				continue
			}
			switch s := s.(type) {
			case *ast.BlockStmt:
				visit(s.List)
			case *ast.LabeledStmt:
				visit([]ast.Stmt{s.Stmt})
			case *ast.IfStmt:
				if s.Init != nil {
					return
				}
				switch {
				case within(n.Pos(), s.Body):
					out = append(out, m.condGuards(decl, s.Cond, true)...)
					visit(s.Body.List)
				case s.Else != nil && within(n.Pos(), s.Else):
					out = append(out, m.condGuards(decl, s.Cond, false)...)
					visit([]ast.Stmt{s.Else})
				}
			}
			return
		}
	}
	visit(decl.Body.List)
	return out
}

// boundGuards returns the conditions on decl's parameters under which a
// loop retries at all when its attempts are a local variable given only
// constants (attempts := 1; if retry { attempts = 5 }): the guards of the
// one definition that gives more than one attempt, when every other gives
// at most one and comes before it in decl's body. Nil otherwise.
func (m *model) boundGuards(decl *ast.FuncDecl, L *Loop) []Guard {
	if decl == nil || L == nil || L.BoundExpr == nil {
		return nil
	}
	id, ok := L.BoundExpr.(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := m.info.Uses[id].(*types.Var)
	if !ok || m.x.addrTaken[v] || m.paramIndex(decl, v) >= 0 {
		return nil
	}
	var retry *vdef
	for i := range m.x.defs[v] {
		d := &m.x.defs[v][i]
		if d.rhs == nil || d.index >= 0 || d.op != token.DEFINE && d.op != token.ASSIGN || !within(d.pos, decl.Body) {
			return nil
		}
		n, isConst := m.constInt(d.rhs)
		if !isConst {
			return nil
		}
		if n+int64(L.BoundOffset) > 1 {
			if retry != nil {
				return nil
			}
			retry = d
		}
	}
	if retry == nil || retry.stmt == nil || retry.pos > L.Stmt.Pos() {
		return nil
	}
	for _, d := range m.x.defs[v] {
		if d.pos > retry.pos {
			return nil // a single attempt given after it
		}
	}
	return m.guards(decl, retry.stmt)
}

// terminates reports whether a statement list always leaves the function.
func terminates(m *model, list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		c, ok := s.X.(*ast.CallExpr)
		return ok && m.noReturn(c)
	case *ast.IfStmt:
		if s.Else == nil {
			return false
		}
		var els []ast.Stmt
		switch e := s.Else.(type) {
		case *ast.BlockStmt:
			els = e.List
		case *ast.IfStmt:
			els = []ast.Stmt{e}
		}
		return terminates(m, s.Body.List) && terminates(m, els)
	case *ast.BlockStmt:
		return terminates(m, s.List)
	}
	return false
}

// condGuards reads a condition that must be want for n to be reached as
// guards on decl's parameters: p, !p, p op K, K op p, conjunctions that
// must hold and disjunctions that must not. Parts on anything else are
// left out (they only make the layer less certain, never absent).
func (m *model) condGuards(decl *ast.FuncDecl, cond ast.Expr, want bool) []Guard {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return m.condGuards(decl, e.X, !want)
		}
	case *ast.BinaryExpr:
		switch {
		case e.Op == token.LAND && want, e.Op == token.LOR && !want:
			return append(m.condGuards(decl, e.X, want), m.condGuards(decl, e.Y, want)...)
		case e.Op == token.LAND, e.Op == token.LOR:
			return nil
		}
		switch e.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		default:
			return nil
		}
		if p, f := m.guardRef(decl, e.X); p > 0 {
			if k, ok := m.constInt(e.Y); ok {
				return []Guard{{Param: p, Field: f, Op: e.Op, K: k, Want: want}}
			}
		}
		if p, f := m.guardRef(decl, e.Y); p > 0 {
			if k, ok := m.constInt(e.X); ok {
				return []Guard{{Param: p, Field: f, Op: flip(e.Op), K: k, Want: want}}
			}
		}
	case *ast.Ident, *ast.SelectorExpr:
		if p, f := m.guardRef(decl, e); p > 0 {
			if b, ok := types.Unalias(m.info.TypeOf(e)).Underlying().(*types.Basic); ok && b.Info()&types.IsBoolean != 0 {
				return []Guard{{Param: p, Field: f, Op: token.NEQ, K: 0, Want: want}}
			}
		}
	}
	return nil
}

// guardRef returns what a guard is on: 1 + the index of a parameter of
// decl (guardParam), and the field of it the expression reads when it is
// a field of a struct parameter (opts.Retry, opts.MaxAttempts), or 0.
func (m *model) guardRef(decl *ast.FuncDecl, e ast.Expr) (int, string) {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return m.guardParam(decl, e), ""
	}
	s, ok := m.info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal || len(s.Index()) != 1 {
		return 0, ""
	}
	p := m.guardParam(decl, sel.X)
	if p == 0 || structOf(m.info.TypeOf(sel.X)) == nil {
		return 0, ""
	}
	for _, f := range m.x.fields[s.Obj().(*types.Var)] {
		if f.root != nil && m.paramIndex(decl, f.root)+1 == p {
			return 0, "" // the function changes it
		}
	}
	return p, sel.Sel.Name
}

// fieldArg returns the constant a call gives a field of a struct argument
// (do(ctx, opts{retry: false}), &Options{MaxAttempts: 1}); a field a keyed
// composite literal leaves out is zero.
func (m *model) fieldArg(arg ast.Expr, field string) (int64, bool) {
	e := ast.Unparen(arg)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	cl, ok := e.(*ast.CompositeLit)
	if !ok || structOf(m.info.TypeOf(cl)) == nil {
		return 0, false
	}
	for _, el := range cl.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return 0, false // positional: not read
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Name == field {
			return m.argConst(kv.Value)
		}
	}
	return 0, true
}

// guardParam returns 1 + the index of the parameter of decl that e is,
// when it is never assigned nor addressed, or 0.
func (m *model) guardParam(decl *ast.FuncDecl, e ast.Expr) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return 0
	}
	v, ok := m.info.Uses[id].(*types.Var)
	if !ok || len(m.x.defs[v]) > 0 || m.x.addrTaken[v] {
		return 0
	}
	return m.paramIndex(decl, v) + 1
}

// flip mirrors a comparison: K < p is p > K.
func flip(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.LEQ:
		return token.GEQ
	case token.GTR:
		return token.LSS
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// argConst returns the value of a constant argument, a bool constant as 0
// or 1.
func (m *model) argConst(e ast.Expr) (int64, bool) {
	if tv, ok := m.info.Types[e]; ok && tv.Value != nil {
		if b, ok := types.Unalias(tv.Type).Underlying().(*types.Basic); ok && b.Info()&types.IsBoolean != 0 {
			if constant.BoolVal(tv.Value) {
				return 1, true
			}
			return 0, true
		}
	}
	return m.constInt(e)
}
