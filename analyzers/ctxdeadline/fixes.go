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
//
// The caller's context must still be the budget where the call is (see
// analysisutil.CtxUsable), and a result that lives on it (rows, a
// transaction) must not be kept past the caller's request.
func (c *checker) variantFix(oc *outbound.Call, caller *ctxflow.Caller, stack []ast.Node) []analysis.SuggestedFix {
	if caller == nil || oc.Spec.Variant == "" || oc.Call.Ellipsis.IsValid() || !c.callerUsable(oc.Call, caller, stack) {
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
// http.NewRequestWithContext(ctx, ...), where the caller's context is
// still the budget.
func (c *checker) requestFix(call *ast.CallExpr, row knowledge.RequestFunc, ctxExpr string, caller *ctxflow.Caller, stack []ast.Node) []analysis.SuggestedFix {
	if ctxExpr == "" || row.Variant == "" || !c.callerUsable(call, caller, stack) {
		return nil
	}
	if analysisutil.RequestKept(c.pass.TypesInfo, c.table, c.pass.Pkg, call, stack, analysisutil.WhereOf(stack).Func) {
		return nil // sent where the caller may have stopped waiting
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

// callerUsable reports whether a fix may hand call the caller's context:
// it is still the budget there, and no result of the call that lives on
// it is kept beyond the function (returning it to the caller is fine: the
// caller owns the context).
func (c *checker) callerUsable(call *ast.CallExpr, caller *ctxflow.Caller, stack []ast.Node) bool {
	if !c.m.Intact(caller, call.Pos()) || !analysisutil.CtxUsable(c.pass.TypesInfo, c.table, stack, caller.Func, c.m.Decl) {
		return false
	}
	w := analysisutil.WhereOf(stack)
	return !analysisutil.KeptLive(c.pass.TypesInfo, c.table, c.pass.Pkg, call, stack, w.Func, true)
}

// A timeoutReq is a finding whose fix bounds its call with a new timeout.
// The fixes of a package are chosen together: two calls of one statement
// would both declare their context before it (one insertion each at the
// same place, which no driver can order), so they share one declaration,
// or neither gets a fix.
type timeoutReq struct {
	diag  analysis.Diagnostic
	call  *ast.CallExpr
	o     ctxflow.Origin
	stack []ast.Node
}

func (c *checker) reportTimeout(d analysis.Diagnostic, call *ast.CallExpr, o ctxflow.Origin, stack []ast.Node) {
	c.timeouts = append(c.timeouts, timeoutReq{diag: d, call: call, o: o, stack: append([]ast.Node(nil), stack...)})
}

// flushTimeouts chooses the timeout fixes and reports the findings.
func (c *checker) flushTimeouts() {
	byStmt := map[ast.Stmt][]int{}
	plans := make([]*timeoutPlan, len(c.timeouts))
	for i, r := range c.timeouts {
		plans[i] = c.planTimeout(r.call, r.o, r.stack)
		if p := plans[i]; p != nil && p.decl {
			byStmt[p.stmt] = append(byStmt[p.stmt], i)
		}
	}
	for _, idx := range byStmt {
		if len(idx) < 2 {
			continue
		}
		// One declaration for every call of the statement, when they all
		// get the same root; else none of them is fixed.
		same := true
		for _, i := range idx[1:] {
			if plans[i].rootText != plans[idx[0]].rootText || plans[i].closure || plans[idx[0]].closure {
				same = false
			}
		}
		var all []*ast.CallExpr
		for _, i := range idx {
			all = append(all, plans[i].roots...)
		}
		shared := plans[idx[0]]
		shared.roots = all
		for _, i := range idx {
			if same {
				plans[i] = shared // one fix, the same edits for each finding
			} else {
				plans[i] = nil
			}
		}
	}
	fixes := map[*timeoutPlan][]analysis.SuggestedFix{}
	for i, r := range c.timeouts {
		if p := plans[i]; p != nil {
			if _, done := fixes[p]; !done {
				fixes[p] = c.timeoutFix(p)
			}
			r.diag.SuggestedFixes = fixes[p]
		}
		c.rep.Report(r.diag)
	}
	c.timeouts = nil
}

// A timeoutPlan is what a timeout fix does: pass a deadline context
// already in scope, or declare one before stmt (in a closure around a
// deferred or started call, so that it starts when the call runs).
type timeoutPlan struct {
	stmt     ast.Stmt
	w        analysisutil.Where
	roots    []*ast.CallExpr // the Background() or TODO() calls replaced
	rootText string
	reuse    string // the context in scope to pass instead
	decl     bool   // declares ctx, cancel := context.WithTimeout(root, d)
	closure  bool   // the deferred or started call, wrapped in func() { ... }()
	call     *ast.CallExpr
}

// planTimeout decides the fix of a call that is given context.Background()
// or TODO() directly where no caller's context exists. It bounds it with
//
//	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
//	defer cancel()
//
// declared before the statement, or passes a deadline context in scope.
// None in loops (the deferred cancels would pile up), where the statement
// cannot take a declaration before it, where a result of the call lives on
// the context and is returned or kept (rows, a transaction, a response, a
// stream: the deferred cancel would end it at return), and for a deferred
// or started call whose arguments may change before it runs.
func (c *checker) planTimeout(call *ast.CallExpr, o ctxflow.Origin, stack []ast.Node) *timeoutPlan {
	w := analysisutil.WhereOf(stack)
	root := o.Root()
	if root == nil || w.InLoop || w.Stmt == nil {
		return nil
	}
	if back, over := w.Gotos(stack[len(stack)-1]); back || over {
		return nil // a goto loop, or a goto over the declaration
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
	if analysisutil.KeptLive(c.pass.TypesInfo, c.table, c.pass.Pkg, call, stack, w.Func, false) {
		return nil
	}
	p := &timeoutPlan{stmt: w.Stmt, w: w, roots: []*ast.CallExpr{root}, rootText: analysisutil.Format(c.pass.Fset, root), call: call}
	// A deferred or started call runs later: its timeout must start then.
	switch s := w.Stmt.(type) {
	case *ast.DeferStmt:
		if s.Call != call {
			break // the call is in the arguments, evaluated now
		}
		if !c.stableCall(call, root, w) {
			return nil
		}
		p.closure = true
	case *ast.GoStmt:
		if s.Call != call {
			break
		}
		if !c.stableCall(call, root, w) {
			return nil
		}
		p.closure = true
	}
	if w.Go && !p.closure && !inLiteralBody(stack) {
		return nil // in the arguments of a go statement: no place for a cancel
	}
	if !p.closure {
		// A context with a deadline already in scope (main's
		// ctx, cancel := context.WithTimeout(context.Background(), 2*time.Hour)):
		// its budget is the one to use, where it is the function's own and
		// cannot be done yet.
		if name := c.deadlineInScope(w.Stmt.Pos(), stack, w); name != "" {
			p.reuse = name
			return p
		}
	}
	p.decl = true
	return p
}

// inLiteralBody reports whether the call at the end of stack is in the
// body of a function literal inside the statement WhereOf found (a go
// statement's literal).
func inLiteralBody(stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.FuncLit:
			return true
		case *ast.GoStmt:
			return false
		}
	}
	return false
}

// stableCall reports whether evaluating the call's function and arguments
// (other than root) when the deferred or started call runs gives what the
// defer or go statement evaluated: constants, and variables assigned only
// where they are declared.
func (c *checker) stableCall(call, root *ast.CallExpr, w analysisutil.Where) bool {
	exprs := []ast.Expr{}
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
	case *ast.SelectorExpr:
		if _, isPkg := c.pass.TypesInfo.Uses[identOf(f.X)].(*types.PkgName); !isPkg {
			exprs = append(exprs, f.X)
		}
	default:
		return false
	}
	for _, a := range call.Args {
		if ast.Unparen(a) != root {
			exprs = append(exprs, a)
		}
	}
	info := c.pass.TypesInfo
	for _, e := range exprs {
		ok := true
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case nil, *ast.BasicLit, *ast.BinaryExpr, *ast.ParenExpr, *ast.UnaryExpr:
				if u, isU := n.(*ast.UnaryExpr); isU && u.Op == token.ARROW {
					ok = false
				}
			case *ast.Ident:
				switch obj := info.Uses[n].(type) {
				case *types.Const, *types.Func, *types.TypeName, *types.Nil, *types.Builtin, *types.PkgName:
				case *types.Var:
					if obj.IsField() || !c.m.Visible(obj) || len(c.m.DefsOf(obj)) > 1 {
						ok = false
					} else if _, _, isParam := c.m.IsParam(obj); isParam && c.m.Assigned(obj) {
						ok = false
					}
				default:
					ok = false
				}
			case *ast.SelectorExpr:
				if _, isPkg := info.Uses[identOf(n.X)].(*types.PkgName); !isPkg {
					ok = false // a field may change
				}
			default:
				ok = false
			}
			return ok
		})
		if !ok {
			return false
		}
	}
	return true
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// timeoutFix spells a plan.
func (c *checker) timeoutFix(p *timeoutPlan) []analysis.SuggestedFix {
	if p.reuse != "" {
		return []analysis.SuggestedFix{{
			Message:   fmt.Sprintf("Pass %s, which has a deadline", p.reuse),
			TextEdits: []analysis.TextEdit{{Pos: p.roots[0].Pos(), End: p.roots[0].End(), NewText: []byte(p.reuse)}},
		}}
	}
	file := analysisutil.FileOf(c.pass, p.stmt.Pos())
	if file == nil {
		return nil
	}
	pos := p.stmt.Pos()
	ctxPkg, edits1, ok := analysisutil.PackageName(c.pass, file, pos, "context", "context")
	if !ok {
		return nil
	}
	timePkg, edits2, ok := analysisutil.PackageName(c.pass, file, pos, "time", "time")
	if !ok {
		return nil
	}
	body := p.w.Body
	ctxName := c.names.Free(c.pass.Pkg, pos, body, "ctx")
	cancelName := c.names.Free(c.pass.Pkg, pos, body, "cancel")
	indent := analysisutil.Indent(c.pass, pos)
	budget := analysisutil.DurationExpr(timePkg, int64(c.cfg.RequestBudget))
	declText := fmt.Sprintf("%s, %s := %s.WithTimeout(%s, %s)", ctxName, cancelName, ctxPkg, p.rootText, budget)
	var edits []analysis.TextEdit
	if p.closure {
		// defer f(context.Background(), x) →
		// defer func() { ctx, cancel := ...; defer cancel(); f(ctx, x) }()
		kw := "defer"
		if _, isGo := p.stmt.(*ast.GoStmt); isGo {
			kw = "go"
		}
		src, err := c.pass.ReadFile(c.pass.Fset.File(pos).Name())
		if err != nil {
			return nil
		}
		tf := c.pass.Fset.File(pos)
		callText := string(src[tf.Offset(p.call.Pos()):tf.Offset(p.roots[0].Pos())]) + ctxName + string(src[tf.Offset(p.roots[0].End()):tf.Offset(p.call.End())])
		text := fmt.Sprintf("%s func() {\n%s\t%s\n%s\tdefer %s()\n%s\t%s\n%s}()", kw, indent, declText, indent, cancelName, indent, callText, indent)
		edits = append(edits, analysis.TextEdit{Pos: p.stmt.Pos(), End: p.stmt.End(), NewText: []byte(text)})
	} else {
		edits = append(edits, analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(fmt.Sprintf("%s\n%sdefer %s()\n%s", declText, indent, cancelName, indent))})
		for _, r := range p.roots {
			edits = append(edits, analysis.TextEdit{Pos: r.Pos(), End: r.End(), NewText: []byte(ctxName)})
		}
	}
	edits = append(edits, edits1...)
	edits = append(edits, edits2...)
	msg := fmt.Sprintf("Bound the call with %s.WithTimeout (%s; adjust to the call's budget)", ctxPkg, budget)
	if p.closure {
		msg = fmt.Sprintf("Bound the call with %s.WithTimeout (%s, from when it runs; adjust to the call's budget)", ctxPkg, budget)
	}
	return []analysis.SuggestedFix{{Message: msg, TextEdits: analysisutil.SortEdits(edits)}}
}

// deadlineInScope returns the name of a context variable with a deadline
// that is the function's own budget and cannot be done yet at pos: made at
// the top level of the function's body, before pos, by a derivation whose
// cancel is only deferred, never cancelled or waited on before pos; and
// pos is where the function runs (not in a deferred call or a callback,
// not on a path that runs because a context is done). "" if none.
func (c *checker) deadlineInScope(pos token.Pos, stack []ast.Node, w analysisutil.Where) string {
	if w.Body == nil || !analysisutil.CtxUsable(c.pass.TypesInfo, c.table, stack, w.Func, c.m.Decl) {
		return ""
	}
	info := c.pass.TypesInfo
	for i := len(w.Body.List) - 1; i >= 0; i-- {
		as, ok := w.Body.List[i].(*ast.AssignStmt)
		if !ok || as.Pos() >= pos || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
			continue
		}
		id, ok := as.Lhs[0].(*ast.Ident)
		if !ok {
			continue
		}
		v, ok := info.ObjectOf(id).(*types.Var)
		if !ok || !analysisutil.IsContext(v.Type()) || !analysisutil.VisibleAt(c.pass.Pkg, pos, v) {
			continue
		}
		if o := c.m.VarContext(v); o.State != ctxflow.Deadline || len(c.m.DefsOf(v)) != 1 {
			continue
		}
		cancel, _ := info.ObjectOf(as.Lhs[1].(*ast.Ident)).(*types.Var)
		if !c.spentOnlyAtReturn(v, cancel, w.Body, pos) || !c.parentsLive(as, w.Body, pos, 0) || c.onFailureOf(v, stack, w.Body) {
			continue
		}
		return v.Name()
	}
	return ""
}

// parentsLive reports whether the contexts a derivation (ctx, cancel :=
// context.WithTimeout(base, d)) is made from are not spent before pos
// either: a parent made by a derivation of the function's body, before
// the first, has its cancel only deferred and is not waited on (base,
// stopAll := context.WithCancel(...); go func() { <-stop; stopAll() }()
// ends ctx too), and so on up.
func (c *checker) parentsLive(as *ast.AssignStmt, body *ast.BlockStmt, pos token.Pos, depth int) bool {
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 || depth > 8 {
		return true
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok {
		return true
	}
	info := c.pass.TypesInfo
	parent, ok := info.Uses[id].(*types.Var)
	if !ok || parent.Pos() < body.Pos() || parent.Pos() >= body.End() {
		return true // a parameter (the caller's budget) or a package variable
	}
	for _, st := range body.List {
		pas, ok := st.(*ast.AssignStmt)
		if !ok || pas.Pos() >= as.Pos() || len(pas.Lhs) != 2 || len(pas.Rhs) != 1 {
			continue
		}
		if pid, ok := pas.Lhs[0].(*ast.Ident); !ok || info.ObjectOf(pid) != parent {
			continue
		}
		cid, ok := pas.Lhs[1].(*ast.Ident)
		if !ok {
			return false
		}
		pcancel, _ := info.ObjectOf(cid).(*types.Var)
		return c.spentOnlyAtReturn(parent, pcancel, body, pos) && c.parentsLive(pas, body, pos, depth+1)
	}
	return true
}

// onFailureOf reports whether the code at the end of stack is on the
// failure branch of work done on ctx: in the body of an if whose condition
// tests err != nil (or in the else of err == nil), where err was given the
// result of a call that was handed ctx. That failure may be ctx running
// out, so ctx may be spent there.
func (c *checker) onFailureOf(ctx *types.Var, stack []ast.Node, body *ast.BlockStmt) bool {
	info := c.pass.TypesInfo
	for i := len(stack) - 1; i > 0; i-- {
		ifs, ok := stack[i-1].(*ast.IfStmt)
		if !ok || stack[i] == ast.Node(ifs.Cond) || stack[i] == ifs.Init {
			continue
		}
		want := token.NEQ
		if stack[i] == ifs.Else {
			want = token.EQL
		}
		failed := false
		ast.Inspect(ifs.Cond, func(n ast.Node) bool {
			b, ok := n.(*ast.BinaryExpr)
			if failed || !ok || b.Op != want {
				return !failed
			}
			for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				id, ok := ast.Unparen(pair[0]).(*ast.Ident)
				if !ok || !analysisutil.IsNil(info, pair[1]) {
					continue
				}
				if v, ok := info.Uses[id].(*types.Var); ok && types.Identical(v.Type(), errorType) && c.resultOfCallOn(v, ctx, body, ifs.Cond.Pos()) {
					failed = true
				}
			}
			return !failed
		})
		if failed {
			return true
		}
	}
	return false
}

var errorType = types.Universe.Lookup("error").Type()

// resultOfCallOn reports whether, before pos, errv is assigned a result of
// a call that is handed ctx (err := work(ctx), _, err = db.ExecContext(ctx, ...)).
func (c *checker) resultOfCallOn(errv, ctx *types.Var, body *ast.BlockStmt, pos token.Pos) bool {
	info := c.pass.TypesInfo
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil || n.Pos() >= pos {
			return false
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		assigns := false
		for _, lhs := range as.Lhs {
			if id, ok := ast.Unparen(lhs).(*ast.Ident); ok && info.ObjectOf(id) == errv {
				assigns = true
			}
		}
		if assigns {
			for _, rhs := range as.Rhs {
				if call, ok := ast.Unparen(rhs).(*ast.CallExpr); ok && analysisutil.Mentions(info, call, ctx) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// spentOnlyAtReturn reports whether, before pos, nothing cancels ctx (a
// call of cancel that is not deferred, or cancel handed elsewhere) or
// waits for it to be done (ctx.Done()).
func (c *checker) spentOnlyAtReturn(ctx, cancel *types.Var, body *ast.BlockStmt, pos token.Pos) bool {
	info := c.pass.TypesInfo
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok || n == nil || n.Pos() >= pos {
			return false
		}
		switch n := n.(type) {
		case *ast.DeferStmt:
			if id, isID := ast.Unparen(n.Call.Fun).(*ast.Ident); isID && cancel != nil && info.Uses[id] == cancel {
				return false // defer cancel(): at return
			}
		case *ast.Ident:
			if cancel != nil && info.Uses[n] == cancel {
				ok = false // cancelled, or handed on
			}
		case *ast.CallExpr:
			// ctx.Done(): a wait for it (ctx.Err() only reads it; a branch
			// on it is CtxUsable's business).
			if fn, recv := c.m.Callee(n); fn != nil && recv != nil && c.table.DoneSignals[analysisutil.Key(fn)] {
				if _, isChan := info.TypeOf(n).Underlying().(*types.Chan); isChan {
					if id := identOf(recv); id != nil && info.Uses[id] == ctx {
						ok = false
					}
				}
			}
		}
		return ok
	})
	return ok
}
