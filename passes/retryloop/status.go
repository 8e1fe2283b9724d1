package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"

	"github.com/resilint/resilint/internal/analysisutil"
)

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
