package ctxflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/internal/analysisutil"
)

// def is one definition of a variable: the right-hand side and, when the
// right-hand side is a multi-valued call, the index of the result.
type def struct {
	rhs   ast.Expr
	index int
	zero  bool // declared without a value
	// rangeOver is the ranged expression when the variable is the value of
	// a range statement (for _, v := range X).
	rangeOver ast.Expr
}

// fieldSet is an assignment to a field path of a variable: v.A.B = rhs.
type fieldSet struct {
	path string
	rhs  ast.Expr
}

// Index records the package's variables, parameters and function
// declarations, which Defs, DefsOf, IsParam, Decl and Callee read. The pass
// does it for relevant packages; elsewhere the first method that reads the
// index builds it (analyzers sharing the model run concurrently: every
// reader goes through this once, so none sees a half-built index and every
// one sees the same). It runs once per package.
func (m *Model) Index() { m.indexed.Do(func() { m.index(m.ins) }) }

// Defs returns the recorded definitions of v (nil entries for definitions
// that are not plain expressions).
func (m *Model) Defs(v *types.Var) []ast.Expr {
	m.Index()
	var out []ast.Expr
	for _, d := range m.defs[v] {
		if d.index >= 0 {
			out = append(out, nil)
			continue
		}
		out = append(out, d.rhs)
	}
	return out
}

// A Def is one definition of a variable: its right-hand side and, when that
// is a multi-valued call, the index of the variable's result (-1 for a
// plain expression). Rhs is nil for definitions that are not an assignment
// of a value (range variables, v++, v += x); Zero marks a declaration
// without a value.
type Def struct {
	Rhs   ast.Expr
	Index int
	Zero  bool
}

// DefsOf returns every recorded definition of v, for variables whose
// definitions are all visible ([Model.Visible]).
func (m *Model) DefsOf(v *types.Var) []Def {
	m.Index()
	out := make([]Def, len(m.defs[v]))
	for i, d := range m.defs[v] {
		out[i] = Def{Rhs: d.rhs, Index: d.index, Zero: d.zero}
	}
	return out
}

// Visible reports whether every definition of v is recorded: a variable of
// this package (local or package-level, not a field) whose address is
// never taken.
func (m *Model) Visible(v *types.Var) bool {
	m.Index()
	return m.local(v) && !m.addrTaken[v]
}

// Decl returns the declaration of a function of this package.
func (m *Model) Decl(fn *types.Func) *ast.FuncDecl {
	m.Index()
	return m.decls[fn.Origin()]
}

// IsParam reports whether v is a parameter (not a result) of a function or
// function literal, and its index.
func (m *Model) IsParam(v *types.Var) (ast.Node, int, bool) {
	m.Index()
	p, ok := m.params[v]
	if !ok || p.result {
		return nil, 0, false
	}
	return p.fn, p.index, true
}

// Assigned reports whether v is assigned after its declaration (a
// parameter reassigned in the body) or has its address taken.
func (m *Model) Assigned(v *types.Var) bool {
	m.Index()
	if m.addrTaken[v] {
		return true
	}
	if _, isParam := m.params[v]; isParam {
		return len(m.defs[v]) > 0
	}
	return len(m.defs[v]) > 1
}

// Callee resolves a call's function, following method values held in
// variables assigned once.
func (m *Model) Callee(call *ast.CallExpr) (*types.Func, ast.Expr) {
	m.Index()
	return analysisutil.Callee(m.info, call, func(v *types.Var) []ast.Expr {
		if m.addrTaken[v] || !m.local(v) {
			return nil
		}
		return m.Defs(v)
	})
}

func (m *Model) index(ins *inspector.Inspector) {
	filter := []ast.Node{
		(*ast.FuncDecl)(nil), (*ast.FuncLit)(nil), (*ast.AssignStmt)(nil),
		(*ast.ValueSpec)(nil), (*ast.RangeStmt)(nil), (*ast.IncDecStmt)(nil),
		(*ast.UnaryExpr)(nil), (*ast.CallExpr)(nil),
	}
	ins.Preorder(filter, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.CallExpr:
			// A pointer in a local variable handed to a call: the callee
			// may change what it points to (see HandedOn).
			for i, arg := range n.Args {
				if v := m.varOf(ast.Unparen(arg)); v != nil && m.local(v) {
					if _, isPtr := v.Type().Underlying().(*types.Pointer); isPtr {
						m.handed[v] = append(m.handed[v], handoff{call: n, arg: i})
					}
				}
			}
		case *ast.FuncDecl:
			if fn, ok := m.info.Defs[n.Name].(*types.Func); ok {
				m.decls[fn] = n
			}
			m.recordParams(n, n.Recv, n.Type)
		case *ast.FuncLit:
			m.recordParams(n, nil, n.Type)
		case *ast.AssignStmt:
			m.recordAssign(n)
		case *ast.ValueSpec:
			for i, name := range n.Names {
				v, ok := m.info.Defs[name].(*types.Var)
				if !ok {
					continue
				}
				switch {
				case len(n.Values) == len(n.Names):
					m.defs[v] = append(m.defs[v], def{rhs: n.Values[i], index: -1})
				case len(n.Values) == 1:
					m.defs[v] = append(m.defs[v], def{rhs: n.Values[0], index: i})
					m.recordResult(n.Values[0], i, v)
				default:
					m.defs[v] = append(m.defs[v], def{zero: true, index: -1})
				}
			}
		case *ast.RangeStmt:
			if v := m.varOf(n.Key); v != nil {
				m.defs[v] = append(m.defs[v], def{index: -1})
			}
			if v := m.varOf(n.Value); v != nil {
				m.defs[v] = append(m.defs[v], def{index: -1, rangeOver: n.X})
			}
		case *ast.IncDecStmt:
			if v := m.varOf(n.X); v != nil {
				m.defs[v] = append(m.defs[v], def{index: -1})
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if v := m.rootVar(n.X); v != nil {
					// &v or &v.f: v may change out of sight. A composite
					// literal's address (&T{...}) is not a variable.
					if _, isIdent := ast.Unparen(n.X).(*ast.Ident); isIdent {
						m.addrTaken[v] = true
					}
				}
			}
		}
	})
}

func (m *Model) recordParams(fn ast.Node, recv *ast.FieldList, ft *ast.FuncType) {
	i := 0
	add := func(fl *ast.FieldList, result bool) {
		if fl == nil {
			return
		}
		for _, f := range fl.List {
			if len(f.Names) == 0 {
				i++
				continue
			}
			for _, name := range f.Names {
				if v, ok := m.info.Defs[name].(*types.Var); ok {
					m.params[v] = paramInfo{fn: fn, index: i, result: result}
				}
				i++
			}
		}
	}
	if recv != nil {
		for _, f := range recv.List {
			for _, name := range f.Names {
				if v, ok := m.info.Defs[name].(*types.Var); ok {
					m.params[v] = paramInfo{fn: fn, index: -1}
				}
			}
		}
	}
	add(ft.Params, false)
	i = 0
	add(ft.Results, true)
}

func (m *Model) recordAssign(n *ast.AssignStmt) {
	plain := n.Tok == token.ASSIGN || n.Tok == token.DEFINE
	for i, lhs := range n.Lhs {
		lhs = ast.Unparen(lhs)
		if v := m.varOf(lhs); v != nil {
			switch {
			case !plain:
				m.defs[v] = append(m.defs[v], def{index: -1})
			case len(n.Lhs) == len(n.Rhs):
				m.defs[v] = append(m.defs[v], def{rhs: n.Rhs[i], index: -1})
			case len(n.Rhs) == 1:
				m.defs[v] = append(m.defs[v], def{rhs: n.Rhs[0], index: i})
				m.recordResult(n.Rhs[0], i, v)
			}
			continue
		}
		// v.A.B = rhs
		if sel, ok := lhs.(*ast.SelectorExpr); ok && plain && len(n.Lhs) == len(n.Rhs) {
			if root, path := m.fieldPath(sel); root != nil {
				m.fieldSets[root] = append(m.fieldSets[root], fieldSet{path: path, rhs: n.Rhs[i]})
			}
		}
	}
}

// recordResult records that result index of the call rhs is assigned to v.
func (m *Model) recordResult(rhs ast.Expr, index int, v *types.Var) {
	call, ok := ast.Unparen(rhs).(*ast.CallExpr)
	if !ok {
		return
	}
	if m.results[call] == nil {
		m.results[call] = map[int]*types.Var{}
	}
	m.results[call][index] = v
}

// fieldPath returns the variable at the root of x.A.B and the path "A.B".
func (m *Model) fieldPath(sel *ast.SelectorExpr) (*types.Var, string) {
	var parts []string
	var e ast.Expr = sel
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if s, ok := m.info.Selections[x]; ok && s.Kind() == types.FieldVal {
				parts = append([]string{x.Sel.Name}, parts...)
				e = x.X
				continue
			}
			// A qualified identifier: pkg.Var.
			if v, ok := m.info.Uses[x.Sel].(*types.Var); ok {
				return v, strings.Join(parts, ".")
			}
			return nil, ""
		case *ast.StarExpr:
			e = x.X
			continue
		case *ast.Ident:
			if v, ok := m.info.Uses[x].(*types.Var); ok {
				return v, strings.Join(parts, ".")
			}
		}
		return nil, ""
	}
}

func (m *Model) varOf(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	if v, ok := m.info.Defs[id].(*types.Var); ok {
		return v
	}
	if v, ok := m.info.Uses[id].(*types.Var); ok {
		return v
	}
	return nil
}

func (m *Model) rootVar(e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return m.varOf(x)
		case *ast.SelectorExpr:
			if s, ok := m.info.Selections[x]; ok && s.Kind() == types.FieldVal {
				e = x.X
				continue
			}
			return nil
		default:
			return nil
		}
	}
}

// local reports whether v's definitions are all visible: a variable of this
// package (local or package-level), not a field.
func (m *Model) local(v *types.Var) bool {
	return v.Pkg() == m.Pass.Pkg && !v.IsField()
}

// A handoff is a call that is given a variable's pointer as argument arg.
type handoff struct {
	call *ast.CallExpr
	arg  int
}

// HandedOn reports whether a local pointer variable is handed to a call
// that may change what it points to: a function value, an interface
// method, a function of another package or without a body here, or one of
// this package whose parameter sets a field, has its address taken or is
// handed on in turn. (c := &http.Client{}; for _, o := range opts { o(c) }:
// the options set what they like.)
func (m *Model) HandedOn(v *types.Var) bool {
	m.Index()
	return m.handedOn(v, map[*types.Var]bool{}, 0)
}

func (m *Model) handedOn(v *types.Var, seen map[*types.Var]bool, depth int) bool {
	if seen[v] {
		return false
	}
	if depth > maxDepth {
		return true
	}
	seen[v] = true
	for _, h := range m.handed[v] {
		fn, _ := m.Callee(h.call)
		if fn == nil {
			if id, ok := ast.Unparen(h.call.Fun).(*ast.Ident); ok {
				if _, builtin := m.info.Uses[id].(*types.Builtin); builtin {
					continue // len, append, ...: read, or copy the pointer
				}
			}
			return true
		}
		decl := m.decls[fn.Origin()]
		if decl == nil || decl.Body == nil {
			return true
		}
		sig := fn.Type().(*types.Signature)
		if sig.Variadic() && h.arg >= sig.Params().Len()-1 {
			return true
		}
		if h.arg >= sig.Params().Len() {
			return true
		}
		p := paramVar(m.info, decl, h.arg)
		if p == nil || len(m.fieldSets[p]) > 0 || m.addrTaken[p] || len(m.defs[p]) > 0 || m.handedOn(p, seen, depth+1) {
			return true
		}
	}
	return false
}

// paramVar returns the variable of decl's parameter i, or nil (unnamed).
func paramVar(info *types.Info, decl *ast.FuncDecl, i int) *types.Var {
	j := 0
	for _, field := range decl.Type.Params.List {
		if len(field.Names) == 0 {
			if j == i {
				return nil
			}
			j++
			continue
		}
		for _, name := range field.Names {
			if j == i {
				v, _ := info.Defs[name].(*types.Var)
				return v
			}
			j++
		}
	}
	return nil
}
