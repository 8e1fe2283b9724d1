package analysisutil

import (
	"go/ast"
	"go/token"
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
	// InLoop: a for or range loop of the innermost function encloses Stmt,
	// or a goto of it jumps back over the node.
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
	if !w.InLoop && w.Body != nil && len(stack) > 0 && backwardGoto(w.Body, stack[len(stack)-1]) {
		w.InLoop = true
	}
	return w
}

// backwardGoto reports whether a goto of body jumps back over n: its label
// is at or before n and the goto after it, so that n runs again, as in a
// loop. (Labels are the function's own: literals are not looked in.)
func backwardGoto(body *ast.BlockStmt, n ast.Node) bool {
	labels := map[string]ast.Node{}
	var gotos []*ast.BranchStmt
	ast.Inspect(body, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.FuncLit:
			return false
		case *ast.LabeledStmt:
			labels[m.Label.Name] = m
		case *ast.BranchStmt:
			if m.Tok == token.GOTO && m.Label != nil {
				gotos = append(gotos, m)
			}
		}
		return true
	})
	for _, g := range gotos {
		if l, ok := labels[g.Label.Name]; ok && l.Pos() <= n.Pos() && g.Pos() >= n.End() {
			return true
		}
	}
	return false
}

func inList(list []ast.Stmt, s ast.Stmt) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
