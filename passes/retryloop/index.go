package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/internal/analysisutil"
)

// vdef is one definition of a variable.
type vdef struct {
	// rhs is the right-hand side; for a multi-valued call, index is the
	// result index (else -1). rhs is nil for a range variable (then rng is
	// the range statement) and for declarations without a value.
	rhs   ast.Expr
	index int
	rng   *ast.RangeStmt
	// op is the assignment token: token.DEFINE, token.ASSIGN, an operator
	// assignment (token.MUL_ASSIGN), or token.INC/token.DEC.
	op   token.Token
	pos  token.Pos
	stmt ast.Node
}

// fdef is an assignment to a field: root.F = rhs (or root.F *= rhs, root.F++).
type fdef struct {
	root *types.Var // the variable at the root of the selector, or nil
	rhs  ast.Expr
	op   token.Token
	pos  token.Pos
	// lhs and stmt are the selector assigned and the assignment, for an
	// assignment statement.
	lhs  ast.Expr
	stmt *ast.AssignStmt
}

// index holds the package's definitions, read once.
type index struct {
	info      *types.Info
	defs      map[*types.Var][]vdef
	fields    map[*types.Var][]fdef // keyed by the field
	addrTaken map[*types.Var]bool
	decls     map[*types.Func]*ast.FuncDecl
	// methodCalls are the method calls on a variable that are statements of
	// their own, by variable (r.SetJitter(0.2), t.Reset(d)).
	methodCalls map[*types.Var][]*ast.CallExpr
	// assigned maps a value to the variable it is the only definition of.
	assigned map[ast.Expr]*types.Var
	// elemWritten: maps whose elements are assigned (m[k] = v) or deleted
	// somewhere in the package.
	elemWritten map[*types.Var]bool
}

func newIndex(info *types.Info, ins *inspector.Inspector) *index {
	x := &index{
		info:        info,
		defs:        map[*types.Var][]vdef{},
		fields:      map[*types.Var][]fdef{},
		addrTaken:   map[*types.Var]bool{},
		decls:       map[*types.Func]*ast.FuncDecl{},
		methodCalls: map[*types.Var][]*ast.CallExpr{},
		assigned:    map[ast.Expr]*types.Var{},
		elemWritten: map[*types.Var]bool{},
	}
	filter := []ast.Node{(*ast.FuncDecl)(nil), (*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.RangeStmt)(nil),
		(*ast.IncDecStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.ExprStmt)(nil)}
	ins.Preorder(filter, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if fn, ok := info.Defs[n.Name].(*types.Func); ok {
				x.decls[fn] = n
			}
		case *ast.AssignStmt:
			x.assign(n)
		case *ast.ValueSpec:
			for i, name := range n.Names {
				v, ok := info.Defs[name].(*types.Var)
				if !ok {
					continue
				}
				d := vdef{index: -1, op: token.DEFINE, pos: name.Pos(), stmt: n}
				switch {
				case len(n.Values) == len(n.Names):
					d.rhs = n.Values[i]
				case len(n.Values) == 1:
					d.rhs, d.index = n.Values[0], i
				}
				x.defs[v] = append(x.defs[v], d)
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if v := x.varOf(e); v != nil {
					x.defs[v] = append(x.defs[v], vdef{index: -1, rng: n, op: n.Tok, pos: e.Pos(), stmt: n})
				}
			}
		case *ast.IncDecStmt:
			if v := x.varOf(n.X); v != nil {
				x.defs[v] = append(x.defs[v], vdef{index: -1, op: n.Tok, pos: n.Pos(), stmt: n})
			} else if fv, root := x.fieldOf(n.X); fv != nil {
				x.fields[fv] = append(x.fields[fv], fdef{root: root, op: n.Tok, pos: n.Pos()})
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if v := x.varOf(n.X); v != nil {
					x.addrTaken[v] = true
				}
			}
		case *ast.ExprStmt:
			n2, ok := n.X.(*ast.CallExpr)
			if !ok {
				break
			}
			if id, ok := ast.Unparen(n2.Fun).(*ast.Ident); ok && len(n2.Args) > 0 {
				if b, ok := info.Uses[id].(*types.Builtin); ok && (b.Name() == "delete" || b.Name() == "clear") {
					if v := x.varOf(n2.Args[0]); v != nil {
						x.elemWritten[v] = true
					}
				}
			}
			if sel, ok := ast.Unparen(n2.Fun).(*ast.SelectorExpr); ok {
				if s, ok := info.Selections[sel]; ok && s.Kind() == types.MethodVal {
					if v := x.varOf(sel.X); v != nil {
						x.methodCalls[v] = append(x.methodCalls[v], n2)
					}
				}
			}
		}
	})
	for v, ds := range x.defs {
		if len(ds) == 1 && ds[0].rhs != nil && ds[0].index < 0 {
			x.assigned[ast.Unparen(ds[0].rhs)] = v
		}
	}
	return x
}

func (x *index) assign(n *ast.AssignStmt) {
	for _, lhs := range n.Lhs {
		if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok {
			if v := x.varOf(ix.X); v != nil {
				x.elemWritten[v] = true
			}
		}
	}
	for i, lhs := range n.Lhs {
		d := vdef{index: -1, op: n.Tok, pos: lhs.Pos(), stmt: n}
		switch {
		case len(n.Lhs) == len(n.Rhs):
			d.rhs = n.Rhs[i]
		case len(n.Rhs) == 1:
			d.rhs, d.index = n.Rhs[0], i
		}
		if v := x.varOf(lhs); v != nil {
			x.defs[v] = append(x.defs[v], d)
			continue
		}
		if fv, root := x.fieldOf(lhs); fv != nil {
			x.fields[fv] = append(x.fields[fv], fdef{root: root, rhs: d.rhs, op: n.Tok, pos: lhs.Pos(), lhs: lhs, stmt: n})
		}
	}
}

func (x *index) varOf(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	if v, ok := x.info.Defs[id].(*types.Var); ok {
		return v
	}
	if v, ok := x.info.Uses[id].(*types.Var); ok {
		return v
	}
	return nil
}

// fieldOf returns the field a selector expression denotes and the variable
// at its root (c.cfg.delay → delay, c).
func (x *index) fieldOf(e ast.Expr) (*types.Var, *types.Var) {
	fv := analysisutil.FieldOf(x.info, e)
	if fv == nil {
		return nil, nil
	}
	return fv, x.rootVar(ast.Unparen(e).(*ast.SelectorExpr).X)
}

func (x *index) rootVar(e ast.Expr) *types.Var {
	for {
		switch y := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x.varOf(y)
		case *ast.SelectorExpr:
			if s, ok := x.info.Selections[y]; ok && s.Kind() == types.FieldVal {
				e = y.X
				continue
			}
			return nil
		case *ast.StarExpr:
			e = y.X
		case *ast.IndexExpr:
			e = y.X
		default:
			return nil
		}
	}
}

// within reports whether pos lies in n.
func within(pos token.Pos, n ast.Node) bool {
	return n != nil && n.Pos() <= pos && pos < n.End()
}
