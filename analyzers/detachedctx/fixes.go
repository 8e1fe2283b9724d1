package detachedctx

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
	"github.com/resilint/resilint/passes/ctxflow"
)

// replaceRoot replaces a Background()/TODO() call with the caller's
// context, when the call is written where the caller's context is
// visible and is still the caller's budget (not in a deferred call, a
// callback that may run later, or a branch that runs because a context is
// done: analysisutil.CtxUsable), when call (the outbound or forwarding
// call the root reaches, nil for a derivation) keeps no value that lives
// on the context beyond the caller's request (rows or a transaction stored
// in a field), and when the file still uses the context package without
// the replaced call.
func (c *checker) replaceRoot(root *ast.CallExpr, caller *ctxflow.Caller, call *ast.CallExpr) []analysis.SuggestedFix {
	if root == nil {
		return nil
	}
	fn, _ := c.m.Callee(root)
	if fn == nil {
		return nil
	}
	if row, ok := c.table.Contexts[analysisutil.Key(fn)]; !ok || row.Effect != knowledge.Root {
		return nil
	}
	expr := caller.Expr(c.pass.Pkg, root.Pos())
	if expr == "" || !c.inside(root, caller.Func) {
		return nil
	}
	info := c.pass.TypesInfo
	if !analysisutil.CtxUsable(info, c.table, c.stack, caller.Func) {
		return nil
	}
	if call != nil {
		w := analysisutil.WhereOf(c.stack)
		if analysisutil.KeptLive(info, c.table, c.pass.Pkg, call, c.stack, w.Func, true) {
			return nil
		}
	}
	if c.async {
		// Tying a goroutine's work to a context that ends when the caller
		// returns could cut it short: keep the values, drop the cancellation.
		sel, ok := ast.Unparen(root.Fun).(*ast.SelectorExpr)
		if !ok || !analysisutil.AtLeastGo(c.pass, root.Pos(), "go1.21") {
			return nil
		}
		expr = fmt.Sprintf("%s.WithoutCancel(%s)", types.ExprString(sel.X), expr)
	} else if !c.keepsImport(root) {
		return nil
	}
	return []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("Use %s instead of %s", expr, c.rootName(root)),
		TextEdits: []analysis.TextEdit{{Pos: root.Pos(), End: root.End(), NewText: []byte(expr)}},
	}}
}

// keepsImport reports whether the file uses the root's package elsewhere
// than in calls a fix may replace (Background() and TODO() calls), so that
// replacing root cannot leave the import unused, whichever of the file's
// fixes are applied.
func (c *checker) keepsImport(root *ast.CallExpr) bool {
	info := c.pass.TypesInfo
	sel, ok := ast.Unparen(root.Fun).(*ast.SelectorExpr)
	if !ok {
		return true // a dot import or a local function: no import at stake
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return true
	}
	pn, ok := info.Uses[id].(*types.PkgName)
	if !ok {
		return true
	}
	file := analysisutil.FileOf(c.pass, root.Pos())
	if file == nil {
		return false
	}
	stable := 0
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if s, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				if x, ok := ast.Unparen(s.X).(*ast.Ident); ok && info.Uses[x] == pn {
					if f, _ := c.m.Callee(n); f != nil {
						if row, ok := c.table.Contexts[analysisutil.Key(f)]; ok && row.Effect == knowledge.Root && len(n.Args) == 0 {
							return false // a root a fix may replace
						}
					}
				}
			}
		case *ast.Ident:
			if info.Uses[n] == pn {
				stable++
			}
		}
		return true
	})
	return stable > 0
}

func (c *checker) inside(n ast.Node, fn ast.Node) bool {
	return fn != nil && fn.Pos() <= n.Pos() && n.End() <= fn.End()
}
