package detachedctx

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
	"github.com/resilint/resilint/passes/ctxflow"
	"github.com/resilint/resilint/passes/outbound"
)

//go:embed doc.go
var docSrc string

// Doc is the analyzer's documentation, from doc.go.
var Doc = analysisutil.MustDoc(docSrc, "detachedctx")

// Analyzer is detachedctx with the default configuration.
var Analyzer = New(config.Default())

// New returns the analyzer for a configuration.
func New(cfg *config.Config) *analysis.Analyzer {
	return cfg.Memo("detachedctx", func() *analysis.Analyzer {
		ob := outbound.New(cfg)
		return &analysis.Analyzer{
			Name:     Doc.Name,
			Doc:      Doc.Text(),
			URL:      "https://github.com/resilint/resilint/blob/main/analyzers/detachedctx/doc.go",
			Requires: []*analysis.Analyzer{inspect.Analyzer, ob},
			Run:      func(pass *analysis.Pass) (any, error) { return run(pass, cfg, ob) },
		}
	})
}

type checker struct {
	pass  *analysis.Pass
	cfg   *config.Config
	m     *ctxflow.Model
	table *knowledge.Table
	rep   *analysisutil.Reporter
	// async: the node being checked runs in a goroutine that the caller's
	// function starts (go func() { ... }()).
	async bool
	stack []ast.Node // of the call being checked

	pending []analysis.Diagnostic // reported by flush, once the fixes are chosen
	roots   map[*ast.CallExpr]rootFix
}

// sharedWork reports whether the node at the top of stack is inside a
// function literal handed to a SharedWork function (sync.Once.Do,
// singleflight.Group.Do) within fn: it runs once for every caller, and
// must not end when the one that started it gives up.
func (c *checker) sharedWork(stack []ast.Node, fn ast.Node) bool {
	for i := len(stack) - 1; i >= 1; i-- {
		if stack[i] == fn {
			return false
		}
		lit, ok := stack[i].(*ast.FuncLit)
		if !ok {
			continue
		}
		call, ok := stack[i-1].(*ast.CallExpr)
		if !ok || call.Fun == ast.Expr(lit) {
			continue
		}
		if f, _ := c.m.Callee(call); f != nil && c.table.SharedWork[analysisutil.Key(f)] {
			return true
		}
	}
	return false
}

// inGoroutine reports whether the node at the top of stack is inside a
// function literal started by a go statement within fn.
func inGoroutine(stack []ast.Node, fn ast.Node) bool {
	for i := len(stack) - 1; i >= 2; i-- {
		if stack[i] == fn {
			return false
		}
		lit, ok := stack[i].(*ast.FuncLit)
		if !ok {
			continue
		}
		if call, ok := stack[i-1].(*ast.CallExpr); ok && call.Fun == ast.Expr(lit) {
			if _, ok := stack[i-2].(*ast.GoStmt); ok {
				return true
			}
		}
	}
	return false
}

func run(pass *analysis.Pass, cfg *config.Config, ob *analysis.Analyzer) (any, error) {
	res := pass.ResultOf[ob].(*outbound.Result)
	if !res.Relevant {
		return nil, nil
	}
	c := &checker{pass: pass, cfg: cfg, m: res.Model, table: cfg.Table(), rep: analysisutil.NewReporter(pass, cfg)}
	forwards := map[*ast.CallExpr]*outbound.Forward{}
	for _, f := range res.Forwards {
		forwards[f.Call] = f
	}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	ins.WithStack([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		call := n.(*ast.CallExpr)
		if c.rep.Skip(call.Pos()) {
			return true
		}
		caller := c.m.CallerOf(stack)
		if caller == nil || c.afterDone(stack) {
			return true
		}
		if c.sharedWork(stack, caller.Func) {
			return true // once.Do(func() { ... }): done for every caller
		}
		c.async = inGoroutine(stack, caller.Func)
		c.stack = stack
		switch {
		case res.ByCall[call] != nil:
			c.checkOutbound(res.ByCall[call], caller)
		case forwards[call] != nil:
			c.checkForward(forwards[call], caller)
		default:
			c.checkDerive(call, caller, stack)
		}
		return true
	})
	c.flush()
	return nil, nil
}

// callerName says how the message refers to the caller's context.
func callerName(caller *ctxflow.Caller) string {
	if caller.Param != nil {
		if caller.Param.Name() == "_" {
			return "the caller's context but discards it (its parameter is named _; name it ctx)"
		}
		return "the caller's context (" + caller.Param.Name() + ")"
	}
	return "the inbound request's context (" + caller.Request.Name() + ".Context())"
}

func (c *checker) rootName(root *ast.CallExpr) string {
	if fn, _ := c.m.Callee(root); fn != nil {
		return analysisutil.Name(fn) + "()"
	}
	return "context.Background()"
}

// checkOutbound reports Background/TODO reaching an outbound call.
func (c *checker) checkOutbound(oc *outbound.Call, caller *ctxflow.Caller) {
	o, ok := outbound.CallContext(c.m, oc)
	if !ok || o.State != ctxflow.Free || !o.Detached {
		return
	}
	root := o.Root()
	what := "context.Background()"
	if root != nil {
		what = c.rootName(root)
	}
	advice := fmt.Sprintf("pass %s (if the call must outlive the caller, use context.WithoutCancel(%s) with its own timeout)", c.ctxWord(caller, oc.Call), c.ctxWord(caller, oc.Call))
	if c.async {
		advice = c.asyncAdvice(caller, oc.Call)
	}
	c.report(analysis.Diagnostic{
		Pos: oc.Call.Pos(), End: oc.Call.End(),
		Message: fmt.Sprintf("%s gets %s although this function has %s: the call ignores the caller's deadline and cancellation and keeps running after the caller has given up; %s",
			oc.Name(), what, callerName(caller), advice),
		SuggestedFixes: c.replaceRoot(root, caller, oc.Call),
	})
}

// asyncAdvice is the advice for code in a goroutine the caller's function
// starts: it may be meant to outlive the caller, so the fix keeps the
// caller's values and drops its cancellation instead of tying the work to
// a context that ends when the caller returns.
func (c *checker) asyncAdvice(caller *ctxflow.Caller, at ast.Node) string {
	w := c.ctxWord(caller, at)
	return fmt.Sprintf("this runs in a goroutine that may outlive the caller: derive it from context.WithoutCancel(%s), which keeps the caller's values (trace, auth) and drops its cancellation, and bound it with its own timeout (or pass %s if the goroutine is waited for)", w, w)
}

// checkForward reports Background/TODO handed to a function that forwards
// it to an outbound call.
func (c *checker) checkForward(f *outbound.Forward, caller *ctxflow.Caller) {
	for _, fp := range f.Fact.Params {
		if fp.Index >= len(f.Call.Args) {
			continue
		}
		o := c.m.Context(f.Call.Args[fp.Index])
		if o.State != ctxflow.Free || !o.Detached {
			continue
		}
		root := o.Root()
		what := "context.Background()"
		if root != nil {
			what = c.rootName(root)
		}
		advice := "pass " + c.ctxWord(caller, f.Call)
		if c.async {
			advice = c.asyncAdvice(caller, f.Call)
		}
		c.report(analysis.Diagnostic{
			Pos: f.Call.Pos(), End: f.Call.End(),
			Message: fmt.Sprintf("%s gets %s although this function has %s, and forwards it to %s: the call ignores the caller's deadline and cancellation and keeps running after the caller has given up; %s",
				analysisutil.Name(f.Fn), what, callerName(caller), outbound.Chain(fp.Chain), advice),
			SuggestedFixes: c.replaceRoot(root, caller, f.Call),
		})
		return
	}
}

// checkDerive reports WithTimeout/WithDeadline on Background/TODO, and
// request-path timeouts longer than the budget.
func (c *checker) checkDerive(call *ast.CallExpr, caller *ctxflow.Caller, stack []ast.Node) {
	fn, _ := c.m.Callee(call)
	if fn == nil {
		return
	}
	row, ok := c.table.Contexts[analysisutil.Key(fn)]
	if !ok || row.Effect != knowledge.AddDeadline || row.Parent >= len(call.Args) {
		return
	}
	parent := c.m.Context(call.Args[row.Parent])
	if parent.State == ctxflow.Free && parent.Detached && !c.onlyTearsDown(call, stack) {
		root := parent.Root()
		what := "context.Background()"
		if root != nil {
			what = c.rootName(root)
		}
		advice := "derive it from " + c.ctxWord(caller, call)
		if c.async {
			advice = c.asyncAdvice(caller, call)
		}
		c.report(analysis.Diagnostic{
			Pos: call.Pos(), End: call.End(),
			Message: fmt.Sprintf("%s on %s although this function has %s: the new deadline ignores how much of the caller's budget is left, and the caller's cancellation never reaches it; %s",
				analysisutil.Name(fn), what, callerName(caller), advice),
			SuggestedFixes: c.replaceRoot(root, caller, nil),
		})
		return
	}
	// Request-path budget. A parent with no deadline of the caller's — one
	// detached on purpose with WithoutCancel(ctx) for work that must
	// outlive the request, or a fresh context used only to shut down —
	// carries no request budget to exceed.
	if parent.State == ctxflow.Free {
		return
	}
	w := analysisutil.WhereOf(stack)
	serves := w.Decl != nil && c.m.ServesRequest(w.Decl)
	if lit, ok := w.Func.(*ast.FuncLit); ok && !serves {
		serves = c.m.ServesRequestLit(lit) // a HandlerFunc literal, a middleware
	}
	if !serves && (w.Decl == nil || !c.cfg.BudgetEverywhere) {
		return
	}
	d, ok := c.duration(call, row)
	budget := time.Duration(c.cfg.RequestBudget)
	if !ok || d <= budget {
		return
	}
	where := "on a request path"
	if !serves {
		where = "in a function that has the caller's context"
	}
	c.report(analysis.Diagnostic{
		Pos: call.Pos(), End: call.End(),
		Message: fmt.Sprintf("%s allows %s %s, longer than the %s request budget: the client gives up long before, and the work and connections it holds are wasted; use a timeout within the budget (or raise -request-budget if this path really needs longer)",
			analysisutil.Name(fn), d, where, budget),
	})
}

// duration returns the constant duration a WithTimeout/WithDeadline call
// allows: the duration argument, or d in time.Now().Add(d).
func (c *checker) duration(call *ast.CallExpr, row knowledge.ContextFunc) (time.Duration, bool) {
	var e ast.Expr
	switch {
	case row.Duration >= 0 && row.Duration < len(call.Args):
		e = call.Args[row.Duration]
	case row.Deadline >= 0 && row.Deadline < len(call.Args):
		add, ok := ast.Unparen(call.Args[row.Deadline]).(*ast.CallExpr)
		if !ok || len(add.Args) != 1 {
			return 0, false
		}
		fn, recv := c.m.Callee(add)
		if fn == nil || recv == nil || !c.table.TimeAdd[analysisutil.Key(fn)] {
			return 0, false
		}
		now, ok := ast.Unparen(recv).(*ast.CallExpr)
		if !ok {
			return 0, false
		}
		if nfn, _ := c.m.Callee(now); nfn == nil || !c.table.Now[analysisutil.Key(nfn)] {
			return 0, false
		}
		e = add.Args[0]
	default:
		return 0, false
	}
	v, ok := analysisutil.ConstInt(c.pass.TypesInfo, e)
	if !ok {
		return 0, false
	}
	return time.Duration(v), true
}

func (c *checker) ctxWord(caller *ctxflow.Caller, at ast.Node) string {
	if s := caller.Expr(c.pass.Pkg, at.Pos()); s != "" {
		return s
	}
	if caller.Param != nil {
		if caller.Param.Name() == "_" {
			return "ctx"
		}
		return caller.Param.Name()
	}
	return caller.Request.Name() + ".Context()"
}

// afterDone reports whether the node at the top of stack runs only once a
// context is done: after a statement <-ctx.Done(), or in the case
// <-ctx.Done() of a select. The caller's context is spent there, and a
// fresh one is what the code needs (a graceful shutdown with its own
// timeout: srv.Shutdown(context.WithTimeout(context.Background(), d))).
func (c *checker) afterDone(stack []ast.Node) bool {
	for i := len(stack) - 1; i > 0; i-- {
		node, parent := stack[i], stack[i-1]
		switch node.(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		}
		var list []ast.Stmt
		switch p := parent.(type) {
		case *ast.BlockStmt:
			list = p.List
		case *ast.CaseClause:
			list = p.Body
		case *ast.CommClause:
			if p.Comm != nil && node != ast.Node(p.Comm) && analysisutil.DoneRecv(c.pass.TypesInfo, p.Comm) {
				return true
			}
			list = p.Body
		}
		for _, st := range list {
			if st == node {
				break
			}
			if analysisutil.DoneRecv(c.pass.TypesInfo, st) {
				return true
			}
		}
	}
	return false
}

// onlyTearsDown reports whether the context a WithTimeout/WithDeadline call
// derives is used only to stop things (a.imageService.Close(ctx),
// srv.Shutdown(ctx)): shutdown runs when the caller's context is being
// cancelled, and needs a deadline of its own.
func (c *checker) onlyTearsDown(call *ast.CallExpr, stack []ast.Node) bool {
	if len(stack) < 2 {
		return false
	}
	as, ok := stack[len(stack)-2].(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || len(as.Lhs) == 0 {
		return false
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	body := analysisutil.WhereOf(stack).Body
	if v == nil || body == nil {
		return false
	}
	teardown := c.table.Bounds.Teardown
	uses, stops := 0, 0
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if c.pass.TypesInfo.Uses[n] == v {
				uses++
			}
		case *ast.CallExpr:
			fn, _ := c.m.Callee(n)
			if fn == nil || !teardown[fn.Name()] {
				return true
			}
			for _, a := range n.Args {
				if aid, ok := ast.Unparen(a).(*ast.Ident); ok && c.pass.TypesInfo.Uses[aid] == v {
					stops++
				}
			}
		}
		return true
	})
	return uses > 0 && uses == stops
}
