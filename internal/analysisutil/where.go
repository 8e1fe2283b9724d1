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
	// InLoop: a for or range loop of the innermost function encloses Stmt
	// (a goto loop: Gotos).
	InLoop bool
	// Go: the node is the call of a go statement or inside its arguments.
	Go   bool
	list ast.Node // the block or clause whose list holds Stmt
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
			w.Func, w.Body, w.InLoop, w.Stmt, w.Block, w.list = n, n.Body, false, nil, nil, nil
		case *ast.FuncLit:
			w.Func, w.Body, w.InLoop, w.Stmt, w.Block, w.list = n, n.Body, false, nil, nil, nil
		case *ast.ForStmt, *ast.RangeStmt:
			w.InLoop = true
		case *ast.BlockStmt:
			if i+1 < len(stack) {
				if s, ok := stack[i+1].(ast.Stmt); ok && inList(n.List, s) {
					w.Block, w.Stmt, w.list = n, s, n
				}
			}
		case *ast.CaseClause:
			if i+1 < len(stack) {
				if s, ok := stack[i+1].(ast.Stmt); ok && inList(n.Body, s) {
					w.Block, w.Stmt, w.list = nil, s, n
				}
			}
		case *ast.CommClause:
			if i+1 < len(stack) {
				if s, ok := stack[i+1].(ast.Stmt); ok && inList(n.Body, s) {
					w.Block, w.Stmt, w.list = nil, s, n
				}
			}
		case *ast.GoStmt:
			w.Go = true
		}
	}
	return w
}

// Gotos reads the gotos of the innermost function around n, the node w
// was read for: back, one jumps back over n, so that n runs again as in a
// loop; over, one before Stmt jumps to a label after it in the same
// statement list (or within it), so that a declaration inserted before
// Stmt would be jumped over, which does not compile. (It walks the body:
// asked only where a fix is about to insert.)
func (w Where) Gotos(n ast.Node) (back, over bool) {
	if w.Body == nil {
		return false, false
	}
	gotos, labels := jumps(w.Body)
	for _, g := range gotos {
		l, ok := labels[g.Label.Name]
		if !ok {
			continue
		}
		if l.Pos() <= n.Pos() && g.Pos() >= n.End() {
			back = true
		}
		if w.Stmt != nil && w.list != nil && g.Pos() < w.Stmt.Pos() && l.Pos() > w.Stmt.Pos() && l.Pos() < w.list.End() {
			over = true
		}
	}
	return back, over
}

// jumps returns the gotos and the labelled statements of body, the
// function's own (literals are not looked in).
func jumps(body *ast.BlockStmt) ([]*ast.BranchStmt, map[string]ast.Node) {
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
	return gotos, labels
}

func inList(list []ast.Stmt, s ast.Stmt) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// StmtList returns the statement list of a block or a case or comm
// clause, or nil for any other node.
func StmtList(n ast.Node) []ast.Stmt {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List
	case *ast.CaseClause:
		return n.Body
	case *ast.CommClause:
		return n.Body
	}
	return nil
}
