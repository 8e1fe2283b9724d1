package launch

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
	"github.com/resilint/resilint/passes/deps"
	"github.com/resilint/resilint/passes/outbound"
)

// WorkFact is exported for a function that reaches remote outbound work,
// itself or through the functions it calls.
type WorkFact struct {
	// Work is the remote outbound work the function reaches, its values
	// written in the function's parameters (at most maxWork).
	Work []Work
	// Forever: the function runs a worker or service loop (a range over a
	// channel, a loop until a stop channel or its context ends): a
	// goroutine that runs it lives until it is stopped.
	Forever bool
}

func (*WorkFact) AFact() {}

func (f *WorkFact) String() string {
	var parts []string
	for _, w := range f.Work {
		parts = append(parts, w.String())
	}
	s := "work " + strings.Join(parts, ", ")
	if f.Forever {
		s += " forever"
	}
	return s
}

// Work is one remote outbound call a function reaches.
type Work struct {
	// Call names the outbound call; Via names the functions from the
	// reaching function's callee down to the one that makes it.
	Call string
	Via  []string
	Kind knowledge.Kind
	// Target and Client are the call's dependency (see package deps),
	// written in the parameters of the function that reaches it.
	Target, Client deps.Sym
	// Named: the call names its target (a URL, a request, an address), so
	// the target designates the dependency; otherwise its client does (a
	// gRPC client, a database handle, a Redis client).
	Named bool
	// On are the parameters of the function that reaches the work (-1:
	// the receiver) that its identity depends on: its target's host part
	// for a call that names one, its client otherwise. The element of a
	// loop determines the dependency when it flows into one of them.
	On []int
	// roots are the variables the identity depends on, in the function
	// being read (not part of the fact).
	roots map[*types.Var]bool
	// guards are the variables that the conditions around the call read
	// (if c { call() }, a case of a switch), in the function being read
	// (not part of the fact): when the element decides them, only some
	// goroutines reach the work.
	guards map[*types.Var]bool
	// inLoop: the call is inside a loop of the goroutine's own body (a
	// worker that takes several items), in the function being read (not
	// part of the fact).
	inLoop bool
	// Limit describes a limit that every caller shares and that holds
	// around the call (a semaphore, a rate limiter or a mutex reached
	// through a parameter, the receiver or a package variable; the
	// client's own connection cap), or "".
	Limit string
}

func (w Work) String() string {
	s := w.Call + "{"
	if w.Named {
		s += "target " + w.Target.String()
	} else {
		s += "client " + w.Client.String()
	}
	if len(w.On) > 0 {
		on := make([]string, len(w.On))
		for i, p := range w.On {
			on[i] = "param" + strconv.Itoa(p)
			if p < 0 {
				on[i] = "recv"
			}
		}
		slices.Sort(on)
		s += " on " + strings.Join(on, ",")
	}
	if w.Limit != "" {
		s += " limit " + w.Limit
	}
	return s + "}"
}

// Dep names the work's dependency for messages: its host, base URL or
// client as written, else what kind of dependency it is.
func (w Work) Dep() string {
	switch {
	case w.Named && w.Target.Known() && w.Target.Text != "":
		return w.Target.Text
	case w.Target.Kind == deps.Service && w.Client.Known():
		return w.Target.Text + " (" + w.Client.Text + ")"
	case w.Target.Kind == deps.Service:
		return w.Target.Text
	case !w.Named && w.Client.Known() && w.Client.Text != "":
		return w.Client.Text
	}
	switch w.Kind {
	case knowledge.HTTP:
		return "the same HTTP endpoint"
	case knowledge.GRPC:
		return "the same gRPC service"
	case knowledge.SQL:
		return "the same database"
	case knowledge.Dial, knowledge.TLS:
		return "the same address"
	}
	return "the same dependency"
}

// Chain names the helpers the work goes through and the outbound call:
// "a.fetch → b.get → (*net/http.Client).Do".
func (w Work) Chain() string {
	return strings.Join(append(append([]string(nil), w.Via...), w.Call), " → ")
}

const (
	maxWork = 8
	maxVia  = 4
)

// fact returns the WorkFact of fn: computed for this package's functions,
// imported for others. nil when it reaches no remote work.
func (s *state) fact(fn *types.Func) *WorkFact {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if fn.Pkg() != s.pass.Pkg {
		f := new(WorkFact)
		if fn.Pkg() != nil && s.pass.ImportObjectFact(fn, f) {
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
	var f *WorkFact
	if decl := s.flow.Decl(fn); decl != nil && decl.Body != nil {
		work := s.works(decl.Body, decl, decl, false)
		for i := range work {
			work[i].On = s.paramRoots(work[i].roots, decl)
			work[i].roots = nil
		}
		// Whether it loops matters only with remote work: a goroutine
		// reaching none is silent anyway (and the functions of this
		// package are read by loopsForever where they are called).
		if len(work) > 0 {
			f = &WorkFact{Work: work, Forever: s.loopsForever(decl.Body, 0) || s.runsForever(decl.Body)}
		}
	}
	delete(s.busy, fn)
	s.memo[fn] = f
	return f
}

// PackageFact marks a package that exports a WorkFact, so that packages
// importing none of them (and making no outbound call) skip the work.
type PackageFact struct{}

func (*PackageFact) AFact() {}

func (*PackageFact) String() string { return "reaches remote work" }

// relevant reports whether the package can reach remote work: it makes an
// outbound call, or imports a package that exports WorkFacts.
func (s *state) relevant() bool {
	if len(s.deps.Res.Calls) > 0 {
		return true
	}
	for _, imp := range s.pass.Pkg.Imports() {
		if s.pass.ImportPackageFact(imp, new(PackageFact)) {
			return true
		}
	}
	return false
}

// exportFacts exports the WorkFact of every function of the package that
// reaches remote work.
func (s *state) exportFacts() {
	any := false
	for _, file := range s.pass.Files {
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fn, ok := s.info.Defs[fd.Name].(*types.Func); ok {
				if f := s.fact(fn); f != nil {
					s.pass.ExportObjectFact(fn, f)
					any = true
				}
				if f := s.hostFact(fn); f != nil {
					s.pass.ExportObjectFact(fn, f)
					any = true
				}
			}
		}
	}
	if any {
		s.pass.ExportPackageFact(new(PackageFact))
	}
}

// works returns the remote outbound work that the calls inside body reach,
// written in owner's parameters. scope is the region whose variables are
// made anew for each run of body (the function, or the loop that starts
// the goroutines): a limit held in one of them is not shared. guards:
// record each work's guards (a launched literal's, which reach reads;
// facts do not carry them).
func (s *state) works(body ast.Node, owner *ast.FuncDecl, scope ast.Node, guards bool) []Work {
	if !s.remote {
		return nil
	}
	var out []Work
	add := func(w Work) {
		for i, e := range out {
			if e.Call == w.Call && e.Named == w.Named && e.Target.String() == w.Target.String() &&
				e.Client.String() == w.Client.String() && e.Limit == w.Limit {
				for v := range w.roots {
					e.roots[v] = true
				}
				out[i].inLoop = e.inLoop && w.inLoop
				return
			}
		}
		if len(out) < maxWork {
			out = append(out, w)
		}
	}
	acqs := s.acquisitions(body, scope)
	walk(body, func(n ast.Node, stack []ast.Node) {
		call, ok := n.(*ast.CallExpr)
		if !ok || s.onFailure(stack) {
			return
		}
		// Calls in Result.Calls may reach another machine; local work (a
		// loopback address, a unix socket, an embedded database) is not
		// there.
		if oc := s.deps.Res.ByCall[call]; oc != nil {
			if !s.evidence(oc) {
				return
			}
			d := s.deps.OutboundDep(oc, owner)
			w := Work{Call: d.Call, Kind: d.Kind, Target: d.Target, Client: d.Client, Named: named(oc), roots: s.identityRoots(oc), inLoop: s.inOwnLoop(stack)}
			if guards {
				w.guards = s.guardRoots(stack)
			}
			if w.Limit = s.limitAt(acqs, call, stack); w.Limit == "" {
				w.Limit = s.runLimit(stack)
			}
			if w.Limit == "" {
				w.Limit = s.connCap(oc)
			}
			add(w)
			return
		}
		if s.deps.Res.Locality(call).Locality == outbound.Local {
			return // stays on this machine: os, in-process work, the client of a local daemon
		}
		fn, recv := s.flow.Callee(call)
		f := s.fact(fn)
		if f == nil {
			return
		}
		lim := s.limitAt(acqs, call, stack)
		if lim == "" {
			lim = s.runLimit(stack)
		}
		for _, w := range f.Work {
			w.Target = s.deps.Subst(w.Target, fn, recv, call.Args, owner)
			w.Client = s.deps.Subst(w.Client, fn, recv, call.Args, owner)
			w.roots = map[*types.Var]bool{}
			s.argRoots(w.On, fn, recv, call.Args, w.roots)
			if guards {
				w.guards = s.guardRoots(stack)
			}
			w.inLoop = s.inOwnLoop(stack)
			w.Via = append([]string{analysisutil.Name(fn)}, w.Via...)
			if len(w.Via) > maxVia {
				w.Via = w.Via[:maxVia]
			}
			if w.Limit == "" {
				w.Limit = lim
			}
			add(w)
		}
	})
	return out
}

// guardRoots returns the variables read by the conditions that decide
// whether the last node of stack runs, up to the innermost function: the
// conditions of the ifs it is in a branch of, and the tags and case
// expressions of the switches it is in a case of.
func (s *state) guardRoots(stack []ast.Node) map[*types.Var]bool {
	var out map[*types.Var]bool
	read := func(e ast.Expr) {
		if e == nil {
			return
		}
		if out == nil {
			out = map[*types.Var]bool{}
		}
		s.readRoots(e, out, 0)
	}
	for i := len(stack) - 2; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return out
		case *ast.IfStmt:
			// An error test (if err == nil { upload(out) }) follows the
			// outcome of earlier work, which every goroutine does: no
			// choice of elements.
			if s.errTest(n.Cond, token.EQL) || s.errTest(n.Cond, token.NEQ) {
				continue
			}
			if child := stack[i+1]; child == ast.Node(n.Body) || child == n.Else {
				read(n.Cond)
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				read(e)
			}
			if i >= 2 {
				if sw, ok := stack[i-2].(*ast.SwitchStmt); ok {
					read(sw.Tag)
				}
			}
		}
	}
	return out
}

// onFailure reports whether the last node of stack runs only after a
// failure: in the branch of an if that tests an error against nil (if err
// != nil { notify(err) }, or the else of err == nil). Reporting a failure
// to a service is not the work a goroutine was started for.
func (s *state) onFailure(stack []ast.Node) bool {
	for i := len(stack) - 2; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		case *ast.IfStmt:
			child := stack[i+1]
			if child == ast.Node(n.Body) && s.errTest(n.Cond, token.NEQ) {
				return true
			}
			if n.Else != nil && child == n.Else && s.errTest(n.Cond, token.EQL) {
				return true
			}
		}
	}
	return false
}

// errTest reports whether cond compares a value of type error with nil by
// op (err != nil), alone or as a term of || (for !=) or && (for ==).
func (s *state) errTest(cond ast.Expr, op token.Token) bool {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	if (op == token.NEQ && be.Op == token.LOR) || (op == token.EQL && be.Op == token.LAND) {
		return s.errTest(be.X, op) || s.errTest(be.Y, op)
	}
	if be.Op != op {
		return false
	}
	for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
		if tv, ok := s.info.Types[pair[1]]; ok && tv.IsNil() && isError(s.info.TypeOf(pair[0])) {
			return true
		}
	}
	return false
}

func isError(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

// evidence reports whether an outbound call is evidence of remote work.
// Local calls are not in Result.Calls; a gRPC call counts only when its
// connection provably goes to another host, or is dialled in this package
// over the network to a target given from outside (DialledInView): gRPC
// is how programs talk to their local daemons (containerd, the kubelet's
// plugins) over unix sockets, dialled where this package cannot see or
// through a custom dialer.
func (s *state) evidence(oc *outbound.Call) bool {
	return oc.Spec.Kind != knowledge.GRPC || oc.Place.Locality == outbound.Remote || s.deps.Res.DialledInView(oc)
}

// named reports whether an outbound call names its target in an argument
// (a URL, a request, an address) rather than reaching the dependency its
// client is connected to.
func named(oc *outbound.Call) bool {
	if oc.Spec.Kind == knowledge.GRPC {
		return false
	}
	return oc.Spec.Target >= 0 || oc.Spec.Request >= 0
}

// connCap returns a description of the client's own cap on concurrent
// calls (a connection pool that makes callers wait), or "".
func (s *state) connCap(oc *outbound.Call) string {
	t := oc.RecvType
	if t == nil {
		if e := oc.Client(); e != nil {
			t = s.info.TypeOf(e)
		} else if oc.Recv != nil {
			t = s.info.TypeOf(oc.Recv)
		}
	}
	if t == nil {
		return ""
	}
	if key := analysisutil.TypeKey(t); s.table.ConnCaps[key] {
		return "the connection pool of " + deps.ShortType(key)
	}
	// A cap set on this client: db.SetMaxOpenConns(10), a transport's
	// MaxConnsPerHost.
	for _, e := range []ast.Expr{oc.Client(), oc.Recv} {
		if e != nil {
			if c := s.flow.ConnCap(e); c != "" {
				return c
			}
		}
	}
	// A pool that can be capped by a setter (SetMaxOpenConns), made out of
	// sight: its cap is unknown, so no fan-out is proven.
	if s.cappable(t) {
		for _, e := range []ast.Expr{oc.Client(), oc.Recv} {
			if e != nil && !s.flow.PoolMadeHere(e) {
				return "the connection pool of " + deps.ShortType(analysisutil.TypeKey(t)) + ", whose cap is set where it is made, out of sight"
			}
		}
	}
	return ""
}

// cappable reports whether a client type has a method that caps its open
// connections (knowledge.Table.ConnCapSetters).
func (s *state) cappable(t types.Type) bool {
	ms := types.NewMethodSet(t)
	for i := 0; i < ms.Len(); i++ {
		if fn, ok := ms.At(i).Obj().(*types.Func); ok {
			if _, ok := s.flow.Table.ConnCapSetters[fn.FullName()]; ok {
				return true
			}
		}
	}
	return false
}

// walk calls visit for every node under root, with the stack of its
// ancestors (root first, the node last).
func walk(root ast.Node, visit func(n ast.Node, stack []ast.Node)) {
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		visit(n, stack)
		return true
	})
}

// inOwnLoop reports whether the last node of a stack from a function body
// is inside a loop of that body (not of a function literal within it)
// that may take several items: not one with a constant trip count (for
// attempt := 0; attempt < 3; attempt++, for range 3: the same item again).
func (s *state) inOwnLoop(stack []ast.Node) bool {
	for i := len(stack) - 2; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			if c, ok := ast.Unparen(n.Cond).(*ast.BinaryExpr); ok {
				if tv, ok := s.info.Types[c.Y]; ok && tv.Value != nil {
					continue
				}
			}
			return true
		case *ast.RangeStmt:
			if tv, ok := s.info.Types[n.X]; ok && tv.Value != nil {
				continue
			}
			return true
		}
	}
	return false
}
