package analysisutil

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Terminates reports whether a block ends in a terminating statement, as
// the Go specification defines it: a function whose body does needs no
// final return, and one added after it would be unreachable (go vet). A
// call of panic terminates only when it is the builtin (info resolves it):
// a package's own function named panic does not.
func Terminates(info *types.Info, b *ast.BlockStmt) bool {
	return b != nil && listTerminates(info, b.List)
}

func listTerminates(info *types.Info, list []ast.Stmt) bool {
	for i := len(list) - 1; i >= 0; i-- {
		if _, empty := list[i].(*ast.EmptyStmt); empty {
			continue
		}
		return terminates(info, list[i], "")
	}
	return false
}

func terminates(info *types.Info, s ast.Stmt, label string) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok == token.GOTO || s.Tok == token.FALLTHROUGH
	case *ast.ExprStmt:
		return BuiltinCall(info, s.X, "panic") != nil
	case *ast.BlockStmt:
		return listTerminates(info, s.List)
	case *ast.IfStmt:
		if s.Else == nil {
			return false
		}
		return listTerminates(info, s.Body.List) && terminates(info, s.Else, "")
	case *ast.LabeledStmt:
		return terminates(info, s.Stmt, s.Label.Name)
	case *ast.ForStmt:
		return s.Cond == nil && !breaks(s.Body, label)
	case *ast.SwitchStmt:
		return clausesTerminate(info, s.Body, label, true)
	case *ast.TypeSwitchStmt:
		return clausesTerminate(info, s.Body, label, true)
	case *ast.SelectStmt:
		return clausesTerminate(info, s.Body, label, false)
	}
	return false
}

// clausesTerminate: a switch with a default case (any select) whose every
// clause ends in a terminating statement and that no break leaves.
func clausesTerminate(info *types.Info, body *ast.BlockStmt, label string, needDefault bool) bool {
	hasDefault := false
	for _, cl := range body.List {
		var list []ast.Stmt
		switch cl := cl.(type) {
		case *ast.CaseClause:
			list = cl.Body
			if cl.List == nil {
				hasDefault = true
			}
		case *ast.CommClause:
			list = cl.Body
		}
		if !listTerminates(info, list) {
			return false
		}
		for _, st := range list {
			if breaks(st, label) {
				return false
			}
		}
	}
	return hasDefault || !needDefault
}

// breaks reports whether n contains a break that refers to the enclosing
// statement being checked: an unlabelled break not inside a nested for,
// switch or select, or a break with its label.
func breaks(n ast.Node, label string) bool {
	found := false
	var visit func(n ast.Node, nested bool) bool
	visit = func(n ast.Node, nested bool) bool {
		if found || n == nil {
			return false
		}
		switch s := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			if s.Tok == token.BREAK && ((s.Label == nil && !nested) || (s.Label != nil && label != "" && s.Label.Name == label)) {
				found = true
			}
			return false
		case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			ast.Inspect(s, func(m ast.Node) bool {
				if m == s {
					return true
				}
				return visit(m, true)
			})
			return false
		}
		return true
	}
	ast.Inspect(n, func(m ast.Node) bool { return visit(m, false) })
	return found
}

// FirstResults returns the first result of every return statement of body
// outside function literals, leaving out those of `return nil, err` (no
// value given); ok is false when a return names no results (a function
// with named results), whose values are out of this reader's sight.
func FirstResults(info *types.Info, body *ast.BlockStmt) (results []ast.Expr, ok bool) {
	ok = true
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			switch {
			case len(n.Results) == 0:
				ok = false
			case len(n.Results) > 1 && info.Types[n.Results[0]].IsNil():
			default:
				results = append(results, n.Results[0])
			}
		}
		return true
	})
	return results, ok
}

// Returns reports whether n holds a return statement outside the function
// literals in it: a statement that may return, a body that may return
// early.
func Returns(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		}
		return !found
	})
	return found
}
