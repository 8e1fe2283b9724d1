package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/internal/analysisutil"
)

// isStatusExpr reports whether e reads an HTTP status: a status field, a
// method returning one, a variable holding one.
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
		if len(e.Args) == 0 {
			if fn, _ := m.callee(e); fn != nil && m.rt.StatusMethods[analysisutil.Key(fn)] {
				return true
			}
			return m.callReturnsStatus(e, 0, 0)
		}
	}
	return false
}

// isStatus reports whether a selector reads a field that holds an HTTP
// status (statusField).
func (m *model) isStatus(sel *ast.SelectorExpr) bool {
	s, ok := m.info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal || !isInteger(s.Obj().Type()) {
		return false
	}
	fv, _ := s.Obj().(*types.Var)
	return fv != nil && m.statusField(fv, fieldKey(s))
}

// statusField reports whether an integer field holds an HTTP status: a row
// of the knowledge table (net/http.Response.StatusCode), a field the
// package gives a status (&APIError{Code: resp.StatusCode}, e.Status =
// resp.StatusCode), a field the package compares with a status constant of
// net/http (apiErr.Code == http.StatusNotFound), or a field of an error
// type the package compares with an integer between 100 and 599
// (httpErr.StatusCode >= 500). Its name does not matter.
func (m *model) statusField(fv *types.Var, key string) bool {
	if m.rt.StatusFields[key] {
		return true
	}
	if r, ok := m.statusFields[fv]; ok {
		return r
	}
	m.statusFields[fv] = false // cycles
	r := false
	if fv.Pkg() == m.pass.Pkg {
		for _, v := range m.literalValues(fv) {
			if v != nil && m.statusValue(v, 1) {
				r = true
			}
		}
		for _, d := range m.x.fields[fv] {
			if d.rhs != nil && d.op == token.ASSIGN && m.statusValue(d.rhs, 1) {
				r = true
			}
		}
	}
	if !r {
		c := m.fieldCompares()[fv]
		r = c.named || c.ranged && m.errField[fv]
	}
	m.statusFields[fv] = r
	return r
}

// compares is how the package compares a field with constants.
type compares struct {
	named  bool // with a Status* constant of net/http
	ranged bool // with an integer constant between 100 and 599
}

// fieldCompares indexes, once per package, the integer fields compared with
// HTTP status constants (in a comparison or a switch case), and notes which
// are fields of error types.
func (m *model) fieldCompares() map[*types.Var]compares {
	if m.fieldCmp != nil {
		return m.fieldCmp
	}
	m.fieldCmp = map[*types.Var]compares{}
	m.errField = map[*types.Var]bool{}
	note := func(x, k ast.Expr) {
		sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
		if !ok {
			return
		}
		s, ok := m.info.Selections[sel]
		if !ok || s.Kind() != types.FieldVal || !isInteger(s.Obj().Type()) {
			return
		}
		fv, _ := s.Obj().(*types.Var)
		n, isConst := m.constInt(k)
		if fv == nil || !isConst {
			return
		}
		c := m.fieldCmp[fv]
		if m.httpConst(k) {
			c.named = true
		}
		if n >= 100 && n <= 599 {
			c.ranged = true
		}
		m.fieldCmp[fv] = c
		if isErrorType(s.Recv()) {
			m.errField[fv] = true
		}
	}
	ins := m.pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	ins.Preorder([]ast.Node{(*ast.BinaryExpr)(nil), (*ast.SwitchStmt)(nil)}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			switch n.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				note(n.X, n.Y)
				note(n.Y, n.X)
			}
		case *ast.SwitchStmt:
			if n.Tag == nil {
				return
			}
			for _, c := range n.Body.List {
				if cc, ok := c.(*ast.CaseClause); ok {
					for _, e := range cc.List {
						note(n.Tag, e)
					}
				}
			}
		}
	})
	return m.fieldCmp
}

// httpConst reports whether e names a status constant of the HTTP package
// (http.StatusNotFound).
func (m *model) httpConst(e ast.Expr) bool {
	c, ok := analysisutil.Referent(m.info, e).(*types.Const)
	return ok && c.Pkg() != nil && c.Pkg().Path() == m.rt.StatusPkg
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
// error type with a field that holds an HTTP status.
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
		if f := st.Field(i); isInteger(f.Type()) && m.statusField(f, analysisutil.TypeKey(t)+"."+f.Name()) {
			return true
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

// isStatusIdent reports whether an identifier is an integer variable that
// holds an HTTP status: every definition of it is one (code :=
// resp.StatusCode; status, err := c.post(ctx, body) where post returns
// resp.StatusCode; code := v.(int) of a wrapper's result whose operation
// returns one). Its name does not matter.
func (m *model) isStatusIdent(id *ast.Ident) bool {
	v, ok := m.info.Uses[id].(*types.Var)
	if !ok || !isInteger(v.Type()) || m.isCodeType(v.Type()) || v.IsField() {
		return false
	}
	return m.statusVar(v, 0)
}

// statusVar reports whether every definition of a variable gives it an
// HTTP status.
func (m *model) statusVar(v *types.Var, depth int) bool {
	if depth > 6 || m.x.addrTaken[v] {
		return false
	}
	if r, ok := m.statusMemo[v]; ok {
		return r
	}
	m.statusMemo[v] = false // cycles: not unless shown
	ds := m.x.defs[v]
	r := len(ds) > 0
	for _, d := range ds {
		if d.rhs == nil || d.rng != nil || d.op != token.DEFINE && d.op != token.ASSIGN {
			r = false
			break
		}
		if d.index >= 0 {
			c, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
			if !ok || !m.callReturnsStatus(c, d.index, depth+1) {
				r = false
				break
			}
			continue
		}
		if !m.statusValue(d.rhs, depth+1) {
			r = false
			break
		}
	}
	m.statusMemo[v] = r
	return r
}

// statusValue reports whether an expression is an HTTP status: a status
// field, a variable holding one, a type assertion or conversion of one.
func (m *model) statusValue(e ast.Expr, depth int) bool {
	if depth > 8 {
		return false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		return m.isStatus(x)
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		return ok && !v.IsField() && m.statusVar(v, depth+1)
	case *ast.TypeAssertExpr:
		return m.statusValue(x.X, depth+1)
	case *ast.CallExpr:
		if tv, ok := m.info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
			return m.statusValue(x.Args[0], depth+1)
		}
		return m.callReturnsStatus(x, 0, depth+1)
	}
	return false
}

// callReturnsStatus reports whether result i of a call is an HTTP status:
// the called function of the package returns one there on some path and
// a constant on the others, or a function literal handed to the call does
// (a breaker's or a retry helper's Execute passing its operation's result
// on).
func (m *model) callReturnsStatus(call *ast.CallExpr, i, depth int) bool {
	if fn, _ := m.callee(call); fn != nil {
		if d := m.x.decls[fn.Origin()]; d != nil && d.Body != nil && fn.Pkg() == m.pass.Pkg {
			return m.returnsStatus(d.Body, i, depth)
		}
	}
	for _, a := range call.Args {
		if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok && m.returnsStatus(lit.Body, i, depth) {
			return true
		}
	}
	return false
}

// returnsStatus reports whether a function body returns an HTTP status as
// result i on some path and only constants there on the others.
func (m *model) returnsStatus(body *ast.BlockStmt, i, depth int) bool {
	status, other := false, false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if i >= len(n.Results) {
				other = true
				return false
			}
			r := n.Results[i]
			switch {
			case m.statusValue(r, depth+1):
				status = true
			case m.info.Types[r].Value != nil || analysisutil.IsNil(m.info, r):
			default:
				other = true
			}
		}
		return !other
	})
	return status && !other
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

// errStatusCompare reports whether a comparison reads a status field of an
// error value against an HTTP status constant (100-599).
func (m *model) errStatusCompare(be *ast.BinaryExpr) bool {
	switch be.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		return false
	}
	for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
		sel, ok := ast.Unparen(pair[0]).(*ast.SelectorExpr)
		if !ok || !m.isStatus(sel) || !m.errCarried(sel) {
			continue
		}
		if n, ok := m.constInt(pair[1]); ok && n >= 100 && n <= 599 {
			return true
		}
	}
	return false
}
