// Package outbound finds the outbound calls of a package (HTTP requests,
// gRPC calls, dials, database/sql calls and a team's own wrappers, as the
// knowledge table lists them) and the functions that forward a context
// parameter to such a call.
//
// It exports a [ForwardFact] for every function that passes one of its
// context parameters, unchanged in deadline (through assignments and
// inheriting wrappers), to an outbound call or to another forwarding
// function, so that a caller handing it a deadline-free context can be
// reported at its call, across packages.
package outbound

import (
	"go/ast"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
	"github.com/resilint/resilint/passes/ctxflow"
)

// New returns the pass for a configuration.
func New(cfg *config.Config) *analysis.Analyzer {
	return cfg.Memo("outbound", func() *analysis.Analyzer {
		flow := ctxflow.New(cfg)
		return &analysis.Analyzer{
			Name:       "outbound",
			Doc:        "finds outbound calls and context-forwarding functions for resilint analyzers (helper pass; reports nothing)",
			Requires:   []*analysis.Analyzer{inspect.Analyzer, flow},
			Run:        func(pass *analysis.Pass) (any, error) { return run(pass, cfg, flow) },
			ResultType: reflect.TypeFor[*Result](),
			FactTypes:  []analysis.Fact{new(ForwardFact), new(SendFact), new(AsyncFact), new(SQLDriverFact), new(HandleFact)},
		}
	})
}

// Call is one outbound call.
type Call struct {
	Call *ast.CallExpr
	Fn   *types.Func
	Key  string
	Spec knowledge.Outbound
	// Recv is the receiver expression of a method call, or nil.
	Recv ast.Expr
	// RecvType is Recv's type, or nil.
	RecvType types.Type
	// Place is where the call goes: Remote or unknown for the calls in
	// Result.Calls, Local for those in Result.Local.
	Place Place
	// Decl is the function declaration the call is in, or nil.
	Decl *ast.FuncDecl

	m  *ctxflow.Model
	ev *Evidence
}

// Arg returns argument i of the call, or nil.
func (c *Call) Arg(i int) ast.Expr {
	if i < 0 || i >= len(c.Call.Args) {
		return nil
	}
	return c.Call.Args[i]
}

// Ctx returns the context argument, or nil when the call takes none.
func (c *Call) Ctx() ast.Expr { return c.Arg(c.Spec.Ctx) }

// Request returns the request argument, or nil.
func (c *Call) Request() ast.Expr { return c.Arg(c.Spec.Request) }

// Client returns the expression of the client or dialer whose timeout bounds
// the call, or nil.
func (c *Call) Client() ast.Expr {
	switch c.Spec.Client {
	case knowledge.Receiver:
		return c.Recv
	case knowledge.Argument:
		return c.Arg(c.Spec.ClientArg)
	}
	return nil
}

// Name is the callee's name for messages. A method promoted from an
// unexported embedded type (go-redis's commands, declared on cmdable) is
// named after the receiver the code holds: (*redis.Client).Get.
func (c *Call) Name() string {
	sig, _ := c.Fn.Type().(*types.Signature)
	if c.RecvType != nil && sig != nil && sig.Recv() != nil {
		if n, ok := types.Unalias(analysisutil.Deref(sig.Recv().Type())).(*types.Named); ok && !n.Obj().Exported() {
			if rn, ok := types.Unalias(analysisutil.Deref(c.RecvType)).(*types.Named); ok && rn.Obj().Exported() && rn.Obj().Pkg() == n.Obj().Pkg() {
				return "(" + types.TypeString(c.RecvType, func(p *types.Package) string { return p.Name() }) + ")." + c.Fn.Name()
			}
		}
	}
	return analysisutil.Name(c.Fn)
}

// ForwardFact is exported for a function that forwards context parameters to
// outbound calls.
type ForwardFact struct {
	Params []ForwardParam
}

// ForwardParam describes one forwarded context parameter.
type ForwardParam struct {
	// Index of the parameter (receiver excluded).
	Index int
	// Unbounded: the parameter reaches an outbound call that nothing else
	// bounds (no client Timeout), so its deadline is the call's only bound.
	Unbounded bool
	// Chain names the functions from this one's callee to the outbound call,
	// the outbound call last.
	Chain []string
	// Client, when not Unbounded, is 1 + the index of a parameter whose
	// client (an *http.Client, a dialer) bounds the outbound call
	// (GetJSON(ctx, hc, url) sends with hc.Do): the call is unbounded when
	// the caller's argument for it provably has no timeout. 0: none.
	Client int
	// RecvConn, when not Unbounded: the outbound call is a unary gRPC call
	// on a client the function reaches through its receiver's fields
	// (s.api.Reserve(ctx, ...)), so it is bounded when the caller's
	// receiver was made from a connection dialled with a deadline option
	// (NewStock(conn) on a conn with a deadline interceptor), and unbounded
	// otherwise.
	RecvConn bool
	// ConnParam, when not Unbounded, is 1 + the index of a parameter
	// holding the gRPC client the call goes through (heartbeat(ctx, cl)
	// calls cl.Report(ctx), a RecvConn method): the call is unbounded
	// unless the caller's argument for it traces to a connection dialled
	// with a deadline option. 0: none.
	ConnParam int
}

// UnboundedAt reports whether, at call, the parameter reaches an outbound
// call that nothing but its context bounds: always, or because the client
// the call passes for the Client parameter has no timeout.
func (p ForwardParam) UnboundedAt(m *ctxflow.Model, call *ast.CallExpr) bool {
	if p.Unbounded {
		return true
	}
	if p.RecvConn {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		return ok && m.ConnBound(sel.X, false) == ctxflow.NoTimeout
	}
	if p.ConnParam > 0 {
		return p.ConnParam <= len(call.Args) && !call.Ellipsis.IsValid() && m.ConnBound(call.Args[p.ConnParam-1], false) == ctxflow.NoTimeout
	}
	if p.Client <= 0 || p.Client > len(call.Args) || call.Ellipsis.IsValid() {
		return false
	}
	return m.Client(call.Args[p.Client-1]) == ctxflow.NoTimeout
}

func (*ForwardFact) AFact() {}

func (f *ForwardFact) String() string {
	s := "forwards"
	for _, p := range f.Params {
		s += paramString("ctx", p.Index, p.Unbounded, p.Chain)
	}
	return s
}

// paramString spells one parameter of a ForwardFact or SendFact:
// " ctx#1(unbounded)→a→b".
func paramString(kind string, index int, unbounded bool, chain []string) string {
	s := " " + kind + "#" + itoa(index)
	if unbounded {
		s += "(unbounded)"
	}
	return s + "→" + strings.Join(chain, "→")
}

// Param returns the forwarded parameter with index i.
func (f *ForwardFact) Param(i int) (ForwardParam, bool) {
	for _, p := range f.Params {
		if p.Index == i {
			return p, true
		}
	}
	return ForwardParam{}, false
}

func itoa(i int) string {
	if i < 10 && i >= 0 {
		return string(rune('0' + i))
	}
	if i < 0 {
		return "-" + itoa(-i)
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// Forward is a call to a function that forwards context parameters.
type Forward struct {
	Call *ast.CallExpr
	Fn   *types.Func
	Fact *ForwardFact
}

// Result is the pass's result for one package.
type Result struct {
	// Calls are the package's outbound calls that may reach another
	// machine (Place Remote or unknown), in source order.
	Calls  []*Call
	ByCall map[*ast.CallExpr]*Call
	// Local are the calls of outbound rows that provably stay on this
	// machine (a loopback address, a unix socket, an embedded database):
	// never a dependency. See Locality.
	Local       []*Call
	LocalByCall map[*ast.CallExpr]*Call
	// Forwards are the package's calls to forwarding functions.
	Forwards []*Forward
	// Sends are the package's calls to functions that send a request they
	// are given (SendFact).
	Sends []*Send
	// Model is the context-provenance model of the package.
	Model *ctxflow.Model
	// Relevant is false when the package imports nothing the knowledge
	// table knows; then the result is empty.
	Relevant bool

	table *knowledge.Table
	loc   *locator
	async map[*ast.CallExpr]*AsyncFact
	reads map[*ast.CallExpr]*ConnRead
}

const maxChain = 6

type state struct {
	pass   *analysis.Pass
	cfg    *config.Config
	table  *knowledge.Table
	model  *ctxflow.Model
	res    *Result
	byFunc map[*ast.FuncDecl][]ast.Node // outbound calls and forward calls per function
	memo   map[*types.Func]*ForwardFact
	busy   map[*types.Func]bool

	sendMemo map[*types.Func]*SendFact
	sendBusy map[*types.Func]bool

	asyncMemo map[*types.Func]*AsyncFact
	asyncBusy map[*types.Func]bool
}

func run(pass *analysis.Pass, cfg *config.Config, flow *analysis.Analyzer) (any, error) {
	model := pass.ResultOf[flow].(*ctxflow.Model)
	table := cfg.Table()
	res := &Result{ByCall: map[*ast.CallExpr]*Call{}, LocalByCall: map[*ast.CallExpr]*Call{}, Model: model, table: table,
		loc: &locator{m: model, t: table, pass: pass}}
	if !model.Relevant {
		return res, nil
	}
	res.Relevant = true
	s := &state{pass: pass, cfg: cfg, table: table, model: model, res: res,
		byFunc: map[*ast.FuncDecl][]ast.Node{}, memo: map[*types.Func]*ForwardFact{}, busy: map[*types.Func]bool{},
		sendMemo: map[*types.Func]*SendFact{}, sendBusy: map[*types.Func]bool{},
		asyncMemo: map[*types.Func]*AsyncFact{}, asyncBusy: map[*types.Func]bool{}}

	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	var decl *ast.FuncDecl
	var all []*ast.CallExpr
	ins.Nodes([]ast.Node{(*ast.FuncDecl)(nil), (*ast.CallExpr)(nil)}, func(n ast.Node, push bool) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if push {
				decl = n
				if s.implementsKnown(n) {
					// The body of a function the table already knows is
					// its implementation (http.Get calls DefaultClient.Get,
					// DB.Ping calls PingContext(Background)): findings
					// belong at its callers.
					return false
				}
			} else {
				decl = nil
			}
		case *ast.CallExpr:
			if !push {
				return true
			}
			all = append(all, n)
			c := s.match(n)
			if c != nil {
				c.Decl = decl
			}
			if c != nil && c.Place.Locality == Local {
				res.Local = append(res.Local, c)
				res.LocalByCall[n] = c
			} else if c != nil {
				res.Calls = append(res.Calls, c)
				res.ByCall[n] = c
				if decl != nil {
					s.byFunc[decl] = append(s.byFunc[decl], n)
				}
			} else if fn, _ := model.Callee(n); fn != nil {
				if decl != nil {
					s.byFunc[decl] = append(s.byFunc[decl], n)
				}
			}
		}
		return true
	})

	s.exportDrivers(all)
	s.exportHandles()

	// Facts for every function of the package, then the package's calls to
	// forwarding functions.
	for fn := range s.decls() {
		if f := s.forward(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
		if f := s.sendFact(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
		if f := s.asyncFact(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
	}
	ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
		call := n.(*ast.CallExpr)
		if _, ok := res.ByCall[call]; ok {
			return
		}
		fn, _ := model.Callee(call)
		if fn == nil {
			return
		}
		if f := s.forward(fn); f != nil {
			res.Forwards = append(res.Forwards, &Forward{Call: call, Fn: fn, Fact: f})
		}
		if f := s.sendFact(fn); f != nil {
			res.Sends = append(res.Sends, &Send{Call: call, Fn: fn, Fact: f})
		}
		if f := s.asyncFact(fn); f != nil {
			if res.async == nil {
				res.async = map[*ast.CallExpr]*AsyncFact{}
			}
			res.async[call] = f
		}
	})
	return res, nil
}

func (s *state) decls() map[*types.Func]*ast.FuncDecl {
	out := map[*types.Func]*ast.FuncDecl{}
	for _, f := range s.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fn, ok := s.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					out[fn] = fd
				}
			}
		}
	}
	return out
}

// implementsKnown reports whether decl declares a function that is itself a
// row of the table (an outbound call, a request or context constructor).
// Rows that cover every method of a type (OutboundTypes: a Redis client's
// commands) describe the type to its users: inside the module that defines
// it, its methods' bodies are code like any other, and the rules apply to
// the calls they make.
func (s *state) implementsKnown(decl *ast.FuncDecl) bool {
	fn, ok := s.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if !ok {
		return false
	}
	key := analysisutil.Key(fn)
	_, out := s.table.Outbound[key]
	_, grpc := s.table.GRPC.Methods[key]
	_, req := s.table.Requests[key]
	_, ctx := s.table.Contexts[key]
	return out || grpc || req || ctx
}

// match returns the outbound call n makes, if any.
func (s *state) match(n *ast.CallExpr) *Call {
	fn, recv := s.model.Callee(n)
	if fn == nil {
		return nil
	}
	key := analysisutil.Key(fn)
	if spec, ok := s.table.Outbound[key]; ok {
		c := &Call{Call: n, Fn: fn, Key: key, Spec: spec, Recv: recv, m: s.model}
		c.Place = s.place(c)
		if c.Place.Locality != Local && !s.streamNetwork(n, spec) {
			return nil // a UDP "dial" sends nothing and does not wait on a peer
		}
		return c
	}
	var c *Call
	if spec, ok := s.table.GRPC.Methods[key]; ok {
		c = &Call{Call: n, Fn: fn, Key: key, Spec: spec, Recv: recv}
	} else if spec, ok := s.typeMethod(fn); ok {
		c = &Call{Call: n, Fn: fn, Key: key, Spec: spec, Recv: recv}
		if recv != nil {
			c.RecvType = s.pass.TypesInfo.TypeOf(recv)
		}
	} else if recv != nil && s.grpcShape(fn) {
		spec := knowledge.NewOutbound(knowledge.GRPC, 0)
		spec.Stream = s.opensStream(fn)
		c = &Call{Call: n, Fn: fn, Key: key, Spec: spec, Recv: recv}
	} else {
		return nil
	}
	c.m = s.model
	c.Place = s.place(c)
	return c
}

// typeMethod returns the outbound row of a method of a type in
// OutboundTypes that takes a context first (rdb.Get(ctx, key)).
func (s *state) typeMethod(fn *types.Func) (knowledge.Outbound, bool) {
	if len(s.table.OutboundTypes) == 0 {
		return knowledge.Outbound{}, false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || sig.Params().Len() == 0 || !analysisutil.IsContext(sig.Params().At(0).Type()) {
		return knowledge.Outbound{}, false
	}
	spec, ok := s.table.OutboundTypes[analysisutil.TypeKey(sig.Recv().Type())]
	spec.Ctx = 0
	return spec, ok
}

// streamNetwork reports whether a dial may go to a remote stream peer: its
// network argument is unknown or names a stream network (tcp). Calls that
// take no network argument always may.
func (s *state) streamNetwork(call *ast.CallExpr, spec knowledge.Outbound) bool {
	if spec.Network < 0 || spec.Network >= len(call.Args) {
		return true
	}
	values, ok := s.model.Strings(call.Args[spec.Network])
	if !ok {
		return true
	}
	for _, v := range values {
		for _, p := range s.table.StreamNetworks {
			if strings.HasPrefix(v, p) {
				return true
			}
		}
	}
	return false
}

// grpcShape reports whether fn is a method shaped like a generated gRPC
// client method: (ctx context.Context, ..., opts ...grpc.CallOption).
func (s *state) grpcShape(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || !sig.Variadic() || sig.Params().Len() < 2 {
		return false
	}
	if !analysisutil.IsContext(sig.Params().At(0).Type()) {
		return false
	}
	last := sig.Params().At(sig.Params().Len() - 1).Type()
	sl, ok := last.(*types.Slice)
	return ok && analysisutil.TypeKey(sl.Elem()) == s.table.GRPC.CallOption
}

// opensStream reports whether a generated client method returns a stream:
// its first result has the methods of grpc.ClientStream (those very
// methods: a type of the module's own with methods of the same names is no
// stream).
func (s *state) opensStream(fn *types.Func) bool {
	res := fn.Type().(*types.Signature).Results()
	return res.Len() > 0 && analysisutil.HasMethods(res.At(0).Type(), s.table.GRPC.StreamMethods)
}

// forward returns the ForwardFact of fn, computing it for this package's
// functions.
func (s *state) forward(fn *types.Func) *ForwardFact {
	fn = fn.Origin()
	if fn.Pkg() != s.pass.Pkg {
		if s.localPackage(fn) {
			return nil // the client of a local daemon: it forwards to no dependency
		}
		f := new(ForwardFact)
		if s.pass.ImportObjectFact(fn, f) {
			return f
		}
		return nil
	}
	if f, ok := s.memo[fn]; ok {
		return f
	}
	if s.busy[fn] {
		return nil
	}
	s.busy[fn] = true
	f := s.computeForward(fn)
	delete(s.busy, fn)
	s.memo[fn] = f
	return f
}

func (s *state) computeForward(fn *types.Func) *ForwardFact {
	decl := s.model.Decl(fn)
	if decl == nil || decl.Body == nil {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	hasCtx := false
	for i := 0; i < sig.Params().Len(); i++ {
		if analysisutil.IsContext(sig.Params().At(i).Type()) {
			hasCtx = true
		}
	}
	if !hasCtx {
		return nil
	}
	params := map[int]*ForwardParam{}
	// paramArg returns 1 + the index of the parameter of decl that e is,
	// never reassigned; else 0.
	paramArg := func(e ast.Expr) int {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return 0
		}
		v, ok := s.pass.TypesInfo.Uses[id].(*types.Var)
		if !ok || s.model.Assigned(v) {
			return 0
		}
		if pfn, idx, ok := s.model.IsParam(v); ok && pfn == decl && idx >= 0 {
			return idx + 1
		}
		return 0
	}
	// clientParam is paramArg for a parameter of a client type.
	clientParam := func(e ast.Expr) int {
		if _, known := s.table.ClientTypes[analysisutil.TypeKey(s.pass.TypesInfo.TypeOf(e))]; !known {
			return 0
		}
		return paramArg(e)
	}
	// onRecv reports whether e is decl's receiver or a field path on it
	// (s.api, o.stock.api), the receiver never being reassigned.
	var recv *types.Var
	if decl.Recv != nil && len(decl.Recv.List) == 1 && len(decl.Recv.List[0].Names) == 1 {
		recv, _ = s.pass.TypesInfo.Defs[decl.Recv.List[0].Names[0]].(*types.Var)
	}
	onRecv := func(e ast.Expr) bool {
		if recv == nil || s.model.Assigned(recv) {
			return false
		}
		for {
			sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
			if !ok {
				break
			}
			if v, ok := s.pass.TypesInfo.Selections[sel]; !ok || v.Kind() != types.FieldVal {
				return false
			}
			e = sel.X
		}
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && id != nil && s.pass.TypesInfo.Uses[id] == recv
	}
	// recvCall reports whether call is a method call on the receiver or a
	// field path of it.
	recvCall := func(call *ast.CallExpr) bool {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		if v, ok := s.pass.TypesInfo.Selections[sel]; !ok || v.Kind() != types.MethodVal {
			return false
		}
		return onRecv(sel.X)
	}
	note := func(o ctxflow.Origin, unbounded bool, client int, recvConn bool, connParam int, chain []string) {
		param := o.Param
		if o.State == ctxflow.Deadline && o.Derived != nil {
			// The call gets a deadline added to the parameter: bounded,
			// but it carries the parameter's cancellation (detachedctx
			// reports Background handed to it).
			param, unbounded, client, recvConn, connParam = o.Derived, false, 0, false, 0
		} else if o.State != ctxflow.Unknown || o.Param == nil {
			return
		}
		pfn, idx, ok := s.model.IsParam(param)
		if !ok || pfn != decl || idx < 0 || !analysisutil.IsContext(param.Type()) {
			return
		}
		if len(chain) > maxChain {
			chain = chain[:maxChain]
		}
		if unbounded {
			client, recvConn, connParam = 0, false, 0
		}
		p := params[idx]
		if p == nil {
			params[idx] = &ForwardParam{Index: idx, Unbounded: unbounded, Chain: chain, Client: client, RecvConn: recvConn, ConnParam: connParam}
			return
		}
		if unbounded && !p.Unbounded {
			p.Unbounded, p.Chain, p.Client, p.RecvConn, p.ConnParam = true, chain, 0, false, 0
		}
		if !p.Unbounded && p.Client == 0 && !p.RecvConn && p.ConnParam == 0 && (client > 0 || recvConn || connParam > 0) {
			p.Client, p.RecvConn, p.ConnParam, p.Chain = client, recvConn, connParam, chain
		}
	}
	for _, n := range s.byFunc[decl] {
		call := n.(*ast.CallExpr)
		if c, ok := s.res.ByCall[call]; ok {
			o, ok := s.CallContext(c)
			if !ok {
				continue
			}
			unbounded, client, recvConn := s.Unbounded(c), 0, false
			if !unbounded && !c.Spec.Bounded && !c.Spec.Stream {
				if e := c.Client(); e != nil {
					client = clientParam(e)
				}
			}
			connParam := 0
			if c.Spec.Kind == knowledge.GRPC && !c.Spec.Bounded && !c.Spec.Stream && c.Recv != nil && s.model.ConnBound(c.Recv, false) == ctxflow.BoundUnknown {
				// Bounded as the caller's receiver or argument is, whatever
				// this package's own dial helpers suggest.
				if onRecv(c.Recv) {
					unbounded, recvConn = false, true
				} else if j := paramArg(c.Recv); j > 0 {
					unbounded, connParam = false, j
				}
			}
			note(o, unbounded, client, recvConn, connParam, []string{c.Name()})
			continue
		}
		callee, _ := s.model.Callee(call)
		if callee == nil || callee.Origin() == fn {
			continue
		}
		f := s.forward(callee)
		if f == nil {
			continue
		}
		for _, fp := range f.Params {
			if fp.Index >= len(call.Args) {
				continue
			}
			o := s.model.Context(call.Args[fp.Index])
			unbounded, client, recvConn := fp.UnboundedAt(s.model, call), 0, false
			if !unbounded && fp.Client > 0 && fp.Client <= len(call.Args) && !call.Ellipsis.IsValid() {
				client = clientParam(call.Args[fp.Client-1])
			}
			connParam := 0
			// A connection of unknown make here may be known at the
			// caller: bounded as the caller's receiver or argument is.
			unknownConn := func(e ast.Expr) bool { return s.model.ConnBound(e, false) == ctxflow.BoundUnknown }
			if !unbounded && fp.RecvConn {
				if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && unknownConn(sel.X) {
					if recvCall(call) {
						recvConn = true
					} else if j := paramArg(sel.X); j > 0 {
						connParam = j
					}
				}
			}
			if !unbounded && fp.ConnParam > 0 && fp.ConnParam <= len(call.Args) && !call.Ellipsis.IsValid() && unknownConn(call.Args[fp.ConnParam-1]) {
				if j := paramArg(call.Args[fp.ConnParam-1]); j > 0 {
					connParam = j
				}
			}
			note(o, unbounded, client, recvConn, connParam, append([]string{analysisutil.Name(callee)}, fp.Chain...))
		}
	}
	if len(params) == 0 {
		return nil
	}
	f := &ForwardFact{}
	for _, p := range params {
		f.Params = append(f.Params, *p)
	}
	sort.Slice(f.Params, func(i, j int) bool { return f.Params[i].Index < f.Params[j].Index })
	return f
}

// CallContext returns the origin of the context that bounds an outbound
// call: its context argument, or the context of its request argument. ok is
// false for calls that take no context at all.
func (s *state) CallContext(c *Call) (ctxflow.Origin, bool) {
	return CallContext(s.model, c)
}

// CallContext returns the origin of the context that bounds an outbound
// call: its context argument, or the context of its request argument. ok is
// false for calls that take no context at all.
func CallContext(m *ctxflow.Model, c *Call) (ctxflow.Origin, bool) {
	if e := c.Ctx(); e != nil {
		return m.Context(e), true
	}
	if e := c.Request(); e != nil {
		return m.Request(e), true
	}
	return ctxflow.Origin{}, false
}

// Unbounded reports whether nothing but its context can bound the call: it
// has no timeout of its own and its client or dialer provably has none.
func (s *state) Unbounded(c *Call) bool { return Unbounded(s.model, c) }

// Unbounded reports whether nothing but its context can bound the call:
// every other bound of its evidence record is provably absent.
func Unbounded(m *ctxflow.Model, c *Call) bool {
	if c.m == nil {
		c.m = m
	}
	return c.Evidence().Unbounded()
}

// Chain describes a forwarding chain for messages: the outbound call, and
// the helpers it goes through: "(*http.Client).Do (through a.fetch → b.get)".
func Chain(chain []string) string {
	if len(chain) == 0 {
		return "an outbound call"
	}
	last := chain[len(chain)-1]
	if len(chain) == 1 {
		return last
	}
	via := ""
	for i, c := range chain[:len(chain)-1] {
		if i > 0 {
			via += " → "
		}
		via += c
	}
	return last + " (through " + via + ")"
}
