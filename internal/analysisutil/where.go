package analysisutil

import (
	"go/ast"
)

// Where describes the syntactic surroundings of a node, from an inspector
// stack (outermost first, the node last).
type Where struct {
	// Decl is the outermost function declaration, or nil at package level.
	Decl *ast.FuncDecl
	// Func is the innermost function (declaration or literal); Body its body.
	Func ast.Node
	Body *ast.BlockStmt
	// Stmt is the innermost statement that sits directly in a statement
	// list (a block or a case clause): the place where statements can be
	// inserted before the node. Block is the block, nil for a case clause.
	Stmt  ast.Stmt
	Block *ast.BlockStmt
	// InLoop: a for or range loop of the innermost function encloses Stmt.
	InLoop bool
	// Go: the node is the call of a go statement or inside its arguments.
	Go bool
}

// WhereOf reads the surroundings of the last node of stack.
func WhereOf(stack []ast.Node) Where {
	var w Where
	for i, n := range stack {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if w.Decl == nil {
				w.Decl = n
			}
			w.Func, w.Body, w.InLoop, w.Stmt, w.Block = n, n.Body, false, nil, nil
		case *ast.FuncLit:
			w.Func, w.Body, w.InLoop, w.Stmt, w.Block = n, n.Body, false, nil, nil
		case *ast.ForStmt, *ast.RangeStmt:
			w.InLoop = true
		case *ast.BlockStmt:
			if i+1 < len(stack) {
				if s, ok := stack[i+1].(ast.Stmt); ok && inList(n.List, s) {
					w.Block, w.Stmt = n, s
				}
			}
		case *ast.CaseClause:
			if i+1 < len(stack) {
				if s, ok := stack[i+1].(ast.Stmt); ok && inList(n.Body, s) {
					w.Block, w.Stmt = nil, s
				}
			}
		case *ast.CommClause:
			if i+1 < len(stack) {
				if s, ok := stack[i+1].(ast.Stmt); ok && inList(n.Body, s) {
					w.Block, w.Stmt = nil, s
				}
			}
		case *ast.GoStmt:
			w.Go = true
		}
	}
	return w
}

func inList(list []ast.Stmt, s ast.Stmt) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
