package ctxdeadline

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

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
var Doc = analysisutil.MustDoc(docSrc, "ctxdeadline")

// Analyzer is ctxdeadline with the default configuration.
var Analyzer = New(config.Default())

// New returns the analyzer for a configuration.
func New(cfg *config.Config) *analysis.Analyzer {
	return cfg.Memo("ctxdeadline", func() *analysis.Analyzer {
		ob := outbound.New(cfg)
		return &analysis.Analyzer{
			Name:     Doc.Name,
			Doc:      Doc.Text(),
			URL:      "https://github.com/resilint/resilint/blob/main/analyzers/ctxdeadline/doc.go",
			Requires: []*analysis.Analyzer{inspect.Analyzer, ob},
			Run:      func(pass *analysis.Pass) (any, error) { return run(pass, cfg, ob) },
		}
	})
}

type checker struct {
	pass  *analysis.Pass
	cfg   *config.Config
	res   *outbound.Result
	m     *ctxflow.Model
	table *knowledge.Table
	rep   *analysisutil.Reporter
	names analysisutil.Names // of the variables the fixes declare

	timeouts []timeoutReq // findings whose timeout fixes are chosen together
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
	recontexted := c.recontexted()
	reads := res.ConnReads()

	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	ins.WithStack([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		call := n.(*ast.CallExpr)
		if c.rep.Skip(call.Pos()) {
			return true
		}
		if cr := reads[call]; cr != nil {
			c.checkConnRead(cr)
		}
		if oc := res.ByCall[call]; oc != nil {
			c.checkCall(oc, stack)
		} else if f := forwards[call]; f != nil {
			c.checkForward(f, stack)
		} else if s := sends[call]; s != nil {
			c.checkSend(s, stack)
		} else {
			c.checkNewRequest(call, stack, recontexted)
		}
		return true
	})
	c.flushTimeouts()
	return nil, nil
}

// checkCall reports an outbound call that has no deadline.
func (c *checker) checkCall(oc *outbound.Call, stack []ast.Node) {
	ev := oc.Evidence()
	if ev.Schema {
		return // a schema change runs as long as the migration needs
	}
	if o := ev.Context; ev.HasContext && o.State == ctxflow.Free && o.HelperNoCtx && o.Root() != nil {
		if caller := c.m.CallerOf(stack); caller != nil {
			if fn, _ := c.m.Callee(o.Root()); fn != nil {
				ctxExpr := or(caller.Expr(c.pass.Pkg, oc.Call.Pos()), "ctx")
				c.rep.Report(analysis.Diagnostic{
					Pos: oc.Call.Pos(), End: oc.Call.End(),
					Message: fmt.Sprintf("%s sends a request that %s builds without a context, although this function has the caller's context: the request ignores the caller's deadline and cancellation; send req.WithContext(%s)",
						oc.Name(), analysisutil.Name(fn), ctxExpr),
				})
				return
			}
		}
	}
	if !ev.Unbounded() {
		return // its own timeout, a client Timeout, or a client of unknown make
	}
	o, hasCtx := ev.Context, ev.HasContext
	caller := c.m.CallerOf(stack)
	if !hasCtx {
		c.rep.Report(analysis.Diagnostic{
			Pos: oc.Call.Pos(), End: oc.Call.End(),
			Message:        c.noContextMessage(oc, caller, oc.Call.Pos()),
			SuggestedFixes: c.variantFix(oc, caller, stack),
		})
		return
	}
	if o.State != ctxflow.Free || o.NoCtxRequest {
		return // http.NewRequest is reported on its own line
	}
	if o.Detached && caller != nil {
		return // detachedctx: Background/TODO while a caller's context is in scope
	}
	msg := fmt.Sprintf("%s gets %s, which has no deadline%s: %s %s%s; %s",
		oc.Name(), c.describeArg(o, oc.Ctx()), clientNote(ev), peer(oc), holds(oc), readyNote(ev), advice(oc))
	if root := o.Root(); o.HelperNoCtx && root != nil {
		if fn, _ := c.m.Callee(root); fn != nil {
			msg = fmt.Sprintf("%s sends a request that %s builds without a context, so it has no deadline%s: %s %s; %s",
				oc.Name(), analysisutil.Name(fn), clientNote(ev), peer(oc), holds(oc), advice(oc))
		}
	}
	if ev.Stream == outbound.FiniteStream {
		msg = fmt.Sprintf("%s opens a stream on %s, which has no deadline, and reads it to its end%s: %s %s%s; %s",
			oc.Name(), c.describeArg(o, oc.Ctx()), clientNote(ev), peer(oc), holds(oc), readyNote(ev), advice(oc))
	}
	c.reportTimeout(analysis.Diagnostic{
		Pos: oc.Call.Pos(), End: oc.Call.End(),
		Message: msg,
	}, oc.Call, o, stack)
}

// checkConnRead reports the first read of a connection the function dials,
// when no deadline is set on the connection before it.
func (c *checker) checkConnRead(cr *outbound.ConnRead) {
	dial := ""
	if !cr.Dial.Evidence().Unbounded() {
		dial = " (the dial's timeout bounds only the connect)"
	}
	name := cr.Conn.Name()
	c.rep.Report(analysis.Diagnostic{
		Pos: cr.Read.Pos(), End: cr.Read.End(),
		Message: fmt.Sprintf("%s waits for the server on %s, which has no read deadline%s: a server that accepts and then stays silent holds this read until the connection is closed; call %s.SetReadDeadline (or SetDeadline) with the caller's remaining budget before reading",
			types.ExprString(cr.Read.Fun), name, dial, name),
	})
}

// holds says how long the peer holds the goroutine: forever, when nothing
// bounds the call; for a database, as long as the database lets it (a
// server-side statement timeout may end it).
func holds(oc *outbound.Call) string {
	if oc.Spec.Kind == knowledge.SQL {
		return "holds this goroutine for as long as the database lets it"
	}
	return "holds this goroutine forever"
}

// readyNote says that a call waiting for its connection to become ready
// has no bound on that wait either.
func readyNote(ev *outbound.Evidence) string {
	if !ev.WaitForReady {
		return ""
	}
	return ", and WaitForReady(true) makes it wait for the connection too: while the server is down it waits forever instead of failing"
}

// checkForward reports a deadline-free context handed to a function that
// forwards it to an outbound call nothing else bounds.
func (c *checker) checkForward(f *outbound.Forward, stack []ast.Node) {
	caller := c.m.CallerOf(stack)
	for _, fp := range f.Fact.Params {
		if fp.Index >= len(f.Call.Args) || !fp.UnboundedAt(c.m, f.Call) {
			continue
		}
		o := c.m.Context(f.Call.Args[fp.Index])
		if o.State != ctxflow.Free || (o.Detached && caller != nil) {
			continue
		}
		c.reportTimeout(analysis.Diagnostic{
			Pos: f.Call.Pos(), End: f.Call.End(),
			Message: fmt.Sprintf("%s gets %s, which has no deadline, and forwards it to %s, which nothing else bounds: a slow dependency holds this goroutine forever; pass a context with a deadline (context.WithTimeout)",
				analysisutil.Name(f.Fn), c.describeArg(o, f.Call.Args[fp.Index]), outbound.Chain(fp.Chain)),
		}, f.Call, o, stack)
		return
	}
}

// checkSend reports a request built on a deadline-free context handed to a
// function that sends it with a client nothing else bounds.
func (c *checker) checkSend(s *outbound.Send, stack []ast.Node) {
	caller := c.m.CallerOf(stack)
	for _, sp := range s.Fact.Params {
		if !sp.Unbounded {
			continue
		}
		o, ok := outbound.SentRequest(c.m, s, sp)
		if !ok || o.State != ctxflow.Free || o.NoCtxRequest || (o.Detached && caller != nil) {
			continue // http.NewRequest is reported on its own line
		}
		given := "a request built on " + c.describe(o) + ", which has no deadline,"
		if root := o.Root(); root != nil && o.HelperNoCtx {
			if fn, _ := c.m.Callee(root); fn != nil {
				given = "a request that " + analysisutil.Name(fn) + " builds without a context, so with no deadline,"
			}
		}
		c.rep.Report(analysis.Diagnostic{
			Pos: s.Call.Pos(), End: s.Call.End(),
			Message: fmt.Sprintf("%s is given %s and sends it with %s, which nothing else bounds: a slow or silent server holds this goroutine forever; build the request with a context that has a deadline (context.WithTimeout)",
				analysisutil.Name(s.Fn), given, outbound.Chain(sp.Chain)),
		})
		return
	}
}

// recontexted returns the request variables that get a context after they
// are built (req = req.WithContext(ctx), r2 := req.Clone(ctx), or a helper
// that does so to the request it is given).
func (c *checker) recontexted() map[*types.Var]bool {
	out := map[*types.Var]bool{}
	ins := c.pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
		call := n.(*ast.CallExpr)
		var cands []ast.Expr
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			cands = append(cands, sel.X)
		}
		cands = append(cands, call.Args...)
		for _, e := range cands {
			id, ok := ast.Unparen(e).(*ast.Ident)
			if !ok {
				continue
			}
			v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
			if ok && !out[v] && c.m.RecontextCall(call, v) {
				out[v] = true
			}
		}
	})
	return out
}

// checkNewRequest reports http.NewRequest when a caller's context is in
// scope, or when the function sends the request with a client that has no
// Timeout.
func (c *checker) checkNewRequest(call *ast.CallExpr, stack []ast.Node, recontexted map[*types.Var]bool) {
	fn, _ := c.m.Callee(call)
	if fn == nil {
		return
	}
	row, ok := c.table.Requests[analysisutil.Key(fn)]
	if !ok || row.Ctx != knowledge.None {
		return
	}
	if row.URL >= 0 && row.URL < len(call.Args) && c.res.URLPlace(call.Args[row.URL]).Locality == outbound.Local {
		return // a request to this machine (loopback, a unix socket) waits on no dependency
	}
	v := assignedVar(c.pass.TypesInfo, stack, row.Result)
	if v != nil && recontexted[v] {
		return
	}
	caller := c.m.CallerOf(stack)
	if caller != nil {
		// A request handed back to the caller (returned, or kept in a
		// field) is judged where it is sent: the caller may give it a
		// context (kit's CreateRequestFunc, a client whose Do sends
		// req.WithContext(ctx)).
		back := handedBack(c.pass.TypesInfo, stack, v)
		if back {
			return
		}
		if !back && v != nil && !c.sent(v, analysisutil.WhereOf(stack).Body) {
			// Not sent here (written to a raw connection, dumped, signed):
			// its context bounds nothing that can be seen.
			return
		}
		ctxExpr := caller.Expr(c.pass.Pkg, call.Pos())
		msg := fmt.Sprintf("%s gives the request context.Background(), which has no deadline, although this function has the caller's context: the request ignores the caller's deadline and cancellation; use %s(%s, ...)",
			analysisutil.Name(fn), row.Variant, or(ctxExpr, "ctx"))
		c.rep.Report(analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Message: msg, SuggestedFixes: c.requestFix(call, row, ctxExpr, caller, stack)})
		return
	}
	if v == nil {
		return
	}
	w := analysisutil.WhereOf(stack)
	var send *outbound.Call // the first send after the request is built, else any
	for _, oc := range c.res.Calls {
		if oc.Request() == nil || w.Decl == nil || oc.Call.Pos() < w.Decl.Pos() || oc.Call.End() > w.Decl.End() {
			continue
		}
		o := c.m.Request(oc.Request())
		if !o.NoCtxRequest || !contains(o.Roots, call) || !oc.Evidence().Unbounded() {
			continue
		}
		after := oc.Call.Pos() > call.Pos()
		if send == nil || after && (send.Call.Pos() < call.Pos() || oc.Call.Pos() < send.Call.Pos()) {
			send = oc
		}
	}
	if oc := send; oc != nil {
		line := c.pass.Fset.Position(oc.Call.Pos()).Line
		msg := fmt.Sprintf("%s gives the request context.Background(), which has no deadline, and %s on line %d sends it%s: a slow or silent server holds this goroutine forever; use %s with a context that has a deadline",
			analysisutil.Name(fn), oc.Name(), line, clientNote(oc.Evidence()), row.Variant)
		c.rep.Report(analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Message: msg})
		return
	}
	// A helper of the module that sends the request it is given.
	for _, s := range c.res.Sends {
		if w.Decl == nil || s.Call.Pos() < w.Decl.Pos() || s.Call.End() > w.Decl.End() {
			continue
		}
		for _, sp := range s.Fact.Params {
			o, ok := outbound.SentRequest(c.m, s, sp)
			if !ok || !sp.Unbounded || !o.NoCtxRequest || !contains(o.Roots, call) {
				continue
			}
			line := c.pass.Fset.Position(s.Call.Pos()).Line
			msg := fmt.Sprintf("%s gives the request context.Background(), which has no deadline, and %s on line %d sends it with %s, which nothing else bounds: a slow or silent server holds this goroutine forever; use %s with a context that has a deadline",
				analysisutil.Name(fn), analysisutil.Name(s.Fn), line, outbound.Chain(sp.Chain), row.Variant)
			c.rep.Report(analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Message: msg})
			return
		}
	}
}

// sent reports whether body hands the request variable v to something
// that sends it: an outbound send, a helper that sends the request it is
// given (SendFact), or a function value or interface method (a Doer),
// which may.
func (c *checker) sent(v *types.Var, body *ast.BlockStmt) bool {
	if body == nil {
		return false
	}
	info := c.pass.TypesInfo
	isV := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == v
	}
	sends := map[*ast.CallExpr]bool{}
	for _, s := range c.res.Sends {
		sends[s.Call] = true
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		passes := false
		for _, a := range call.Args {
			if isV(a) {
				passes = true
			}
		}
		if !passes {
			return true
		}
		if c.res.ByCall[call] != nil || sends[call] {
			found = true
			return false
		}
		fn, _ := c.m.Callee(call)
		if fn == nil || fn.Signature().Recv() != nil && types.IsInterface(fn.Signature().Recv().Type()) || c.table.Senders[analysisutil.Key(fn)] {
			found = true
		}
		return !found
	})
	return found
}

func contains(list []*ast.CallExpr, call *ast.CallExpr) bool {
	for _, c := range list {
		if c == call {
			return true
		}
	}
	return false
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// assignedVar returns the variable that receives result index of the call at
// the top of stack (req, err := http.NewRequest(...)).
func assignedVar(info *types.Info, stack []ast.Node, index int) *types.Var {
	if len(stack) < 2 {
		return nil
	}
	call := stack[len(stack)-1]
	var lhs []ast.Expr
	switch p := stack[len(stack)-2].(type) {
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 || p.Rhs[0] != call {
			return nil
		}
		lhs = p.Lhs
	case *ast.ValueSpec:
		if len(p.Values) != 1 || p.Values[0] != call {
			return nil
		}
		for _, n := range p.Names {
			lhs = append(lhs, n)
		}
	default:
		return nil
	}
	if index >= len(lhs) {
		return nil
	}
	id, ok := lhs[index].(*ast.Ident)
	if !ok {
		return nil
	}
	if v, ok := info.Defs[id].(*types.Var); ok {
		return v
	}
	v, _ := info.Uses[id].(*types.Var)
	return v
}

// describe names a deadline-free context for a message.
func (c *checker) describe(o ctxflow.Origin) string {
	if root := o.Root(); root != nil {
		fn, _ := c.m.Callee(root)
		if fn != nil && o.HelperNoCtx {
			return "a request " + analysisutil.Name(fn) + " builds without a context"
		}
		if fn != nil {
			if row, ok := c.table.Contexts[analysisutil.Key(fn)]; ok {
				switch row.Effect {
				case knowledge.Root:
					return analysisutil.Name(fn) + "()"
				case knowledge.DropDeadline:
					return "a context from " + analysisutil.Name(fn)
				}
			}
			return "a context derived from " + analysisutil.Name(fn)
		}
	}
	return "a context with no deadline"
}

// describeArg names the context argument arg for a message: the root call
// itself (context.Background()), or a variable with where it comes from
// ("ctx (made from context.Background())").
func (c *checker) describeArg(o ctxflow.Origin, arg ast.Expr) string {
	d := c.describe(o)
	root := o.Root()
	if arg == nil || root == nil || ast.Unparen(arg) == ast.Expr(root) {
		return d
	}
	if id, ok := ast.Unparen(arg).(*ast.Ident); ok {
		return id.Name + " (made from " + strings.TrimPrefix(d, "a context from ") + ")"
	}
	return d
}

// clientNote names what proves that nothing else bounds the call: the
// notes of its absent bounds.
func clientNote(ev *outbound.Evidence) string {
	s := ""
	for _, b := range ev.Bounds {
		if b.Proof == outbound.Absent && b.Note != "" {
			s += " and " + b.Note
		}
	}
	return s
}

func peer(oc *outbound.Call) string {
	switch oc.Spec.Kind {
	case knowledge.HTTP:
		return "a slow or silent server"
	case knowledge.GRPC:
		return "a slow or stuck server"
	case knowledge.Dial, knowledge.TLS:
		return "an unreachable or silent host"
	case knowledge.SQL:
		if oc.Spec.Pool {
			return "an unreachable database or an exhausted connection pool"
		}
		return "a slow query or a lock wait"
	}
	return "a slow dependency"
}

func advice(oc *outbound.Call) string {
	switch {
	case oc.Spec.Kind == knowledge.HTTP && oc.Spec.Client != knowledge.NoClient:
		return "derive the context with context.WithTimeout from the caller's budget, or set Timeout on the client"
	case oc.Spec.Client == knowledge.Receiver || oc.Spec.Client == knowledge.Argument:
		return "derive the context with context.WithTimeout from the caller's budget, or set Timeout on the dialer"
	}
	return "derive the context with context.WithTimeout from the caller's budget"
}

// noContextMessage explains a call that takes no context.
func (c *checker) noContextMessage(oc *outbound.Call, caller *ctxflow.Caller, pos token.Pos) string {
	name := oc.Name()
	switch oc.Spec.Kind {
	case knowledge.HTTP:
		if oc.Spec.Client == knowledge.DefaultClient {
			return fmt.Sprintf("%s has no deadline: it takes no context and http.DefaultClient has no Timeout, so a slow or silent server holds this goroutine forever; build the request with http.NewRequestWithContext and a context that has a deadline, and send it with client.Do", name)
		}
		pkg := "http"
		if oc.Fn != nil && oc.Fn.Pkg() != nil {
			pkg = oc.Fn.Pkg().Name() // retryablehttp builds its own requests
		}
		return fmt.Sprintf("%s has no deadline: it takes no context and the client has no Timeout, so a slow or silent server holds this goroutine forever; set Timeout on the client, or use %s.NewRequestWithContext with a context that has a deadline and client.Do", name, pkg)
	case knowledge.Dial:
		return fmt.Sprintf("%s has no timeout: an unreachable or silent host blocks it until the operating system gives up, minutes later; use (&net.Dialer{Timeout: ...}).DialContext(ctx, ...) or net.DialTimeout", name)
	case knowledge.TLS:
		return fmt.Sprintf("%s has no timeout: an unreachable or silent host blocks the dial and the handshake with no bound; use (&tls.Dialer{NetDialer: &net.Dialer{Timeout: ...}}).DialContext(ctx, ...)", name)
	case knowledge.SQL:
		if caller == nil {
			// No caller's budget is dropped; what the code proves is that
			// no deadline reaches the call. A driver's read timeout (in
			// its DSN) is the one bound out of sight: named, not denied.
			return fmt.Sprintf("%s has no deadline: it takes no context, so no deadline or cancellation reaches it, and %s %s (a read timeout in the driver's DSN, if it sets one, is the only other bound); use %s with a context that has a deadline",
				name, peer(oc), holds(oc), oc.Spec.Variant)
		}
		ctxExpr := or(caller.Expr(c.pass.Pkg, pos), "ctx")
		return fmt.Sprintf("%s has no deadline: it takes no context, so the caller's deadline and cancellation (%s) never reach it, and %s %s; use %s(%s, ...)",
			name, ctxExpr, peer(oc), holds(oc), oc.Spec.Variant, ctxExpr)
	}
	variant := ""
	if oc.Spec.Variant != "" {
		variant = "; use " + oc.Spec.Variant + " with a context that has a deadline"
	} else {
		variant = "; give it a context with a deadline"
	}
	return fmt.Sprintf("%s has no deadline: it takes no context, so a slow dependency holds this goroutine forever%s", name, variant)
}

// handedBack reports whether the request a call builds is returned to the
// caller, directly (return http.NewRequest(...)) or through its variable,
// or stored in a field for later use.
func handedBack(info *types.Info, stack []ast.Node, v *types.Var) bool {
	if len(stack) >= 2 {
		if _, ok := stack[len(stack)-2].(*ast.ReturnStmt); ok {
			return true
		}
	}
	body := analysisutil.WhereOf(stack).Body
	if v == nil || body == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if id, ok := ast.Unparen(r).(*ast.Ident); ok && info.Uses[id] == v {
					found = true
				}
			}
		case *ast.AssignStmt:
			// Stored for later use (s.req = req): where it is sent, it may
			// get its context (s.client.Do(s.req.WithContext(ctx))).
			for i, r := range n.Rhs {
				if id, ok := ast.Unparen(r).(*ast.Ident); ok && info.Uses[id] == v && i < len(n.Lhs) {
					if _, isField := ast.Unparen(n.Lhs[i]).(*ast.SelectorExpr); isField {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}
