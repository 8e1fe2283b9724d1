package ctxdeadline

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
	"github.com/resilint/resilint/passes/ctxflow"
	"github.com/resilint/resilint/passes/outbound"
)

// insertCtx returns the edit that makes ctxExpr the call's first argument,
// followed by the arguments in extra.
func insertCtx(call *ast.CallExpr, ctxExpr string, extra ...string) analysis.TextEdit {
	args := append([]string{ctxExpr}, extra...)
	text := strings.Join(args, ", ")
	if len(call.Args) == 0 {
		return analysis.TextEdit{Pos: call.Rparen, End: call.Rparen, NewText: []byte(text)}
	}
	return analysis.TextEdit{Pos: call.Args[0].Pos(), End: call.Args[0].Pos(), NewText: []byte(text + ", ")}
}

// variantFix rewrites a context-less call to its Context variant with the
// caller's context: db.Query → db.QueryContext(ctx, ...), net.Dial →
// (&net.Dialer{}).DialContext(ctx, ...).
func (c *checker) variantFix(oc *outbound.Call, caller *ctxflow.Caller) []analysis.SuggestedFix {
	if caller == nil || oc.Spec.Variant == "" || oc.Call.Ellipsis.IsValid() {
		return nil
	}
	ctxExpr := caller.Expr(c.pass.Pkg, oc.Call.Pos())
	if ctxExpr == "" {
		return nil
	}
	sel, ok := ast.Unparen(oc.Call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	var edits []analysis.TextEdit
	switch oc.Spec.Kind {
	case knowledge.SQL:
		if oc.Recv == nil {
			return nil
		}
		var extra []string
		if oc.Spec.Variant == "BeginTx" {
			extra = []string{"nil"} // BeginTx(ctx, opts): default options, as Begin
		}
		edits = append(edits,
			analysis.TextEdit{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte(oc.Spec.Variant)},
			insertCtx(oc.Call, ctxExpr, extra...))
	case knowledge.Dial:
		if oc.Recv != nil {
			// d.Dial(...) on a dialer without Timeout.
			edits = append(edits,
				analysis.TextEdit{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte(oc.Spec.Variant)},
				insertCtx(oc.Call, ctxExpr))
			break
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok || len(oc.Call.Args) != 2 {
			return nil
		}
		edits = append(edits,
			analysis.TextEdit{Pos: sel.Pos(), End: sel.End(), NewText: []byte("(&" + pkg.Name + ".Dialer{})." + oc.Spec.Variant)},
			insertCtx(oc.Call, ctxExpr))
	default:
		return nil
	}
	return []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("Use %s with %s", oc.Spec.Variant, ctxExpr),
		TextEdits: edits,
	}}
}

// requestFix rewrites http.NewRequest(...) to
// http.NewRequestWithContext(ctx, ...).
func (c *checker) requestFix(call *ast.CallExpr, row knowledge.RequestFunc, ctxExpr string) []analysis.SuggestedFix {
	if ctxExpr == "" || row.Variant == "" {
		return nil
	}
	var name *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		name = f.Sel
	case *ast.Ident:
		name = f
	default:
		return nil
	}
	return []analysis.SuggestedFix{{
		Message: fmt.Sprintf("Use %s(%s, ...)", row.Variant, ctxExpr),
		TextEdits: []analysis.TextEdit{
			{Pos: name.Pos(), End: name.End(), NewText: []byte(row.Variant)},
			insertCtx(call, ctxExpr),
		},
	}}
}

// timeoutFix bounds a call that is given context.Background() or TODO()
// directly, where no caller's context exists: it declares
//
//	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
//	defer cancel()
//
// before the statement and passes ctx instead. It offers nothing inside
// loops (the deferred cancels would pile up) or where the statement cannot
// take a declaration before it.
func (c *checker) timeoutFix(call *ast.CallExpr, o ctxflow.Origin, w analysisutil.Where) []analysis.SuggestedFix {
	root := o.Root()
	if root == nil || w.InLoop || w.Stmt == nil || w.Go {
		return nil
	}
	direct := false
	for _, a := range call.Args {
		if ast.Unparen(a) == root {
			direct = true
		}
	}
	fn, _ := c.m.Callee(root)
	if !direct || fn == nil {
		return nil
	}
	if row, ok := c.table.Contexts[analysisutil.Key(fn)]; !ok || row.Effect != knowledge.Root {
		return nil
	}
	file := analysisutil.FileOf(c.pass, call.Pos())
	if file == nil {
		return nil
	}
	pos := w.Stmt.Pos()
	// A context with a deadline already in scope (main's
	// ctx, cancel := context.WithTimeout(context.Background(), 2*time.Hour)):
	// its budget is the one to use.
	if name := c.deadlineInScope(pos); name != "" {
		return []analysis.SuggestedFix{{
			Message:   fmt.Sprintf("Pass %s, which has a deadline", name),
			TextEdits: []analysis.TextEdit{{Pos: root.Pos(), End: root.End(), NewText: []byte(name)}},
		}}
	}
	ctxPkg, edits1, ok := analysisutil.PackageName(c.pass, file, pos, "context", "context")
	if !ok {
		return nil
	}
	timePkg, edits2, ok := analysisutil.PackageName(c.pass, file, pos, "time", "time")
	if !ok {
		return nil
	}
	ctxName := c.names.Free(c.pass.Pkg, pos, w.Body, "ctx")
	cancelName := c.names.Free(c.pass.Pkg, pos, w.Body, "cancel")
	indent := analysisutil.Indent(c.pass, pos)
	budget := analysisutil.DurationExpr(timePkg, int64(c.cfg.RequestBudget))
	decl := fmt.Sprintf("%s, %s := %s.WithTimeout(%s, %s)\n%sdefer %s()\n%s",
		ctxName, cancelName, ctxPkg, analysisutil.Format(c.pass.Fset, root), budget, indent, cancelName, indent)
	edits := []analysis.TextEdit{
		{Pos: pos, End: pos, NewText: []byte(decl)},
		{Pos: root.Pos(), End: root.End(), NewText: []byte(ctxName)},
	}
	edits = append(edits, edits1...)
	edits = append(edits, edits2...)
	return []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("Bound the call with %s.WithTimeout (%s; adjust to the call's budget)", ctxPkg, budget),
		TextEdits: edits,
	}}
}

// deadlineInScope returns the name of a context variable of the enclosing
// function, declared before pos and visible there, whose every value has a
// deadline; the innermost one. "" if none.
func (c *checker) deadlineInScope(pos token.Pos) string {
	inner := c.pass.Pkg.Scope().Innermost(pos)
	seen := map[string]bool{}
	for sc := inner; sc != nil && sc != c.pass.Pkg.Scope() && sc != types.Universe; sc = sc.Parent() {
		for _, name := range sc.Names() {
			if seen[name] {
				continue
			}
			seen[name] = true
			v, ok := sc.Lookup(name).(*types.Var)
			if !ok || v.Pos() >= pos || !analysisutil.IsContext(v.Type()) {
				continue
			}
			if !analysisutil.VisibleAt(c.pass.Pkg, pos, v) {
				continue
			}
			if o := c.m.VarContext(v); o.State == ctxflow.Deadline {
				return name
			}
		}
	}
	return ""
}
