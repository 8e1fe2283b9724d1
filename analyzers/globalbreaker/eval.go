package globalbreaker

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// evaluator runs a trip predicate (func(counts Counts) bool) on one
// situation of the counts. It understands straight-line code: assignments
// of expressions, if statements and returns over arithmetic, comparisons,
// logic and conversions, and calls of the package's functions (decl finds
// their declarations), a few levels deep. Anything else is unknown.
type evaluator struct {
	info *types.Info
	decl func(*types.Func) *ast.FuncDecl
	// counts are the variables that hold the counts: the predicate's
	// parameter, or a helper's parameter it was passed to.
	counts   map[*types.Var]bool
	scenario map[string]int64
	env      map[*types.Var]val
	steps    int
	depth    int
}

type kind uint8

const (
	kNum kind = iota + 1
	kBool
)

type val struct {
	kind  kind
	f     float64
	b     bool
	isInt bool
}

const (
	maxSteps = 200
	// maxCalls bounds the nesting of helper calls.
	maxCalls = 4
)

// body runs a function body and returns the value it returns.
func (ev *evaluator) body(b *ast.BlockStmt) (val, bool) {
	r, returned, ok := ev.stmts(b.List)
	if !ok || !returned {
		return val{}, false
	}
	return r, true
}

func (ev *evaluator) stmts(list []ast.Stmt) (val, bool, bool) {
	for _, s := range list {
		ev.steps++
		if ev.steps > maxSteps {
			return val{}, false, false
		}
		switch s := s.(type) {
		case *ast.ReturnStmt:
			if len(s.Results) != 1 {
				return val{}, false, false
			}
			v, ok := ev.expr(s.Results[0])
			return v, ok, ok
		case *ast.AssignStmt:
			if len(s.Lhs) != len(s.Rhs) || (s.Tok != token.DEFINE && s.Tok != token.ASSIGN) {
				return val{}, false, false
			}
			for i, lhs := range s.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok {
					return val{}, false, false
				}
				v, ok := ev.info.ObjectOf(id).(*types.Var)
				if !ok {
					return val{}, false, false
				}
				x, ok := ev.expr(s.Rhs[i])
				if !ok {
					return val{}, false, false
				}
				ev.env[v] = x
			}
		case *ast.DeclStmt:
			gd, ok := s.Decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				return val{}, false, false
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if len(vs.Values) != len(vs.Names) {
					return val{}, false, false
				}
				for i, name := range vs.Names {
					v, ok := ev.info.Defs[name].(*types.Var)
					if !ok {
						return val{}, false, false
					}
					x, ok := ev.expr(vs.Values[i])
					if !ok {
						return val{}, false, false
					}
					ev.env[v] = x
				}
			}
		case *ast.IfStmt:
			if s.Init != nil {
				if _, _, ok := ev.stmts([]ast.Stmt{s.Init}); !ok {
					return val{}, false, false
				}
			}
			cond, ok := ev.expr(s.Cond)
			if !ok || cond.kind != kBool {
				return val{}, false, false
			}
			var branch []ast.Stmt
			switch {
			case cond.b:
				branch = s.Body.List
			case s.Else == nil:
				continue
			default:
				switch e := s.Else.(type) {
				case *ast.BlockStmt:
					branch = e.List
				case *ast.IfStmt:
					branch = []ast.Stmt{e}
				}
			}
			r, returned, ok := ev.stmts(branch)
			if !ok {
				return val{}, false, false
			}
			if returned {
				return r, true, true
			}
		case *ast.BlockStmt:
			r, returned, ok := ev.stmts(s.List)
			if !ok || returned {
				return r, returned, ok
			}
		case *ast.EmptyStmt:
		default:
			return val{}, false, false
		}
	}
	return val{}, false, true
}

func (ev *evaluator) expr(e ast.Expr) (val, bool) {
	ev.steps++
	if ev.steps > maxSteps {
		return val{}, false
	}
	if tv, ok := ev.info.Types[e]; ok && tv.Value != nil {
		switch tv.Value.Kind() {
		case constant.Bool:
			return val{kind: kBool, b: constant.BoolVal(tv.Value)}, true
		case constant.Int, constant.Float:
			f, _ := constant.Float64Val(tv.Value)
			isInt := tv.Value.Kind() == constant.Int
			if b, ok := tv.Type.Underlying().(*types.Basic); ok && b.Info()&types.IsUntyped == 0 {
				// A typed constant: float64 0 is a float.
				isInt = b.Info()&types.IsInteger != 0
			}
			return val{kind: kNum, f: f, isInt: isInt}, true
		}
		return val{}, false
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return ev.expr(x.X)
	case *ast.Ident:
		v, ok := ev.info.Uses[x].(*types.Var)
		if !ok {
			return val{}, false
		}
		r, ok := ev.env[v]
		return r, ok
	case *ast.SelectorExpr:
		if !ev.isCounts(x.X) {
			return val{}, false
		}
		n, ok := ev.scenario[x.Sel.Name]
		if !ok {
			return val{}, false
		}
		return val{kind: kNum, f: float64(n), isInt: true}, true
	case *ast.CallExpr:
		tv, ok := ev.info.Types[x.Fun]
		if !ok {
			return val{}, false
		}
		if !tv.IsType() {
			return ev.call(x)
		}
		if len(x.Args) != 1 {
			return val{}, false
		}
		v, ok := ev.expr(x.Args[0])
		if !ok || v.kind != kNum {
			return val{}, false
		}
		return convert(v, tv.Type)
	case *ast.UnaryExpr:
		v, ok := ev.expr(x.X)
		if !ok {
			return val{}, false
		}
		switch {
		case x.Op == token.NOT && v.kind == kBool:
			v.b = !v.b
			return v, true
		case x.Op == token.SUB && v.kind == kNum:
			v.f = -v.f
			return v, true
		}
	case *ast.BinaryExpr:
		l, ok := ev.expr(x.X)
		if !ok {
			return val{}, false
		}
		// Short-circuit logic.
		if l.kind == kBool && (x.Op == token.LAND || x.Op == token.LOR) {
			if (x.Op == token.LAND && !l.b) || (x.Op == token.LOR && l.b) {
				return l, true
			}
			r, ok := ev.expr(x.Y)
			if !ok || r.kind != kBool {
				return val{}, false
			}
			return r, true
		}
		r, ok := ev.expr(x.Y)
		if !ok || l.kind != kNum || r.kind != kNum {
			return val{}, false
		}
		isInt := l.isInt && r.isInt
		switch x.Op {
		case token.ADD:
			return val{kind: kNum, f: l.f + r.f, isInt: isInt}, true
		case token.SUB:
			return val{kind: kNum, f: l.f - r.f, isInt: isInt}, true
		case token.MUL:
			return val{kind: kNum, f: l.f * r.f, isInt: isInt}, true
		case token.QUO:
			if r.f == 0 {
				return val{}, false
			}
			q := l.f / r.f
			if isInt {
				q = float64(int64(q))
			}
			return val{kind: kNum, f: q, isInt: isInt}, true
		case token.EQL:
			return val{kind: kBool, b: l.f == r.f}, true
		case token.NEQ:
			return val{kind: kBool, b: l.f != r.f}, true
		case token.LSS:
			return val{kind: kBool, b: l.f < r.f}, true
		case token.LEQ:
			return val{kind: kBool, b: l.f <= r.f}, true
		case token.GTR:
			return val{kind: kBool, b: l.f > r.f}, true
		case token.GEQ:
			return val{kind: kBool, b: l.f >= r.f}, true
		}
	}
	return val{}, false
}

// isCounts reports whether e is a variable holding the counts (c, or *c
// and (c) around it).
func (ev *evaluator) isCounts(e ast.Expr) bool {
	e = ast.Unparen(e)
	if st, ok := e.(*ast.StarExpr); ok {
		e = ast.Unparen(st.X)
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := ev.info.Uses[id].(*types.Var)
	return ok && ev.counts[v]
}

// call evaluates a call of a function of the package (failureRatio(c)):
// its body, with its parameters bound to the arguments. An argument that
// is the counts (c or &c) makes the parameter hold the counts; one that
// cannot be evaluated leaves the parameter unknown. Methods, variadic and
// generic functions, functions of other packages and function values are
// unknown.
func (ev *evaluator) call(call *ast.CallExpr) (val, bool) {
	if ev.decl == nil || ev.depth >= maxCalls || call.Ellipsis.IsValid() {
		return val{}, false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return val{}, false
	}
	fn, ok := ev.info.Uses[id].(*types.Func)
	if !ok {
		return val{}, false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() != nil || sig.Variadic() || sig.TypeParams().Len() > 0 || sig.Params().Len() != len(call.Args) {
		return val{}, false
	}
	decl := ev.decl(fn)
	if decl == nil || decl.Recv != nil || decl.Body == nil || decl.Type.Params == nil {
		return val{}, false
	}
	counts := map[*types.Var]bool{}
	env := map[*types.Var]val{}
	i := 0
	for _, field := range decl.Type.Params.List {
		n := max(len(field.Names), 1)
		for k := 0; k < n; k, i = k+1, i+1 {
			if i >= len(call.Args) {
				return val{}, false
			}
			if len(field.Names) == 0 {
				continue
			}
			v, ok := ev.info.Defs[field.Names[k]].(*types.Var)
			if !ok {
				continue
			}
			arg := ast.Unparen(call.Args[i])
			if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
				arg = u.X
			}
			if ev.isCounts(arg) {
				counts[v] = true
				continue
			}
			if a, ok := ev.expr(call.Args[i]); ok {
				env[v] = a
			}
		}
	}
	if i != len(call.Args) {
		return val{}, false
	}
	saveCounts, saveEnv := ev.counts, ev.env
	ev.counts, ev.env = counts, env
	ev.depth++
	r, ok := ev.body(decl.Body)
	ev.depth--
	ev.counts, ev.env = saveCounts, saveEnv
	if !ok || sig.Results().Len() != 1 {
		return val{}, false
	}
	return convert(r, sig.Results().At(0).Type())
}

// convert converts a value to a basic type: integers truncate.
func convert(v val, t types.Type) (val, bool) {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return val{}, false
	}
	switch {
	case v.kind == kBool && b.Info()&types.IsBoolean != 0:
		return v, true
	case v.kind != kNum:
		return val{}, false
	case b.Info()&types.IsInteger != 0:
		v.f, v.isInt = float64(int64(v.f)), true
	case b.Info()&types.IsFloat != 0:
		v.isInt = false
	default:
		return val{}, false
	}
	return v, true
}
