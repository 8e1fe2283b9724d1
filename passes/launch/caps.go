package launch

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/loops"
)

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
	n, ok, settled := s.capBefore(l.Stack, idx, v)
	if ok || settled {
		return n, ok
	}
	// A field validated where it is set (a constructor) or by a method of
	// its type (an Init).
	return s.fieldCap(v)
}

// capBefore walks back from stack[idx] through the statements before it,
// innermost block first, up to the enclosing function: the nearest
// statement that settles v's length decides (a guard, a reslice, a
// validator's handled failure: ok), an assignment to v first means unknown
// (settled, not ok).
func (s *state) capBefore(stack []ast.Node, idx int, v varPath) (n int64, ok, settled bool) {
	info := s.info
	child := stack[idx]
	for i := idx - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return 0, false, false
		case *ast.BlockStmt:
			var before []ast.Stmt
			for _, st := range n.List {
				if st == child {
					break
				}
				before = append(before, st)
			}
			for j := len(before) - 1; j >= 0; j-- {
				if n, ok := s.capStmt(before[j], v); ok {
					return n, true, true
				}
				if n, ok := s.validStmt(before, j, v); ok {
					return n, true, true
				}
				if assigns(info, before[j], v) {
					return 0, false, true
				}
			}
		}
		child = stack[i]
	}
	return 0, false, false
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
	if call := analysisutil.BuiltinCall(info, high, "min"); call != nil {
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
		if !ok || st.Else != nil || !isLen(info, be.X) || !leaves(info, st.Body) {
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
	call := analysisutil.BuiltinCall(s.info, e, "min")
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
func leaves(info *types.Info, b *ast.BlockStmt) bool {
	if b == nil || len(b.List) == 0 {
		return false
	}
	switch last := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		return analysisutil.BuiltinCall(info, last.X, "panic") != nil
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
