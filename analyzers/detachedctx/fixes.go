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
// in a field). A fix that removes the file's last use of the context
// package deletes its import (see flush).
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
	if !c.m.Intact(caller, root.Pos()) || !analysisutil.CtxUsable(info, c.table, c.stack, caller.Func, c.m.Decl) {
		return nil
	}
	if call != nil {
		w := analysisutil.WhereOf(c.stack)
		if analysisutil.KeptLive(info, c.table, c.pass.Pkg, call, c.stack, w.Func, true) {
			return nil
		}
	}
	if c.roots == nil {
		c.roots = map[*ast.CallExpr]rootFix{}
	}
	c.roots[root] = rootFix{}
	return []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("Use %s instead of %s", expr, c.rootName(root)),
		TextEdits: []analysis.TextEdit{{Pos: root.Pos(), End: root.End(), NewText: []byte(expr)}},
	}}
}

// A rootFix is a Background() or TODO() call a fix of this pass replaces
// with the caller's context.
type rootFix struct{}

func (c *checker) report(d analysis.Diagnostic) { c.pending = append(c.pending, d) }

// flush reports the findings once every fix of the package is known. In
// a file whose only uses of the context package are Background() and
// TODO() calls, replacing them all with the caller's context leaves the
// import unused: then each of those fixes also deletes the import (one
// edit, applied once). When some of them stay (not fixed, or bounded by a
// timeout fix, which keeps its root), the import stays used.
func (c *checker) flush() {
	deletes := map[*ast.File][]analysis.TextEdit{}
	decided := map[*ast.File]bool{}
	for i := range c.pending {
		d := &c.pending[i]
		if len(d.SuggestedFixes) == 0 {
			continue
		}
		e := d.SuggestedFixes[0].TextEdits[0]
		file := analysisutil.FileOf(c.pass, e.Pos)
		if file == nil {
			continue
		}
		if !decided[file] {
			decided[file] = true
			deletes[file] = c.importDeletion(file)
		}
		if del := deletes[file]; len(del) > 0 {
			d.SuggestedFixes[0].TextEdits = analysisutil.SortEdits(append(d.SuggestedFixes[0].TextEdits, del...))
		}
	}
	for _, d := range c.pending {
		c.rep.Report(d)
	}
	c.pending, c.roots = nil, nil
}

// importDeletion returns the edit deleting file's import of the context
// package when this pass's fixes replace every use of it, else nil.
func (c *checker) importDeletion(file *ast.File) []analysis.TextEdit {
	info := c.pass.TypesInfo
	var pkgs []*types.PkgName
	for _, imp := range file.Imports {
		if pn := info.PkgNameOf(imp); pn != nil && pn.Imported().Path() == "context" {
			pkgs = append(pkgs, pn)
		}
	}
	if len(pkgs) != 1 {
		return nil
	}
	pn := pkgs[0]
	replaced := map[*ast.Ident]bool{}
	for root := range c.roots {
		if analysisutil.FileOf(c.pass, root.Pos()) != file {
			continue
		}
		if sel, ok := ast.Unparen(root.Fun).(*ast.SelectorExpr); ok {
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
				replaced[id] = true
			}
		}
	}
	all := true
	ast.Inspect(file, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == pn && !replaced[id] {
			all = false
		}
		return all
	})
	if !all {
		return nil
	}
	return analysisutil.DeleteImport(c.pass.Fset, file, "context")
}

func (c *checker) inside(n ast.Node, fn ast.Node) bool {
	return fn != nil && fn.Pos() <= n.Pos() && n.End() <= fn.End()
}
