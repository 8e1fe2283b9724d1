package detachedctx

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"
	"strings"
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
	res   *outbound.Result
	cfg   *config.Config
	m     *ctxflow.Model
	table *knowledge.Table
	rep   *analysisutil.Reporter
	// cancels: the cancel functions of each function's context
	// parameters (analysisutil.ParamCancels), computed once.
	cancels map[ast.Node]map[types.Object]bool
	stack   []ast.Node // of the call being checked

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

func run(pass *analysis.Pass, cfg *config.Config, ob *analysis.Analyzer) (any, error) {
	res := pass.ResultOf[ob].(*outbound.Result)
	if !res.Relevant {
		return nil, nil
	}
	c := &checker{pass: pass, cfg: cfg, res: res, m: res.Model, table: cfg.Table(), rep: analysisutil.NewReporter(pass, cfg)}
	forwards := map[*ast.CallExpr]*outbound.Forward{}
	for _, f := range res.Forwards {
		forwards[f.Call] = f
	}
	sends := map[*ast.CallExpr]*outbound.Send{}
	for _, s := range res.Sends {
		sends[s.Call] = s
	}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	afterDoneOnly := c.afterDoneFuncs(ins)
	ins.WithStack([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		call := n.(*ast.CallExpr)
		if c.rep.Skip(call.Pos()) {
			return true
		}
		caller := c.m.CallerOf(stack)
		if caller == nil || c.afterDone(stack) || analysisutil.CancelledBy(pass.TypesInfo, stack, caller.Func, c.cancelsOf(caller.Func)) {
			return true
		}
		if c.sharedWork(stack, caller.Func) {
			return true // once.Do(func() { ... }): done for every caller
		}
		if c.deliberate(stack, caller.Func) {
			return true // cleanup on the way out, work that runs later
		}
		if d, ok := caller.Func.(*ast.FuncDecl); ok {
			if fn, _ := pass.TypesInfo.Defs[d.Name].(*types.Func); fn != nil && afterDoneOnly[fn] {
				return true // a helper that runs only once the caller's context is done
			}
		}
		c.stack = stack
		switch {
		case res.ByCall[call] != nil:
			c.checkOutbound(res.ByCall[call], caller)
		case forwards[call] != nil:
			c.checkForward(forwards[call], caller)
		case sends[call] != nil:
			c.checkSend(sends[call], caller)
		case res.LocalByCall[call] != nil:
		default:
			if !c.checkDerive(call, caller, stack) {
				c.checkCtxCall(call, caller)
			}
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

// what names the deadline-free context a call gets: the root call itself
// (context.Background()), or the variable holding it with where it comes
// from ("cctx (made from context.Background())").
func (c *checker) what(root *ast.CallExpr, arg ast.Expr) string {
	d := "context.Background()"
	if root != nil {
		d = c.rootName(root)
	}
	if id, ok := ast.Unparen(arg).(*ast.Ident); ok && arg != nil {
		return id.Name + " (made from " + d + ")"
	}
	return d
}

// checkOutbound reports Background/TODO reaching an outbound call.
func (c *checker) checkOutbound(oc *outbound.Call, caller *ctxflow.Caller) {
	o, ok := outbound.CallContext(c.m, oc)
	if !ok || o.State != ctxflow.Free || !o.Detached {
		return
	}
	root := o.Root()
	what := c.what(root, oc.Ctx())
	advice := fmt.Sprintf("pass %s (if the call must outlive the caller, use context.WithoutCancel(%s) with its own timeout)", c.ctxWord(caller, oc.Call), c.ctxWord(caller, oc.Call))
	c.report(analysis.Diagnostic{
		Pos: oc.Call.Pos(), End: oc.Call.End(),
		Message: fmt.Sprintf("%s gets %s although this function has %s: the call ignores the caller's deadline and cancellation and keeps running after the caller has given up; %s",
			oc.Name(), what, callerName(caller), advice),
		SuggestedFixes: c.replaceRoot(root, caller, oc.Call),
	})
}

// checkForward reports Background/TODO handed to a function that forwards
// it to an outbound call.
func (c *checker) checkForward(f *outbound.Forward, caller *ctxflow.Caller) {
	for _, fp := range f.Fact.Params {
		if fp.Index >= len(f.Call.Args) || c.res.Async(f.Call, fp.Index) {
			continue // a component's Start: the context is its goroutine's lifetime
		}
		o := c.m.Context(f.Call.Args[fp.Index])
		if o.State != ctxflow.Free || !o.Detached {
			continue
		}
		root := o.Root()
		what := c.what(root, f.Call.Args[fp.Index])
		advice := "pass " + c.ctxWord(caller, f.Call)
		c.report(analysis.Diagnostic{
			Pos: f.Call.Pos(), End: f.Call.End(),
			Message: fmt.Sprintf("%s gets %s although this function has %s, and forwards it to %s: the call ignores the caller's deadline and cancellation and keeps running after the caller has given up; %s",
				analysisutil.Name(f.Fn), what, callerName(caller), outbound.Chain(fp.Chain), advice),
			SuggestedFixes: c.replaceRoot(root, caller, f.Call),
		})
		return
	}
}

// checkSend reports a request built on Background/TODO handed to a
// function that sends it.
func (c *checker) checkSend(s *outbound.Send, caller *ctxflow.Caller) {
	for _, sp := range s.Fact.Params {
		o, ok := outbound.SentRequest(c.m, s, sp)
		if !ok || o.State != ctxflow.Free || !o.Detached {
			continue
		}
		root := o.Root()
		what := c.what(root, nil)
		c.report(analysis.Diagnostic{
			Pos: s.Call.Pos(), End: s.Call.End(),
			Message: fmt.Sprintf("%s is given a request built on %s although this function has %s, and sends it with %s: the call ignores the caller's deadline and cancellation and keeps running after the caller has given up; build the request with %s",
				analysisutil.Name(s.Fn), what, callerName(caller), outbound.Chain(sp.Chain), c.ctxWord(caller, s.Call)),
			SuggestedFixes: c.replaceRoot(root, caller, nil),
		})
		return
	}
}

// checkDerive reports WithTimeout/WithDeadline on Background/TODO, and
// request-path timeouts longer than the budget. It returns false when call
// derives no context.
func (c *checker) checkDerive(call *ast.CallExpr, caller *ctxflow.Caller, stack []ast.Node) bool {
	fn, _ := c.m.Callee(call)
	if fn == nil {
		return false
	}
	row, ok := c.table.Contexts[analysisutil.Key(fn)]
	if !ok {
		return false
	}
	if row.Effect != knowledge.AddDeadline || row.Parent >= len(call.Args) {
		return true
	}
	parent := c.m.Context(call.Args[row.Parent])
	if parent.State == ctxflow.Free && parent.Detached {
		root := parent.Root()
		what := c.what(root, call.Args[row.Parent])
		advice := "derive it from " + c.ctxWord(caller, call)
		fixes := c.replaceRoot(root, caller, nil)
		if _, _, over := c.overBudget(call, row, stack); over {
			// Derived from the request, this timeout would exceed the
			// request budget (reported then): no fix.
			advice += " with a timeout within the request budget"
			fixes = nil
		}
		c.report(analysis.Diagnostic{
			Pos: call.Pos(), End: call.End(),
			Message: fmt.Sprintf("%s on %s although this function has %s: the new deadline ignores how much of the caller's budget is left, and the caller's cancellation never reaches it; %s",
				analysisutil.Name(fn), what, callerName(caller), advice),
			SuggestedFixes: fixes,
		})
		return true
	}
	// Request-path budget. A parent with no deadline of the caller's — one
	// detached on purpose with WithoutCancel(ctx) for work that must
	// outlive the request, or a fresh context used only to shut down —
	// carries no request budget to exceed.
	if parent.State == ctxflow.Free {
		return true
	}
	d, where, over := c.overBudget(call, row, stack)
	if !over {
		return true
	}
	budget := time.Duration(c.cfg.RequestBudget)
	c.report(analysis.Diagnostic{
		Pos: call.Pos(), End: call.End(),
		Message: fmt.Sprintf("%s allows %s %s, longer than the %s request budget: the client gives up long before, and the work and connections it holds are wasted; use a timeout within the budget (or raise -request-budget if this path really needs longer)",
			analysisutil.Name(fn), d, where, budget),
	})
	return true
}

// overBudget reports whether a WithTimeout/WithDeadline call, derived
// from the caller's context, allows more than the request budget on a
// request path (or, with BudgetEverywhere, in any function with the
// caller's context), and where it is.
func (c *checker) overBudget(call *ast.CallExpr, row knowledge.ContextFunc, stack []ast.Node) (time.Duration, string, bool) {
	w := analysisutil.WhereOf(stack)
	serves := w.Decl != nil && c.m.ServesRequest(w.Decl)
	if lit, ok := w.Func.(*ast.FuncLit); ok && !serves {
		serves = c.m.ServesRequestLit(lit) // a HandlerFunc literal, a middleware
	}
	if !serves && (w.Decl == nil || !c.cfg.BudgetEverywhere) {
		return 0, "", false
	}
	d, ok := c.duration(call, row)
	if !ok || d <= time.Duration(c.cfg.RequestBudget) {
		return 0, "", false
	}
	if c.boundsNoRequest(stack, w.Body) {
		return 0, "", false
	}
	where := "on a request path"
	if !serves {
		where = "in a function that has the caller's context"
	}
	return d, where, true
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
// context is done: after a statement <-ctx.Done(), in the case
// <-ctx.Done() of a select, or after a loop that ends only when a context
// is done (for ctx.Err() == nil { ... }, or a loop whose only break is in
// a case <-ctx.Done()), or after a select left only through its case
// <-ctx.Done(). The caller's context is spent there, and a
// fresh one is what the code needs (a graceful shutdown with its own
// timeout: srv.Shutdown(context.WithTimeout(context.Background(), d))).
// cancelsOf returns analysisutil.ParamCancels of fn, once per function.
func (c *checker) cancelsOf(fn ast.Node) map[types.Object]bool {
	if cs, ok := c.cancels[fn]; ok {
		return cs
	}
	if c.cancels == nil {
		c.cancels = map[ast.Node]map[types.Object]bool{}
	}
	cs := analysisutil.ParamCancels(c.pass.TypesInfo, fn)
	c.cancels[fn] = cs
	return cs
}

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
			if analysisutil.DoneRecv(c.pass.TypesInfo, st) || c.endsOnDone(st) {
				return true
			}
		}
	}
	return false
}

// checkCtxCall reports Background/TODO handed, as the first argument, to a
// function that takes a context first and is not an outbound call resilint
// knows: an exported function or method of this module (its context is
// part of its contract), or a method reached through an interface or a
// method value whose results include an error (an SDK client behind an
// interface: s.store.Get(ctx, k)). Functions that return a context (a span
// starter, a logger's WithContext) only derive one, and are not reported.
func (c *checker) checkCtxCall(call *ast.CallExpr, caller *ctxflow.Caller) {
	fn, _ := c.m.Callee(call)
	if fn == nil || len(call.Args) == 0 {
		return
	}
	sig := fn.Signature()
	if sig.Params().Len() == 0 || !analysisutil.IsContext(sig.Params().At(0).Type()) {
		return
	}
	o := c.m.Context(call.Args[0])
	if o.State != ctxflow.Free || !o.Detached || c.res.Async(call, 0) {
		return
	}
	for i := 0; i < sig.Results().Len(); i++ {
		if analysisutil.IsContext(sig.Results().At(i).Type()) {
			return
		}
	}
	key := analysisutil.Key(fn)
	if _, ok := c.table.Contexts[key]; ok {
		return
	}
	abstract := sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
	methodValue := c.throughVariable(call)
	switch {
	case abstract || methodValue:
		if !returnsError(sig) {
			return
		}
		if abstract && c.m.ImplementationsCtxInert(fn) {
			return // every implementation in sight ignores the context
		}
	case fn.Exported() && c.sameModule(fn.Pkg()):
		if name := sig.Params().At(0).Name(); name == "" || name == "_" {
			return // it throws the context away
		}
		if c.m.CtxInert(fn) {
			return // it only reads values from the context: nothing to drop
		}
		if sig.Recv() != nil {
			if n, ok := types.Unalias(analysisutil.Deref(sig.Recv().Type())).(*types.Named); ok && !n.Obj().Exported() {
				return
			}
		}
	default:
		return
	}
	root := o.Root()
	what := c.what(root, call.Args[0])
	c.report(analysis.Diagnostic{
		Pos: call.Pos(), End: call.End(),
		Message: fmt.Sprintf("%s takes a context and gets %s although this function has %s: it ignores the caller's deadline and cancellation; pass %s",
			analysisutil.Name(fn), what, callerName(caller), c.ctxWord(caller, call)),
		SuggestedFixes: c.replaceRoot(root, caller, call),
	})
}

// throughVariable reports whether a call goes through a variable holding
// a method value or a function (get := c.Get; get(ctx, k)).
func (c *checker) throughVariable(call *ast.CallExpr) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	_, isVar := c.pass.TypesInfo.Uses[id].(*types.Var)
	return isVar
}

func returnsError(sig *types.Signature) bool {
	for i := 0; i < sig.Results().Len(); i++ {
		if types.Identical(sig.Results().At(i).Type(), types.Universe.Lookup("error").Type()) {
			return true
		}
	}
	return false
}

// sameModule reports whether pkg belongs to the module of the package
// being analysed (without module information: is that package).
func (c *checker) sameModule(pkg *types.Package) bool {
	if pkg == nil {
		return false
	}
	if pkg == c.pass.Pkg {
		return true
	}
	mod := c.pass.Module
	if mod == nil || mod.Path == "" {
		return false
	}
	p := pkg.Path()
	return p == mod.Path || strings.HasPrefix(p, mod.Path+"/")
}

// boundsNoRequest reports whether the context a WithTimeout call at the
// top of stack derives is used only by local work (a subprocess, files) or
// by dials: a subprocess's or a connect's timeout is no request budget.
func (c *checker) boundsNoRequest(stack []ast.Node, body *ast.BlockStmt) bool {
	if len(stack) < 2 || body == nil {
		return false
	}
	as, ok := stack[len(stack)-2].(*ast.AssignStmt)
	if !ok || len(as.Lhs) == 0 {
		return false
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if v == nil {
		return false
	}
	uses, local := 0, 0
	var visit func(n ast.Node, call *ast.CallExpr)
	visit = func(n ast.Node, call *ast.CallExpr) {
		ast.Inspect(n, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.CallExpr:
				if x == call {
					return true
				}
				for _, a := range x.Args {
					visit(a, x)
				}
				visit(x.Fun, call)
				return false
			case *ast.Ident:
				if c.pass.TypesInfo.Uses[x] != v {
					return true
				}
				uses++
				if call == nil {
					return true
				}
				if oc := c.res.ByCall[call]; oc != nil && (oc.Spec.Kind == knowledge.Dial || oc.Spec.Kind == knowledge.TLS) {
					local++
				} else if c.res.Locality(call).Locality == outbound.Local {
					local++
				}
			}
			return true
		})
	}
	visit(body, nil)
	return uses > 0 && uses == local
}
