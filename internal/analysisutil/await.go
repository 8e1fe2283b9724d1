package analysisutil

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/knowledge"
)

// Awaited reports whether the function fn waits, after the go statement g,
// for the goroutine it starts: it calls a Waits row on a variable the
// goroutine also uses (wg.Wait() with defer wg.Done()), or receives from a
// channel the goroutine sends on or closes. callee resolves a call (nil:
// Callee without local definitions).
func Awaited(info *types.Info, table *knowledge.Table, g *ast.GoStmt, fn ast.Node, callee func(*ast.CallExpr) (*types.Func, ast.Expr)) bool {
	if callee == nil {
		callee = func(call *ast.CallExpr) (*types.Func, ast.Expr) { return Callee(info, call, nil) }
	}
	used := map[*types.Var]bool{}
	ast.Inspect(g.Call, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok {
				used[v] = true
			}
		}
		return true
	})
	varOf := func(e ast.Expr) *types.Var {
		for {
			switch x := ast.Unparen(e).(type) {
			case *ast.Ident:
				v, _ := info.Uses[x].(*types.Var)
				return v
			case *ast.SelectorExpr:
				if f := FieldOf(info, x); f != nil {
					return f
				}
				return nil
			case *ast.UnaryExpr:
				e = x.X
			default:
				return nil
			}
		}
	}
	body := funcBody(fn)
	if body == nil {
		return false
	}
	// Fields the goroutine uses (s.wg.Done()) count through their field.
	ast.Inspect(g.Call, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if f := FieldOf(info, sel); f != nil {
				used[f] = true
			}
		}
		return true
	})
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if n.Pos() < g.End() {
			return n.End() > g.End() // only what comes after the go statement
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			fn, recv := callee(n)
			if fn != nil && recv != nil && table.Bounds.Waits[Key(fn)] {
				if v := varOf(recv); v != nil && used[v] {
					found = true
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				if v := varOf(n.X); v != nil && used[v] {
					found = true
				}
			}
		case *ast.RangeStmt:
			if v := varOf(n.X); v != nil && used[v] {
				if _, isChan := info.TypeOf(n.X).Underlying().(*types.Chan); isChan {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// GoOf returns the go statement that starts lit (go func() { ... }()),
// given lit's ancestors, or nil.
func GoOf(lit *ast.FuncLit, stack []ast.Node) *ast.GoStmt {
	if len(stack) < 2 {
		return nil
	}
	call, ok := stack[len(stack)-1].(*ast.CallExpr)
	if !ok || call.Fun != ast.Expr(lit) {
		return nil
	}
	g, ok := stack[len(stack)-2].(*ast.GoStmt)
	if !ok || g.Call != call {
		return nil
	}
	return g
}

// EnclosingFunc returns the innermost function declaration or literal of
// stack, or nil.
func EnclosingFunc(stack []ast.Node) ast.Node {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return stack[i]
		}
	}
	return nil
}
