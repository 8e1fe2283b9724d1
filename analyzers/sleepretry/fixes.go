package sleepretry

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
	"github.com/resilint/resilint/passes/retryloop"
)

// fix rewrites the reported wait, when the loop has an attempt variable and
// a context is in scope:
//
//   - time.Sleep(d) or <-time.After(d) as a statement becomes
//     if err := resil.Sleep(ctx, D); err != nil { return ..., err };
//   - the duration of a timer in a select (or of resil.Sleep) becomes D;
//
// where D is resil.Backoff(attempt, d, 10*d) for a fixed d,
// resil.Backoff(0, d, d) for a d that already grows (full jitter over its
// schedule), and d itself when d is already jittered. It offers nothing when
// the rewrite would not remove every problem reported.
func (c *checker) fix(L *retryloop.Loop, p problems) []analysis.SuggestedFix {
	s := p.s
	if L.Goto || s.Dur == nil || s.Call == nil || s.Ticker || L.Counter == nil || !L.Counted || (L.CounterStart != 0 && L.CounterStart != 1) {
		return nil
	}
	pos := s.Call.Pos()
	if !analysisutil.VisibleAt(c.pass.Pkg, pos, L.Counter) {
		return nil
	}
	attempt := L.Counter.Name()
	if L.CounterStart == 1 {
		attempt += "-1"
	}
	ctxExpr := s.Ctx
	if ctxExpr == "" || s.CtxOutside {
		return nil // none, or not in scope at the wait (an iterator's pause)
	}
	if !c.sameCtx(L, ctxExpr, pos) || holdsLock(c.pass.TypesInfo, L.Body) {
		return nil
	}
	file := analysisutil.FileOf(c.pass, pos)
	if file == nil {
		return nil
	}
	// Only where the module resolves resil, with Sleep and Backoff (the
	// finding's advice names them either way).
	if !analysisutil.Declares(c.pass, knowledge.ResilPath, "Sleep", "Backoff") {
		return nil
	}
	resil, imp, ok := analysisutil.PackageName(c.pass, file, pos, knowledge.ResilPath, "resil")
	if !ok {
		return nil
	}
	dur, ok := c.duration(s, resil, attempt, file, pos)
	if !ok {
		return nil
	}
	var edits []analysis.TextEdit
	switch {
	case s.Form == retryloop.Blocking && s.Stmt != nil && within(s.Call, s.Stmt):
		if !c.returnsAfter(L) {
			return nil
		}
		ret, ok := c.returnErr(L.Func, file, pos)
		if !ok {
			return nil
		}
		indent := analysisutil.Indent(c.pass, s.Stmt.Pos())
		text := fmt.Sprintf("if err := %s.Sleep(%s, %s); err != nil {\n%s\t%s\n%s}", resil, ctxExpr, dur, indent, ret, indent)
		edits = append(edits, analysis.TextEdit{Pos: s.Stmt.Pos(), End: s.Stmt.End(), NewText: []byte(text)})
	case (s.Form == retryloop.SelectCase || s.Form == retryloop.CtxSleep) && !p.blind && !p.unbounded && (p.fixed || p.grows):
		edits = append(edits, analysis.TextEdit{Pos: s.Dur.Pos(), End: s.Dur.End(), NewText: []byte(dur)})
	default:
		return nil
	}
	edits = append(edits, imp...)
	msg := "Sleep with " + resil + ".Sleep and full-jitter backoff"
	if !p.blind {
		msg = "Wait " + dur
	}
	return []analysis.SuggestedFix{{Message: msg, TextEdits: analysisutil.SortEdits(edits)}}
}

func within(n, outer ast.Node) bool { return outer.Pos() <= n.Pos() && n.End() <= outer.End() }

// duration spells the new wait.
func (c *checker) duration(s *retryloop.Sleep, resil, attempt string, file *ast.File, pos token.Pos) (string, bool) {
	d := analysisutil.Format(c.pass.Fset, s.Dur)
	if d == "" {
		return "", false
	}
	switch s.Vary {
	case knowledge.Invariant:
		if !pure(c.pass.TypesInfo, s.Dur) {
			return "", false
		}
		max := "10*" + paren(s.Dur, d)
		if tv, ok := c.pass.TypesInfo.Types[s.Dur]; ok && tv.Value != nil {
			if v, ok := constant.Int64Val(constant.ToInt(tv.Value)); ok && v > 0 {
				if timePkg, add, ok := analysisutil.PackageName(c.pass, file, pos, "time", "time"); ok && len(add) == 0 {
					max = analysisutil.DurationExpr(timePkg, 10*v)
				}
			}
		}
		return fmt.Sprintf("%s.Backoff(%s, %s, %s)", resil, attempt, d, max), true
	case knowledge.Grows:
		if !pure(c.pass.TypesInfo, s.Dur) {
			return "", false
		}
		return fmt.Sprintf("%s.Backoff(0, %s, %s)", resil, d, d), true
	}
	return d, true
}

// paren parenthesises an expression that is not an operand.
func paren(e ast.Expr, text string) string {
	switch ast.Unparen(e).(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.BasicLit, *ast.CallExpr, *ast.IndexExpr:
		return text
	}
	return "(" + text + ")"
}

// pure reports whether evaluating e twice is the same as once: names,
// fields, constants, arithmetic and conversions.
func pure(info *types.Info, e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if tv, isType := info.Types[n.Fun]; !isType || !tv.IsType() {
				if id, isID := ast.Unparen(n.Fun).(*ast.Ident); isID {
					if b, isB := info.Uses[id].(*types.Builtin); isB && (b.Name() == "min" || b.Name() == "max") {
						return true
					}
				}
				ok = false
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		case *ast.FuncLit, *ast.CompositeLit, *ast.StarExpr, *ast.TypeAssertExpr:
			ok = false
		}
		return ok
	})
	return ok
}

var errorType = types.Universe.Lookup("error").Type()

// returnErr spells a return statement that returns err from fn with the
// other results: a named result by its name (the value it holds), else a
// zero value.
func (c *checker) returnErr(fn ast.Node, file *ast.File, pos token.Pos) (string, bool) {
	var sig *types.Signature
	switch f := fn.(type) {
	case *ast.FuncDecl:
		obj, _ := c.pass.TypesInfo.Defs[f.Name].(*types.Func)
		if obj == nil {
			return "", false
		}
		sig = obj.Type().(*types.Signature)
	case *ast.FuncLit:
		sig, _ = c.pass.TypesInfo.TypeOf(f).(*types.Signature)
	}
	if sig == nil {
		return "", false
	}
	res := sig.Results()
	if res.Len() == 0 {
		return "return", true
	}
	if !types.Identical(res.At(res.Len()-1).Type(), errorType) {
		return "", false
	}
	vals := make([]string, 0, res.Len())
	for i := 0; i < res.Len()-1; i++ {
		if r := res.At(i); r.Name() != "" && r.Name() != "_" && analysisutil.VisibleAt(c.pass.Pkg, pos, r) {
			// A named result keeps the value the function gave it.
			vals = append(vals, r.Name())
			continue
		}
		z, ok := c.zero(res.At(i).Type(), file, pos)
		if !ok {
			return "", false
		}
		vals = append(vals, z)
	}
	vals = append(vals, "err")
	return "return " + strings.Join(vals, ", "), true
}

// zero spells the zero value of t in file at pos.
func (c *checker) zero(t types.Type, file *ast.File, pos token.Pos) (string, bool) {
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		return "*new(" + tp.Obj().Name() + ")", true
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "false", true
		case u.Info()&types.IsString != 0:
			return `""`, true
		case u.Info()&types.IsNumeric != 0:
			return "0", true
		case u.Kind() == types.UnsafePointer:
			return "nil", true
		}
		return "", false
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return "nil", true
	case *types.Struct, *types.Array:
		if _, named := types.Unalias(t).(*types.Named); !named {
			return "", false
		}
		ok := true
		name := types.TypeString(t, func(p *types.Package) string {
			if p == c.pass.Pkg {
				return ""
			}
			n, imported := analysisutil.ImportName(c.pass.TypesInfo, file, p.Path())
			if !imported {
				ok = false
			}
			return n
		})
		if !ok {
			return "", false
		}
		return name + "{}", true
	}
	return "", false
}

// sameCtx reports whether every context the loop's retried calls are given
// is the one the new wait would observe (ctxName at pos): a call on
// context.WithoutCancel(ctx), on Background in a cleanup, or on a context
// of its own would outlive that one, and a wait ended by it would stop the
// retries the code keeps going on purpose.
func (c *checker) sameCtx(L *retryloop.Loop, ctxName string, pos token.Pos) bool {
	info := c.pass.TypesInfo
	name, method := strings.CutSuffix(ctxName, ".Context()") // r.Context()
	_, obj := c.pass.Pkg.Scope().Innermost(pos).LookupParent(name, pos)
	if obj == nil {
		return false
	}
	for _, call := range L.Retried {
		for _, a := range call.Args {
			if !analysisutil.IsContext(info.TypeOf(a)) {
				continue
			}
			x := ast.Unparen(a)
			if method {
				// r.Context(), the request's own context.
				mc, ok := x.(*ast.CallExpr)
				if !ok || len(mc.Args) != 0 {
					return false
				}
				sel, ok := ast.Unparen(mc.Fun).(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "Context" {
					return false
				}
				x = ast.Unparen(sel.X)
			}
			id, ok := x.(*ast.Ident)
			if !ok || info.Uses[id] != obj {
				return false
			}
		}
	}
	return true
}

// holdsLock reports whether a loop body locks a sync.Mutex or RWMutex: an
// early return added between a Lock and its Unlock would leave it locked.
func holdsLock(info *types.Info, body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok && analysisutil.SyncMethod(info, call, "Lock", "RLock") {
			found = true
		}
		return true
	})
	return found
}

// returnsAfter reports whether the code after the loop only returns: the
// loop is a statement of the function's body followed by nothing but a
// return. An early return from the wait then skips nothing the function
// still had to do after the loop (a send on a channel, a close).
func (c *checker) returnsAfter(L *retryloop.Loop) bool {
	var body *ast.BlockStmt
	switch f := L.Func.(type) {
	case *ast.FuncDecl:
		body = f.Body
	case *ast.FuncLit:
		body = f.Body
	}
	if body == nil {
		return false
	}
	stmt := ast.Stmt(L.Stmt)
	for i, st := range body.List {
		if l, ok := st.(*ast.LabeledStmt); ok && l.Stmt == stmt {
			st = l
		} else if st != stmt {
			continue
		}
		rest := body.List[i+1:]
		switch len(rest) {
		case 0:
			return true
		case 1:
			_, ok := rest[0].(*ast.ReturnStmt)
			return ok
		}
		return false
	}
	return false
}
