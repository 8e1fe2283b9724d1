package unboundedfanout

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
	"github.com/resilint/resilint/passes/ctxflow"
	"github.com/resilint/resilint/passes/loops"
)

//go:embed doc.go
var docSrc string

// Doc is the analyzer's documentation, from doc.go.
var Doc = analysisutil.MustDoc(docSrc, "unboundedfanout")

// Analyzer is unboundedfanout with the default configuration.
var Analyzer = New(config.Default())

// New returns the analyzer for a configuration.
func New(cfg *config.Config) *analysis.Analyzer {
	return cfg.Memo("unboundedfanout", func() *analysis.Analyzer {
		flow := ctxflow.New(cfg)
		return &analysis.Analyzer{
			Name:     Doc.Name,
			Doc:      Doc.Text(),
			URL:      "https://github.com/resilint/resilint/blob/main/analyzers/unboundedfanout/doc.go",
			Requires: []*analysis.Analyzer{inspect.Analyzer, flow},
			Run:      func(pass *analysis.Pass) (any, error) { return run(pass, cfg, flow) },
		}
	})
}

// A launch starts a goroutine: a go statement or a launcher call.
type launch struct {
	node ast.Node      // *ast.GoStmt or the launcher's *ast.CallExpr
	call *ast.CallExpr // the go statement's call, or the launcher call
	// fn is the function the goroutine runs (a literal, a function or
	// method value); args are the go statement's arguments.
	fn   ast.Expr
	args []ast.Expr
	// spec and group describe a launcher call (group is its receiver).
	spec  *knowledge.Launcher
	group ast.Expr
	// loops are the loops of the enclosing function whose body contains
	// the launch, innermost first; stack is the inspector stack.
	loops []ast.Stmt
	stack []ast.Node
	where analysisutil.Where
}

// A limitCall is a call that limits a group (g.SetLimit(8)).
type limitCall struct {
	call  *ast.CallExpr
	recv  ast.Expr
	where analysisutil.Where
}

type checker struct {
	pass  *analysis.Pass
	cfg   *config.Config
	table *knowledge.BoundTable
	flow  *ctxflow.Model
	rep   *analysisutil.Reporter
	names analysisutil.Names // of the variables the fixes declare

	limits  []limitCall
	pending []pending // findings waiting for their fixes (see flush)
}

func run(pass *analysis.Pass, cfg *config.Config, flowA *analysis.Analyzer) (any, error) {
	table := &cfg.Table().Bounds
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	flow := pass.ResultOf[flowA].(*ctxflow.Model)
	c := &checker{pass: pass, cfg: cfg, table: table, flow: flow, rep: analysisutil.NewReporter(pass, cfg)}

	var launches []*launch
	filter := []ast.Node{(*ast.GoStmt)(nil), (*ast.CallExpr)(nil)}
	ins.WithStack(filter, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		switch n := n.(type) {
		case *ast.GoStmt:
			if c.rep.Skip(n.Pos()) {
				return true
			}
			l := &launch{node: n, call: n.Call, fn: n.Call.Fun, args: n.Call.Args}
			if l.loops = loopsOf(stack); len(l.loops) > 0 {
				l.stack = append([]ast.Node(nil), stack...)
				launches = append(launches, l)
			}
		case *ast.CallExpr:
			// Direct calls only: the model is not indexed yet.
			fn, recv := analysisutil.Callee(pass.TypesInfo, n, nil)
			if fn == nil {
				return true
			}
			key := analysisutil.Key(fn)
			if i, ok := table.Limits[key]; ok && recv != nil && !noLimit(pass.TypesInfo, n, i) {
				c.limits = append(c.limits, limitCall{call: n, recv: recv, where: analysisutil.WhereOf(stack)})
			}
			spec, ok := table.Launchers[key]
			if !ok || recv == nil || spec.Fn >= len(n.Args) || c.rep.Skip(n.Pos()) {
				return true
			}
			l := &launch{node: n, call: n, fn: n.Args[spec.Fn], spec: &spec, group: recv}
			if l.loops = loopsOf(stack); len(l.loops) > 0 {
				l.stack = append([]ast.Node(nil), stack...)
				launches = append(launches, l)
			}
		}
		return true
	})
	if len(launches) == 0 {
		return nil, nil // fast path: no goroutine started in a loop
	}
	flow.Index()
	for _, l := range launches {
		l.where = analysisutil.WhereOf(l.stack)
		c.check(l)
	}
	c.flush()
	return nil, nil
}

// noLimit reports whether a limit call removes the limit: a negative
// constant (g.SetLimit(-1)).
func noLimit(info *types.Info, call *ast.CallExpr, arg int) bool {
	if arg < 0 || arg >= len(call.Args) {
		return false
	}
	n, ok := analysisutil.ConstInt(info, call.Args[arg])
	return ok && n < 0
}

// loopsOf returns the loops of the innermost function whose body encloses
// the last node of stack, innermost first.
func loopsOf(stack []ast.Node) []ast.Stmt {
	var out []ast.Stmt
	for i := len(stack) - 2; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return out
		case *ast.ForStmt:
			if stack[i+1] == ast.Node(n.Body) {
				out = append(out, n)
			}
		case *ast.RangeStmt:
			if stack[i+1] == ast.Node(n.Body) {
				out = append(out, n)
			}
		}
	}
	return out
}

// check decides whether a launch in a loop is unbounded fan-out.
func (c *checker) check(l *launch) {
	info := c.pass.TypesInfo
	body, bodyArgs := c.bodyOf(l)
	// Goroutines waited for within an iteration of a loop run one batch at
	// a time: that loop and the loops around it do not multiply them.
	for k, lp := range l.loops {
		if c.waitedIn(l, body, lp) {
			if k == 0 {
				return
			}
			l.loops = l.loops[:k]
			break
		}
	}
	trips := make([]loops.Trip, len(l.loops))
	product := int64(1)
	var open []int // indexes of loops that are not a small constant
	for i, lp := range l.loops {
		t := loops.Of(info, lp)
		if n, ok := c.capped(l, lp, t); ok {
			// if len(ids) > 10 { return errTooMany } before the loop, or
			// range min(len(ids), 8): at most n iterations.
			t.Kind, t.N, t.Capped = loops.Const, n, true
		}
		trips[i] = t
		switch t.Kind {
		case loops.Unknown:
			return
		case loops.Const:
			if t.N <= 0 {
				return // the body never runs
			}
			if product <= int64(c.cfg.FanoutLimit) {
				product *= t.N
			}
		default:
			open = append(open, i)
		}
	}
	if len(open) == 0 && product <= int64(c.cfg.FanoutLimit) {
		return
	}
	// A loop with no fixed end is fan-out when it feeds the goroutine a
	// stream of work: values received from a channel, or an iterator
	// (for sc.Scan()). Other endless loops (a dial racer waiting on a
	// timer, a server reading its requests, draining a list) are not.
	for _, i := range open {
		if trips[i].Kind != loops.Forever {
			continue
		}
		ch, ok := c.feed(l, l.loops[i])
		if !ok {
			return
		}
		if ch != nil {
			trips[i].Kind, trips[i].Chan, trips[i].Collection = loops.Elements, true, ch
		}
	}
	// Running each of a list of functions (hooks registered by components,
	// for _, f := range s.onShutdown { go f() }), or each of the components
	// behind an interface that a value holds (its stages, collectors,
	// plugins, connections), starts one goroutine per part of the program,
	// not per item of work. Interface values handed in as data (the layers
	// of an image) are items of work.
	for _, i := range open {
		if trips[i].Kind != loops.Elements {
			continue
		}
		switch kindOf(itemType(info, trips[i])) {
		case funcItems:
			return
		case ifaceItems:
			if c.held(trips[i].Collection, l) {
				return
			}
		}
	}
	// A goroutine per node, shard or server that a value holds (c.nodes,
	// state.Masters, app.Servers) is bounded by the topology it was
	// configured with, not by the work that arrives: each goroutine talks
	// to a dependency of its own.
	if len(open) > 0 {
		all := true
		for _, i := range open {
			t := trips[i]
			if t.Kind != loops.Elements || !c.held(t.Collection, l) || !componentItems(info, t) {
				all = false
				break
			}
		}
		if all {
			return
		}
	}
	if c.acceptLoop(l.loops) || c.singleLaunch(l) {
		return
	}
	if c.limited(l) || c.longLived(l, body, bodyArgs) || c.tearsDown(l, body) {
		return
	}
	if c.semaphore(l, body) {
		return
	}
	// A counting loop whose goroutines are all alike is a pool of workers;
	// it is fan-out when each handles the item its index designates.
	counting := true
	for _, i := range open {
		if trips[i].Kind != loops.Count {
			counting = false
		}
	}
	if counting && len(open) > 0 {
		for _, i := range open {
			if c.machineCount(trips[i].Bound) || c.concurrencySetting(trips[i].Bound) {
				return
			}
		}
		perItem := false
		for _, i := range open {
			if isLen(info, trips[i].Bound) || c.usesVar(l, body, trips[i].Index) {
				perItem = true
			}
		}
		if !perItem {
			return
		}
	}
	if len(open) == 0 && !c.distinct(l, body, l.loops, trips) {
		// A constant number of identical goroutines: a fixed pool.
		return
	}
	c.report(l, trips, open)
}

// itemType returns the type of the items a range loop hands out: its value
// variable's, or a map's key when only the key is used.
func itemType(info *types.Info, t loops.Trip) types.Type {
	if t.Value != nil {
		return t.Value.Type()
	}
	if t.Index != nil {
		if ct := info.TypeOf(t.Collection); ct != nil {
			if _, isMap := ct.Underlying().(*types.Map); isMap {
				return t.Index.Type()
			}
		}
	}
	return elemType(info, t.Collection)
}

// elemType returns the type of the elements of a collection.
func elemType(info *types.Info, e ast.Expr) types.Type {
	t := info.TypeOf(e)
	if t == nil {
		return nil
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	case *types.Map:
		return u.Elem()
	case *types.Chan:
		return u.Elem()
	case *types.Pointer:
		if a, ok := u.Elem().Underlying().(*types.Array); ok {
			return a.Elem()
		}
	}
	return nil
}

type itemKind uint8

const (
	dataItems itemKind = iota
	funcItems
	ifaceItems
)

// kindOf classifies the items of a collection: functions, values behind an
// interface, or data.
func kindOf(t types.Type) itemKind {
	if t == nil {
		return dataItems
	}
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return dataItems // any element type
	}
	switch t.Underlying().(type) {
	case *types.Signature:
		return funcItems
	case *types.Interface:
		return ifaceItems
	}
	return dataItems
}

// componentItems reports whether a loop's elements (or a map's keys) are
// components: pointers to named types with methods (*clusterNode,
// *Server), not plain data.
func componentItems(info *types.Info, t loops.Trip) bool {
	if isComponent(itemType(info, t)) {
		return true
	}
	if t.Index != nil {
		if ct := info.TypeOf(t.Collection); ct != nil {
			if _, isMap := ct.Underlying().(*types.Map); isMap {
				return isComponent(t.Index.Type())
			}
		}
	}
	return false
}

func isComponent(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok {
		return false
	}
	if _, isStruct := named.Underlying().(*types.Struct); !isStruct {
		return false
	}
	return types.NewMethodSet(p).Len() > 0
}

// held reports whether a collection is held by a value: a field (s.stages),
// a method's receiver (a FanoutStage ranging over itself), or what a
// method of one returns (c.peers()).
func (c *checker) held(e ast.Expr, l *launch) bool {
	info := c.pass.TypesInfo
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		if s, ok := info.Selections[x]; ok {
			return s.Kind() == types.FieldVal || s.Kind() == types.MethodVal
		}
	case *ast.CallExpr:
		if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
			if s, ok := info.Selections[sel]; ok && s.Kind() == types.MethodVal {
				return true
			}
		}
	case *ast.Ident:
		if v, ok := info.Uses[x].(*types.Var); ok {
			if _, idx, isParam := c.flow.IsParam(v); isParam && idx < 0 {
				return true // the receiver
			}
			// A local copy defined once: shards := c.sharding.List().
			if c.flow.Visible(v) {
				if ds := c.flow.DefsOf(v); len(ds) == 1 && ds[0].Index < 0 && ds[0].Rhs != nil && ast.Unparen(ds[0].Rhs) != e {
					return c.held(ds[0].Rhs, l)
				}
			}
		}
	}
	return false
}

// feed returns how an endless loop feeds the launch: the channel whose
// received value the iteration hands to the goroutine, or nil for an
// iterator condition (for sc.Scan()); ok is false for neither.
func (c *checker) feed(l *launch, loop ast.Stmt) (ast.Expr, bool) {
	fs, ok := loop.(*ast.ForStmt)
	if !ok {
		return nil, false
	}
	// A receive in a select case, or in a statement of the iteration
	// before the launch.
	for i := len(l.stack) - 1; i > 0 && l.stack[i] != ast.Node(loop); i-- {
		if cc, ok := l.stack[i].(*ast.CommClause); ok {
			if ch := recvValue(cc.Comm); ch != nil {
				return ch, true
			}
		}
	}
	for _, st := range c.stmtsBefore(l, loop) {
		if ch := recvValue(st); ch != nil {
			return ch, true
		}
		if c.takesMessage(st) {
			return nil, true // like an iterator: the next message per iteration
		}
	}
	if _, isCall := ast.Unparen(fs.Cond).(*ast.CallExpr); isCall {
		return nil, true
	}
	return nil, false
}

// takesMessage reports whether a statement takes the next message of a
// queue or subscription (m, err := r.FetchMessage(ctx), also read through
// a method of the result: rdb.BLPop(ctx, 0, q).Result()).
func (c *checker) takesMessage(s ast.Stmt) bool {
	as, ok := s.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 {
		return false
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return false
	}
	source := func(call *ast.CallExpr) bool {
		fn, _ := c.flow.Callee(call)
		return fn != nil && c.table.MessageSources[analysisutil.Key(fn)]
	}
	if !source(call) {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
		if !ok || !source(inner) {
			return false
		}
	}
	// The message itself, or what the iteration makes of it (decoded into
	// a variable of its own), goes to the goroutine: a goroutine per
	// message either way.
	return true
}

// recvValue returns the channel of a statement that assigns a received
// value (v := <-ch, v, ok = <-ch), or nil.
func recvValue(s ast.Stmt) ast.Expr {
	as, ok := s.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 {
		return nil
	}
	if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name == "_" && len(as.Lhs) == 1 {
		return nil
	}
	u, ok := ast.Unparen(as.Rhs[0]).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return nil
	}
	return u.X
}

// distinct reports whether the goroutines of constant loops differ: they
// use a loop variable.
func (c *checker) distinct(l *launch, body ast.Node, lps []ast.Stmt, trips []loops.Trip) bool {
	for _, t := range trips {
		if c.usesVar(l, body, t.Index) || c.usesVar(l, body, t.Value) {
			return true
		}
	}
	return false
}

// usesVar reports whether the goroutine uses v: in its arguments, or in
// its function literal (captured).
func (c *checker) usesVar(l *launch, body ast.Node, v *types.Var) bool {
	if v == nil {
		return false
	}
	nodes := []ast.Node{l.fn}
	for _, a := range l.args {
		nodes = append(nodes, a)
	}
	for _, n := range nodes {
		if mentions(c.pass.TypesInfo, n, v) {
			return true
		}
	}
	return false
}

func mentions(info *types.Info, n ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

func isLen(info *types.Info, e ast.Expr) bool {
	return builtinCall(info, e, "len") != nil
}

// builtinCall returns e as a call of the builtin function name, or nil.
func builtinCall(info *types.Info, e ast.Expr, name string) *ast.CallExpr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	if b, ok := info.Uses[id].(*types.Builtin); !ok || b.Name() != name {
		return nil
	}
	return call
}

// machineCount reports whether e is the machine's parallelism
// (runtime.NumCPU()), or a variable set only from it.
func (c *checker) machineCount(e ast.Expr) bool {
	return c.machine(e, 0)
}

func (c *checker) machine(e ast.Expr, depth int) bool {
	if depth > 4 || e == nil {
		return false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if tv, ok := c.pass.TypesInfo.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
			return c.machine(x.Args[0], depth+1)
		}
		if fn, _ := c.flow.Callee(x); fn != nil && c.table.MachineCounts[analysisutil.Key(fn)] {
			return true
		}
	case *ast.BinaryExpr:
		// 2*runtime.NumCPU()
		return c.machine(x.X, depth+1) || c.machine(x.Y, depth+1)
	case *ast.Ident:
		v, ok := c.pass.TypesInfo.Uses[x].(*types.Var)
		if !ok || !c.flow.Visible(v) {
			return false
		}
		defs := c.flow.DefsOf(v)
		if len(defs) == 0 {
			return false
		}
		for _, d := range defs {
			if d.Rhs == nil || d.Index >= 0 || !c.machine(d.Rhs, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// concurrencySetting reports whether a count is named as a concurrency
// level (cfg.NumWorkers, maxConcurrentCalls, parallelism): starting that
// many goroutines is the configured bound, not fan-out over work.
func (c *checker) concurrencySetting(e ast.Expr) bool {
	var name string
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		name = x.Name
	case *ast.SelectorExpr:
		name = x.Sel.Name
	default:
		return false
	}
	name = strings.ToLower(name)
	for _, w := range c.table.ConcurrencyNames {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// acceptLoop reports whether one of the loops accepts connections: a
// server's accept loop, out of scope.
func (c *checker) acceptLoop(lps []ast.Stmt) bool {
	for _, lp := range lps {
		found := false
		ast.Inspect(lp, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit, *ast.GoStmt:
				return false
			case *ast.CallExpr:
				if fn, _ := c.flow.Callee(n); fn != nil && c.table.Accepts[analysisutil.Key(fn)] {
					found = true
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// singleLaunch reports whether the loop leaves right after the launch (the
// launch is followed, in its block, by a return or break of the loop).
func (c *checker) singleLaunch(l *launch) bool {
	inner := l.loops[0]
	for i := len(l.stack) - 1; i > 0; i-- {
		if l.stack[i] == ast.Node(inner) {
			break
		}
		blk, ok := l.stack[i-1].(*ast.BlockStmt)
		if !ok {
			continue
		}
		after := false
		for _, s := range blk.List {
			if s == l.stack[i] {
				after = true
				continue
			}
			if !after {
				continue
			}
			switch s := s.(type) {
			case *ast.ReturnStmt:
				return true
			case *ast.BranchStmt:
				if s.Tok == token.BREAK && s.Label == nil {
					return true
				}
			}
		}
	}
	return false
}

// bodyOf returns the body of the function the goroutine runs (a literal,
// or a function of the package) and the expressions its parameters get.
func (c *checker) bodyOf(l *launch) (*ast.BlockStmt, []ast.Expr) {
	switch f := ast.Unparen(l.fn).(type) {
	case *ast.FuncLit:
		return f.Body, l.args
	case *ast.Ident:
		// A local function value defined once: stop := func(s *Server) {...}.
		if v, ok := c.pass.TypesInfo.Uses[f].(*types.Var); ok && c.flow.Visible(v) {
			if ds := c.flow.DefsOf(v); len(ds) == 1 && ds[0].Index < 0 {
				if lit, ok := ast.Unparen(ds[0].Rhs).(*ast.FuncLit); ok {
					return lit.Body, l.args
				}
			}
		}
	default:
		if fn := c.funcOf(f); fn != nil {
			if d := c.flow.Decl(fn); d != nil {
				return d.Body, l.args
			}
		}
	}
	return nil, l.args
}

// funcOf returns the function a function-valued expression names.
func (c *checker) funcOf(e ast.Expr) *types.Func {
	info := c.pass.TypesInfo
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[x].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok {
			fn, _ := sel.Obj().(*types.Func)
			return fn
		}
		fn, _ := info.Uses[x.Sel].(*types.Func)
		return fn
	case *ast.IndexExpr:
		return c.funcOf(x.X)
	case *ast.IndexListExpr:
		return c.funcOf(x.X)
	}
	return nil
}

// calleeName returns the name of the function a goroutine runs, when it is
// not a literal.
func (c *checker) calleeName(l *launch) string {
	if fn := c.funcOf(l.fn); fn != nil {
		return fn.Name()
	}
	return ""
}

// longLived reports whether the goroutine is a worker or a service loop:
// it takes work from a channel in a loop, or loops until it is stopped.
func (c *checker) longLived(l *launch, body *ast.BlockStmt, args []ast.Expr) bool {
	if body != nil {
		return c.loopsForever(body, 0) || c.serves(body) || c.runsComponent(body)
	}
	// A function of another package: a stop channel among the arguments,
	// or a lifecycle method (Run, Serve, ...), says it runs until stopped.
	for _, a := range args {
		if isStopChan(c.pass.TypesInfo.TypeOf(a)) {
			return true
		}
	}
	if fn := c.funcOf(l.fn); fn != nil && c.lifecycle(fn.Name()) {
		return true
	}
	return false
}

// tearsDown reports whether the goroutine only stops a component: it runs
// a teardown method (go srv.Shutdown(ctx)), or a function whose calls are
// teardown methods on values from outside it plus bookkeeping (sync,
// logging, errors). Shutting every server down in parallel is bounded by
// the components, not by a stream of work.
func (c *checker) tearsDown(l *launch, body *ast.BlockStmt) bool {
	if fn := c.funcOf(l.fn); fn != nil && c.teardown(fn.Name()) {
		// Handed work (go c.flush(ctx, batch)), a function of the package
		// is judged by what it does: a flush that sends each item of the
		// batch to a service is work. Otherwise the name says it.
		if d := c.flow.Decl(fn); d != nil && d.Body != nil && c.handedWork(l) {
			return c.stopsOnly(d.Body)
		}
		return true
	}
	if body == nil {
		return false
	}
	return c.stopsOnly(body)
}

// handedWork reports whether a launch passes its function arguments other
// than a context.
func (c *checker) handedWork(l *launch) bool {
	for _, a := range l.args {
		if !analysisutil.IsContext(c.pass.TypesInfo.TypeOf(a)) {
			return true
		}
	}
	return false
}

// stopsOnly reports whether a body stops or releases something and does
// nothing else but bookkeeping.
func (c *checker) stopsOnly(body *ast.BlockStmt) bool {
	info := c.pass.TypesInfo
	stops, other := 0, false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || other {
			return !other
		}
		if tv, ok := info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
			return true
		}
		fn, _ := c.flow.Callee(call)
		if fn == nil {
			other = true // a function value: unknown work
			return false
		}
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && c.teardown(fn.Name()) {
			// Closing what the goroutine fetched itself is not stopping a
			// component, but it is no work either.
			if !declaredIn(info, sel.X, body) {
				stops++
			}
			return true
		}
		if !c.bookkeeping(fn) {
			other = true
		}
		return !other
	})
	return stops > 0 && !other
}

// lifecycle reports whether a name starts a long-lived component: Run,
// Start, Serve… (and their unexported spellings, run, start).
func (c *checker) lifecycle(name string) bool { return inNames(c.table.Lifecycle, name) }

// teardown reports whether a method name stops or releases something:
// Close, Shutdown, Stop (and their unexported spellings, close, stop).
func (c *checker) teardown(name string) bool { return inNames(c.table.Teardown, name) }

// inNames reports whether name, or name with its first letter upper case,
// is in names.
func inNames(names map[string]bool, name string) bool {
	return names[name] || (name != "" && names[strings.ToUpper(name[:1])+name[1:]])
}

// declaredIn reports whether the variable at the root of e is declared
// within body (a response the goroutine fetched, not the component it was
// given).
func declaredIn(info *types.Info, e ast.Expr, body *ast.BlockStmt) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			e = x.X
			continue
		case *ast.IndexExpr:
			e = x.X
			continue
		case *ast.StarExpr:
			e = x.X
			continue
		case *ast.Ident:
			obj := info.ObjectOf(x)
			return obj != nil && body.Pos() <= obj.Pos() && obj.Pos() < body.End()
		}
		return true // a call result or other computed value
	}
}

// bookkeeping reports whether fn is a call a teardown goroutine may make
// besides the teardown itself: synchronisation, logging, errors.
func (c *checker) bookkeeping(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return true // error.Error
	}
	if c.table.Bookkeeping[fn.Pkg().Path()] {
		return true
	}
	if recv := fn.Signature().Recv(); recv != nil {
		if named, ok := types.Unalias(analysisutil.Deref(recv.Type())).(*types.Named); ok {
			name := strings.ToLower(named.Obj().Name())
			for _, w := range c.table.BookkeepingTypes {
				if strings.Contains(name, w) {
					return true
				}
			}
		}
	}
	return false
}

// runsComponent reports whether a goroutine's body (outside nested
// function literals) starts a component through a lifecycle method whose
// body is out of sight (cache.Start(ctx), informer.Run(stop)), as
// go cache.Start(ctx) would.
func (c *checker) runsComponent(body *ast.BlockStmt) bool {
	return c.callsAny(body, func(fn *types.Func) bool {
		return c.lifecycle(fn.Name()) && c.flow.Decl(fn) == nil && fn.Signature().Recv() != nil
	})
}

// serves reports whether a goroutine's body (outside nested function
// literals) listens on a port, accepts connections or serves: a server
// started per component.
func (c *checker) serves(body *ast.BlockStmt) bool {
	return c.callsAny(body, func(fn *types.Func) bool {
		if c.table.Accepts[analysisutil.Key(fn)] {
			return true // an accept loop: a listener per goroutine
		}
		name := fn.Name()
		for _, p := range c.table.Servers {
			if strings.HasPrefix(name, p) && name != "ServeHTTP" {
				return true
			}
		}
		return false
	})
}

// callsAny reports whether body (outside nested function literals) calls a
// function for which pred holds.
func (c *checker) callsAny(body *ast.BlockStmt, pred func(*types.Func) bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if fn, _ := c.flow.Callee(n); fn != nil && pred(fn) {
				found = true
			}
		}
		return !found
	})
	return found
}

func isStopChan(t types.Type) bool {
	if t == nil {
		return false
	}
	ch, ok := t.Underlying().(*types.Chan)
	if !ok || ch.Dir() == types.SendOnly {
		return false
	}
	st, ok := ch.Elem().Underlying().(*types.Struct)
	return ok && st.NumFields() == 0
}

// loopsForever reports whether body (outside nested function literals)
// has a worker or service loop: a range over a channel; a loop that takes
// values from a channel; a for loop with no condition that never ends, or
// ends only on a select case (a stop channel, ctx.Done()); a loop while a
// context is alive. A retry loop (it ends when the work succeeds) is none
// of these. Calls of functions of the package are followed a little.
func (c *checker) loopsForever(body *ast.BlockStmt, depth int) bool {
	info := c.pass.TypesInfo
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.RangeStmt:
			if t := info.TypeOf(n.X); t != nil {
				if _, ok := t.Underlying().(*types.Chan); ok {
					found = true
				}
			}
		case *ast.ForStmt:
			switch {
			case receivesValue(n.Body):
				found = true
			case n.Cond == nil:
				found = !exitsOutsideSelect(n)
			default:
				found = c.mentionsContext(n.Cond)
			}
		case *ast.CallExpr:
			if depth < 2 {
				if fn, _ := c.flow.Callee(n); fn != nil && fn.Pkg() == c.pass.Pkg {
					if d := c.flow.Decl(fn); d != nil && d.Body != nil && d.Body != body {
						found = c.loopsForever(d.Body, depth+1)
					}
				}
			}
		}
		return !found
	})
	return found
}

// receivesValue reports whether n (outside function literals) takes a
// value from a channel: v := <-ch, v, ok := <-ch, case v := <-ch.
func receivesValue(n ast.Node) bool {
	found := false
	isRecv := func(e ast.Expr) bool {
		u, ok := ast.Unparen(e).(*ast.UnaryExpr)
		return ok && u.Op == token.ARROW
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if id, ok := lhs.(*ast.Ident); ok && id.Name == "_" && len(n.Lhs) == 1 {
					continue
				}
				if len(n.Rhs) == 1 && isRecv(n.Rhs[0]) || i < len(n.Rhs) && len(n.Rhs) > 1 && isRecv(n.Rhs[i]) {
					found = true
				}
			}
		case *ast.ValueSpec:
			for _, v := range n.Values {
				if isRecv(v) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// exitsOutsideSelect reports whether a for loop has a return or a break out
// of it that is not in a case of a select statement.
func exitsOutsideSelect(loop *ast.ForStmt) bool {
	found := false
	var visit func(n ast.Node, breakable int, inSelect bool)
	visit = func(n ast.Node, breakable int, inSelect bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if found {
				return false
			}
			if m == n {
				return true
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if !inSelect {
					found = true
				}
			case *ast.BranchStmt:
				if !inSelect && (m.Tok == token.GOTO || m.Tok == token.BREAK && (m.Label != nil || breakable == 0)) {
					found = true
				}
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt:
				visit(m, breakable+1, inSelect)
				return false
			case *ast.SelectStmt:
				visit(m, breakable+1, true)
				return false
			}
			return true
		})
	}
	visit(loop.Body, 0, false)
	return found
}

// mentionsContext reports whether a loop condition uses a context
// (for ctx.Err() == nil).
func (c *checker) mentionsContext(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if x, ok := n.(ast.Expr); ok && analysisutil.IsContext(c.pass.TypesInfo.TypeOf(x)) {
			found = true
		}
		return !found
	})
	return found
}

// limited reports whether a launcher's group has a limit, or might have one
// set out of sight.
func (c *checker) limited(l *launch) bool {
	if l.spec == nil {
		return false
	}
	if l.spec.Limit == "" {
		return false
	}
	return c.groupLimited(l.group, l, 0)
}

func (c *checker) groupLimited(g ast.Expr, l *launch, depth int) bool {
	if depth > 4 {
		return true
	}
	info := c.pass.TypesInfo
	g = ast.Unparen(g)
	switch x := g.(type) {
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		if !ok {
			return true
		}
		if _, _, isParam := c.flow.IsParam(v); isParam {
			return true // a group from the caller: unknown limit
		}
		if isGlobal(v) {
			return c.limitedAnywhere(v)
		}
		if c.limitedBefore(v, l) {
			return true
		}
		if !c.flow.Visible(v) {
			return true
		}
		defs := c.flow.DefsOf(v)
		if len(defs) != 1 {
			return true
		}
		d := defs[0]
		if d.Zero {
			return false // var g errgroup.Group
		}
		if d.Rhs == nil {
			return true
		}
		return c.originLimited(d.Rhs, d.Index, l, depth)
	case *ast.SelectorExpr:
		sel, ok := info.Selections[x]
		if !ok || sel.Kind() != types.FieldVal {
			return true
		}
		return c.fieldLimited(sel.Obj().(*types.Var))
	case *ast.UnaryExpr, *ast.StarExpr:
		var inner ast.Expr
		if u, ok := x.(*ast.UnaryExpr); ok {
			inner = u.X
		} else {
			inner = x.(*ast.StarExpr).X
		}
		return c.groupLimited(inner, l, depth+1)
	case *ast.CallExpr:
		return c.originLimited(x, -1, l, depth)
	}
	return true
}

// originLimited judges the expression a group comes from: a known
// constructor (errgroup.WithContext, new(errgroup.Group), &errgroup.Group{})
// has no limit unless a limit call is chained; a helper of the package is
// limited when it limits what it returns; anything else is unknown.
func (c *checker) originLimited(e ast.Expr, index int, l *launch, depth int) bool {
	info := c.pass.TypesInfo
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return false
	case *ast.UnaryExpr:
		if _, ok := ast.Unparen(x.X).(*ast.CompositeLit); ok && x.Op == token.AND {
			return false
		}
		return true
	case *ast.Ident, *ast.SelectorExpr:
		if index < 0 {
			return c.groupLimited(x, l, depth+1)
		}
		return true
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
			if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "new" {
				return false
			}
		}
		fn, recv := c.flow.Callee(x)
		if fn == nil {
			return true
		}
		key := analysisutil.Key(fn)
		if _, ok := c.table.Limits[key]; ok {
			return true // pool.New().WithMaxGoroutines(8)
		}
		if _, ok := c.table.GroupCtors[key]; ok {
			return false // errgroup.WithContext
		}
		if recv != nil && isChainOf(c.table, fn) {
			return c.originLimited(recv, -1, l, depth+1)
		}
		if d := c.flow.Decl(fn); d != nil && d.Body != nil {
			return c.helperLimits(d)
		}
		if c.flow.UnlimitedGroup(fn) {
			return false // another package's helper: return errgroup.WithContext(ctx)
		}
		if isPoolCtor(fn) {
			return false
		}
		return true
	}
	return true
}

// isChainOf reports whether fn is a method that returns its receiver's
// group configured (conc's WithErrors, WithContext, ...): any method of a
// launcher's group type that returns a group type.
func isChainOf(t *knowledge.BoundTable, fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || sig.Results().Len() != 1 {
		return false
	}
	return t.GroupType(analysisutil.TypeKey(sig.Results().At(0).Type()))
}

// isPoolCtor reports whether fn is a function (not a method) that returns a
// launcher's group: a constructor (pool.New()).
func isPoolCtor(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() == nil && sig.Params().Len() == 0 && sig.Results().Len() == 1
}

// helperLimits reports whether a helper of the package limits the group it
// returns (a limit call on any group in its body, on the path to the
// return), or when that cannot be told (then unknown: limited).
func (c *checker) helperLimits(d *ast.FuncDecl) bool {
	for _, lc := range c.limits {
		if lc.call.Pos() >= d.Body.Pos() && lc.call.End() <= d.Body.End() && lc.where.Block == d.Body {
			return true
		}
	}
	// A helper that returns a fresh group without a limit.
	fresh := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) >= 1 {
			switch x := ast.Unparen(r.Results[0]).(type) {
			case *ast.CallExpr:
				if fn, _ := c.flow.Callee(x); fn != nil {
					if _, ok := c.table.GroupCtors[analysisutil.Key(fn)]; ok {
						fresh = true
					}
				}
			case *ast.UnaryExpr:
				if _, ok := ast.Unparen(x.X).(*ast.CompositeLit); ok {
					fresh = true
				}
			}
		}
		return true
	})
	return !fresh
}

// limitedBefore reports whether a limit is set on the local group v on
// every path before the loops of l: a limit call in a block that encloses
// the outermost loop, before it, in the same function; or v is handed to a
// function that may set one (a helper of the package that limits its
// parameter, or any function out of sight).
func (c *checker) limitedBefore(v *types.Var, l *launch) bool {
	outer := l.loops[len(l.loops)-1]
	for _, lc := range c.limits {
		if rootVar(c.pass.TypesInfo, lc.recv) != v {
			continue
		}
		if lc.call.Pos() >= outer.Pos() || lc.where.Func != l.where.Func {
			continue
		}
		if blk := lc.where.Block; blk != nil && blk.Pos() <= outer.Pos() && outer.End() <= blk.End() {
			return true
		}
	}
	// The group's address handed to a call before the loop.
	handed := false
	fnBody := funcBody(l.where.Func)
	if fnBody == nil {
		return false
	}
	ast.Inspect(fnBody, func(n ast.Node) bool {
		if handed {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || call.Pos() >= outer.Pos() {
			return true
		}
		for _, a := range call.Args {
			if rootVar(c.pass.TypesInfo, a) == v {
				handed = true
			}
		}
		return true
	})
	return handed
}

func funcBody(n ast.Node) *ast.BlockStmt {
	switch f := n.(type) {
	case *ast.FuncDecl:
		return f.Body
	case *ast.FuncLit:
		return f.Body
	}
	return nil
}

// rootVar returns the variable an expression (v, &v, v.f) starts from.
func rootVar(info *types.Info, e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, _ := info.Uses[x].(*types.Var)
			return v
		case *ast.UnaryExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// limitedAnywhere reports whether a package-level group has a limit call
// anywhere in the package.
func (c *checker) limitedAnywhere(v *types.Var) bool {
	for _, lc := range c.limits {
		if rootVar(c.pass.TypesInfo, lc.recv) == v {
			return true
		}
	}
	return v.Pkg() != c.pass.Pkg
}

// fieldLimited reports whether a group held in a struct field has a limit
// somewhere in the package, or is set from something out of sight.
func (c *checker) fieldLimited(f *types.Var) bool {
	info := c.pass.TypesInfo
	for _, lc := range c.limits {
		if sel, ok := ast.Unparen(lc.recv).(*ast.SelectorExpr); ok {
			if s, ok := info.Selections[sel]; ok && s.Obj() == f {
				return true
			}
		}
	}
	if f.Pkg() != c.pass.Pkg {
		return true
	}
	// Assigned somewhere (a literal or an assignment): from what?
	limited := false
	for _, file := range c.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			if limited {
				return false
			}
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && info.Uses[id] == f {
					if !c.freshGroup(n.Value) {
						limited = true
					}
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
					if !ok || i >= len(n.Rhs) {
						continue
					}
					if s, ok := info.Selections[sel]; ok && s.Obj() == f && !c.freshGroup(n.Rhs[i]) {
						limited = true
					}
				}
			}
			return true
		})
	}
	return limited
}

// freshGroup reports whether e makes a group with no limit.
func (c *checker) freshGroup(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		_, ok := ast.Unparen(x.X).(*ast.CompositeLit)
		return ok
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
			if b, ok := c.pass.TypesInfo.Uses[id].(*types.Builtin); ok && b.Name() == "new" {
				return true
			}
		}
		if fn, _ := c.flow.Callee(x); fn != nil {
			if _, ok := c.table.GroupCtors[analysisutil.Key(fn)]; ok {
				return true
			}
		}
	}
	return false
}

func isGlobal(v *types.Var) bool { return v.Pkg() != nil && v.Parent() == v.Pkg().Scope() }

// semaphore reports whether each goroutine holds a slot of a bound: a
// buffered channel filled before the launch (in the loop body) or at the
// start of the goroutine and drained in it, or an acquire call.
func (c *checker) semaphore(l *launch, body *ast.BlockStmt) bool {
	if l.spec == nil && c.acquires(l.call) {
		return true // go bulkhead.Do(ctx, work)
	}
	before := c.beforeLaunch(l)
	for i, s := range before {
		if c.acquires(s) && !c.releasedIn(before[i:]) {
			return true
		}
	}
	if body != nil && c.acquires(body) {
		return true
	}
	if body == nil {
		return false
	}
	inBody := chanOps(c.pass.TypesInfo, body)
	outer := l.loops[len(l.loops)-1]
	for _, s := range before {
		for ch, ops := range chanOps(c.pass.TypesInfo, s) {
			if ch.Pos() >= outer.Pos() && ch.Pos() < outer.End() {
				continue // a channel made per iteration
			}
			if bo := inBody[ch]; bo != 0 && (ops&^bo) != 0 {
				return true // acquired before, released inside
			}
		}
	}
	for ch, ops := range inBody {
		if ops == opSend|opRecv && (ch.Pos() < outer.Pos() || ch.Pos() >= outer.End()) && c.buffered(ch) &&
			c.sendsFirst(body, ch) {
			return true // acquired and released inside
		}
	}
	return false
}

// sendsFirst reports whether the goroutine body takes a slot of ch (sends,
// or receives from a pool of tokens) before it does any work: a slot taken
// after the calls (mu <- struct{}{}; res[id] = err;
// <-mu) is a lock around bookkeeping, not a bound on the calls. Deferred
// calls, and calls of bookkeeping packages and of the context, are not work.
func (c *checker) sendsFirst(body *ast.BlockStmt, ch *types.Var) bool {
	info := c.pass.TypesInfo
	send, work := token.NoPos, token.NoPos
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.DeferStmt, *ast.FuncLit:
			return false
		case *ast.SendStmt:
			if v := chanVar(info, n.Chan); v == ch && !send.IsValid() {
				send = n.Pos()
			}
		case *ast.UnaryExpr:
			// A pool of tokens filled beforehand is taken by a receive.
			if v := chanVar(info, n.X); n.Op == token.ARROW && v == ch && !send.IsValid() {
				send = n.Pos()
			}
		case *ast.CallExpr:
			fn, _ := c.flow.Callee(n)
			if fn == nil || c.bookkeeping(fn) {
				return true
			}
			if recv := fn.Signature().Recv(); recv != nil && analysisutil.IsContext(recv.Type()) {
				return true
			}
			if !work.IsValid() || n.Pos() < work {
				work = n.Pos()
			}
		}
		return true
	})
	return send.IsValid() && (!work.IsValid() || send < work)
}

// buffered reports whether a channel variable is made with a capacity.
func (c *checker) buffered(v *types.Var) bool {
	if !c.flow.Visible(v) {
		return true // a field or a parameter: trust the pattern
	}
	for _, d := range c.flow.DefsOf(v) {
		call, ok := ast.Unparen(d.Rhs).(*ast.CallExpr)
		if !ok || len(call.Args) < 2 {
			return false
		}
		if n, ok := analysisutil.ConstInt(c.pass.TypesInfo, call.Args[1]); ok && n == 0 {
			return false
		}
	}
	return true
}

const (
	opSend = 1 << iota
	opRecv
)

// chanOps returns, per channel variable, the operations n performs on it
// (outside function literals other than deferred ones).
func chanOps(info *types.Info, n ast.Node) map[*types.Var]int {
	out := map[*types.Var]int{}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.DeferStmt:
			if lit, ok := n.Call.Fun.(*ast.FuncLit); ok {
				ast.Inspect(lit.Body, visit)
				return false
			}
		case *ast.FuncLit:
			return false
		case *ast.SendStmt:
			if v := chanVar(info, n.Chan); v != nil {
				out[v] |= opSend
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				if v := chanVar(info, n.X); v != nil {
					out[v] |= opRecv
				}
			}
		}
		return true
	}
	ast.Inspect(n, visit)
	return out
}

func chanVar(info *types.Info, e ast.Expr) *types.Var {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, _ := info.Uses[x].(*types.Var)
		return v
	case *ast.SelectorExpr:
		if s, ok := info.Selections[x]; ok && s.Kind() == types.FieldVal {
			v, _ := s.Obj().(*types.Var)
			return v
		}
	}
	return nil
}

// acquires reports whether n calls an acquire of a concurrency bound.
func (c *checker) acquires(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if fn, _ := c.flow.Callee(n); fn != nil && c.table.Acquires[analysisutil.Key(fn)] {
				found = true
			}
		}
		return !found
	})
	return found
}

// releasedIn reports whether statements give a slot back outside any
// function literal or defer (sem.Acquire(ctx, 1); sem.Release(1); go ...:
// the slot is free again before the goroutine starts).
func (c *checker) releasedIn(stmts []ast.Stmt) bool {
	found := false
	for _, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit, *ast.DeferStmt:
				return false
			case *ast.CallExpr:
				if fn, _ := c.flow.Callee(n); fn != nil && c.table.Releases[analysisutil.Key(fn)] {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// beforeLaunch returns the statements of the innermost loop's iteration
// that run before the launch: the earlier statements of every block from
// the loop body down to the launch.
func (c *checker) beforeLaunch(l *launch) []ast.Stmt {
	return c.around(l, true)
}

// afterLaunch returns the statements of the iteration that run after it.
func (c *checker) afterLaunch(l *launch) []ast.Stmt {
	return c.around(l, false)
}

// stmtsBefore returns the statements of an iteration of loop that run
// before the launch.
func (c *checker) stmtsBefore(l *launch, loop ast.Stmt) []ast.Stmt {
	return c.aroundIn(l, loop, true)
}

func (c *checker) around(l *launch, before bool) []ast.Stmt {
	return c.aroundIn(l, l.loops[0], before)
}

func (c *checker) aroundIn(l *launch, inner ast.Stmt, before bool) []ast.Stmt {
	var out []ast.Stmt
	for i := len(l.stack) - 1; i > 0; i-- {
		if l.stack[i] == ast.Node(inner) {
			break
		}
		var list []ast.Stmt
		switch b := l.stack[i-1].(type) {
		case *ast.BlockStmt:
			list = b.List
		case *ast.CaseClause:
			list = b.Body
		case *ast.CommClause:
			list = b.Body
		default:
			continue
		}
		seen := false
		for _, s := range list {
			if s == l.stack[i] {
				seen = true
				continue
			}
			if seen != before {
				out = append(out, s)
			}
		}
		// A select case's communication happens before its body:
		// case pool <- struct{}{}: go work() acquires a slot first.
		if cc, ok := l.stack[i-1].(*ast.CommClause); ok && before && cc.Comm != nil && seen {
			out = append(out, cc.Comm)
		}
	}
	return out
}

// waitedIn reports whether the goroutine is waited for in the iteration of
// loop that started it: a Wait call, or a receive from a channel the goroutine sends
// on or closes, after the launch.
func (c *checker) waitedIn(l *launch, body *ast.BlockStmt, loop ast.Stmt) bool {
	after := c.aroundIn(l, loop, false)
	signals := map[*types.Var]int{}
	// A channel handed to the goroutine is how it reports back (go fn(errc, i)).
	for _, a := range l.args {
		if v := chanVar(c.pass.TypesInfo, a); v != nil {
			if ch, ok := v.Type().Underlying().(*types.Chan); ok && ch.Dir() != types.RecvOnly {
				signals[v] |= opSend
			}
		}
	}
	if body != nil {
		for v, op := range chanOps(c.pass.TypesInfo, body) {
			signals[v] |= op
		}
		ast.Inspect(body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "close" && len(call.Args) == 1 {
					if v := chanVar(c.pass.TypesInfo, call.Args[0]); v != nil {
						signals[v] |= opSend
					}
				}
			}
			return true
		})
	}
	for _, s := range after {
		found := false
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if fn, _ := c.flow.Callee(n); fn != nil && c.table.Waits[analysisutil.Key(fn)] {
					found = true
				}
			case *ast.UnaryExpr:
				if n.Op == token.ARROW {
					if v := chanVar(c.pass.TypesInfo, n.X); v != nil && signals[v]&opSend != 0 {
						found = true
					}
				}
			case *ast.RangeStmt:
				if v := chanVar(c.pass.TypesInfo, n.X); v != nil && signals[v]&opSend != 0 {
					found = true
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// report reports the launch.
func (c *checker) report(l *launch, trips []loops.Trip, open []int) {
	fset := c.pass.Fset
	var parts []string
	for k := len(open) - 1; k >= 0; k-- {
		t := trips[open[k]]
		switch t.Kind {
		case loops.Elements:
			if t.Chan {
				parts = append(parts, "value received from "+analysisutil.Format(fset, t.Collection))
			} else {
				parts = append(parts, "element of "+analysisutil.Format(fset, t.Collection))
			}
		case loops.Count:
			if t.Step > 1 {
				parts = append(parts, fmt.Sprintf("chunk of %d up to %s", t.Step, analysisutil.Format(fset, t.Bound)))
			} else {
				parts = append(parts, "iteration up to "+analysisutil.Format(fset, t.Bound))
			}
		case loops.Forever:
			parts = append(parts, "iteration of a loop with no fixed end")
		}
	}
	what := "one goroutine per " + strings.Join(parts, " and per ")
	if len(open) == 0 {
		n, upTo := int64(1), ""
		for _, t := range trips {
			n *= t.N
			if t.Capped {
				upTo = "up to "
			}
		}
		what = fmt.Sprintf("%s%d goroutines at once (one per iteration)", upTo, n)
	}
	advice := "bound it with errgroup.SetLimit or a semaphore"
	if l.spec != nil && l.spec.Limit != "" {
		advice = fmt.Sprintf("bound it with %s.%s(%d)", analysisutil.Format(fset, l.group), l.spec.Limit, c.cfg.FanoutFixLimit)
	}
	c.emit(l, analysis.Diagnostic{
		Pos: l.node.Pos(), End: l.call.Lparen + 1,
		Message: fmt.Sprintf("%s with no limit: a large batch or slow dependency exhausts memory and connections; %s", what, advice),
	})
}

// capped returns a constant the trip count of a loop cannot exceed: the
// bound of min(len(x), n) (range min(len(ids), 8), i < min(len(ids), 8)),
// or, for a loop over the elements or the length of a variable x, a guard
// before the loop that leaves when x is longer than a constant
// (if len(ids) > 10 { return errTooMany }) or a reslice to a constant
// (ids = ids[:8], ids = ids[:min(len(ids), 8)]) with no later assignment
// to x before the loop.
func (c *checker) capped(l *launch, loop ast.Stmt, t loops.Trip) (n int64, ok bool) {
	info := c.pass.TypesInfo
	var x ast.Expr
	switch t.Kind {
	case loops.Count:
		defer func() {
			// A cap on the bound caps a loop stepping k at a time at
			// ceil(cap/k) iterations.
			if ok && t.Step > 1 {
				n = (n + t.Step - 1) / t.Step
			}
		}()
		if n, ok := c.minConst(t.Bound); ok {
			return n, true
		}
		if !isLen(info, t.Bound) {
			return 0, false
		}
		x = ast.Unparen(t.Bound).(*ast.CallExpr).Args[0]
	case loops.Elements:
		if t.Chan || t.Func {
			return 0, false
		}
		x = t.Collection
		if n, ok := c.literalVar(x); ok {
			return n, true
		}
		if n, ok := c.sliceCap(x, 0); ok {
			return n, true
		}
	default:
		return 0, false
	}
	v, ok := pathOf(info, x)
	if !ok {
		return 0, false
	}
	// The statements before the loop, innermost block first.
	idx := -1
	for i, n := range l.stack {
		if n == loop {
			idx = i
		}
	}
	if idx < 0 {
		return 0, false
	}
	child := ast.Node(loop)
	for i := idx - 1; i >= 0; i-- {
		switch n := l.stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return 0, false
		case *ast.BlockStmt:
			var before []ast.Stmt
			for _, st := range n.List {
				if st == child {
					break
				}
				before = append(before, st)
			}
			// Walk back from the loop: the nearest statement that settles
			// x's length decides; an assignment to x first means unknown.
			for j := len(before) - 1; j >= 0; j-- {
				if n, ok := c.capStmt(before[j], v); ok {
					return n, true
				}
				if assigns(info, before[j], v) {
					return 0, false
				}
			}
		}
		child = l.stack[i]
	}
	return 0, false
}

// literalVar returns the number of elements of a local variable given a
// composite literal once and never assigned again (backends :=
// []string{"a", "b", "c"}).
func (c *checker) literalVar(x ast.Expr) (int64, bool) {
	rhs := c.onlyDef(x)
	if rhs == nil {
		return 0, false
	}
	return loops.LiteralLen(c.pass.TypesInfo, rhs)
}

// sliceCap returns a constant the length of x cannot exceed when x is a
// slice expression, or a local variable given one once, that takes at most
// a constant number of elements: s[:8], s[:min(len(s), 8)], s[i:i+8],
// s[i:min(i+8, len(s))] (one chunk of a batch loop), the bound possibly in
// a local variable given it once (end := min(i+8, len(s)); s[i:end]).
func (c *checker) sliceCap(x ast.Expr, depth int) (int64, bool) {
	info := c.pass.TypesInfo
	if depth > 2 {
		return 0, false
	}
	if rhs := c.onlyDef(x); rhs != nil {
		return c.sliceCap(rhs, depth+1)
	}
	sl, ok := ast.Unparen(x).(*ast.SliceExpr)
	if !ok || sl.High == nil {
		return 0, false
	}
	high := sl.High
	if rhs := c.onlyDef(high); rhs != nil {
		high = rhs
	}
	if sl.Low == nil {
		if n, ok := analysisutil.ConstInt(info, high); ok {
			return n, true
		}
		return c.minConst(high)
	}
	// s[i:i+K], s[i:min(i+K, ...)]: at most K.
	bounds := []ast.Expr{high}
	if call := builtinCall(info, high, "min"); call != nil {
		bounds = call.Args
	}
	low := types.ExprString(ast.Unparen(sl.Low))
	for _, b := range bounds {
		be, ok := ast.Unparen(b).(*ast.BinaryExpr)
		if !ok || be.Op != token.ADD {
			continue
		}
		for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
			if types.ExprString(ast.Unparen(pair[0])) != low || !c.stable(sl.Low) {
				continue
			}
			if n, ok := analysisutil.ConstInt(info, pair[1]); ok && n >= 0 {
				return n, true
			}
		}
	}
	return 0, false
}

// onlyDef returns the value of a local variable given one value once and
// never assigned again, else nil.
func (c *checker) onlyDef(x ast.Expr) ast.Expr {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || !c.flow.Visible(v) || v.Parent() == c.pass.Pkg.Scope() {
		return nil
	}
	defs := c.flow.DefsOf(v)
	if len(defs) != 1 || defs[0].Index >= 0 || defs[0].Rhs == nil {
		return nil
	}
	return defs[0].Rhs
}

// stable reports whether e is a plain variable or a constant: an
// expression that reads the same in both bounds of one slice expression.
func (c *checker) stable(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.BasicLit:
		return true
	case *ast.BinaryExpr:
		return c.stable(e.X) && c.stable(e.Y)
	}
	return false
}

// capStmt reads a statement that caps the length of v at a constant:
// if len(v) > n { return ... } (or >= n, and any body that leaves), or
// v = v[:n] / v = v[:min(len(v), n)].
func (c *checker) capStmt(st ast.Stmt, v varPath) (int64, bool) {
	info := c.pass.TypesInfo
	switch st := st.(type) {
	case *ast.IfStmt:
		be, ok := ast.Unparen(st.Cond).(*ast.BinaryExpr)
		if !ok || st.Else != nil || !isLen(info, be.X) || !leaves(st.Body) {
			return 0, false
		}
		if p, ok := pathOf(info, ast.Unparen(be.X).(*ast.CallExpr).Args[0]); !ok || !p.equal(v) {
			return 0, false
		}
		n, ok := analysisutil.ConstInt(info, be.Y)
		if !ok {
			return 0, false
		}
		switch be.Op {
		case token.GTR:
			return n, true
		case token.GEQ:
			return n - 1, true
		}
	case *ast.AssignStmt:
		if len(st.Lhs) != 1 || len(st.Rhs) != 1 {
			return 0, false
		}
		if p, ok := pathOf(info, st.Lhs[0]); !ok || !p.equal(v) {
			return 0, false
		}
		sl, ok := ast.Unparen(st.Rhs[0]).(*ast.SliceExpr)
		if !ok || sl.High == nil || sl.Low != nil {
			return 0, false
		}
		if p, ok := pathOf(info, sl.X); !ok || !p.equal(v) {
			return 0, false
		}
		if n, ok := analysisutil.ConstInt(info, sl.High); ok {
			return n, true
		}
		return c.minConst(sl.High)
	}
	return 0, false
}

// varPath is a variable or a chain of fields on one (ids, req.Items,
// s.cfg.IDs).
type varPath struct {
	root   *types.Var
	fields []types.Object
}

// pathOf reads x as a varPath.
func pathOf(info *types.Info, x ast.Expr) (varPath, bool) {
	var fields []types.Object
	for {
		switch e := ast.Unparen(x).(type) {
		case *ast.Ident:
			v, ok := info.ObjectOf(e).(*types.Var)
			if !ok {
				return varPath{}, false
			}
			slices.Reverse(fields)
			return varPath{root: v, fields: fields}, true
		case *ast.SelectorExpr:
			sel := info.Selections[e]
			if sel == nil || sel.Kind() != types.FieldVal {
				return varPath{}, false
			}
			fields = append(fields, sel.Obj())
			x = e.X
		default:
			return varPath{}, false
		}
	}
}

func (p varPath) equal(q varPath) bool { return p.root == q.root && slices.Equal(p.fields, q.fields) }

// prefixOf reports whether p is q or a path q goes through (req for
// req.Items): assigning p changes q.
func (p varPath) prefixOf(q varPath) bool {
	return p.root == q.root && len(p.fields) <= len(q.fields) && slices.Equal(p.fields, q.fields[:len(p.fields)])
}

// minConst reads min(..., n, ...) with a constant argument n: the smallest
// constant argument.
func (c *checker) minConst(e ast.Expr) (int64, bool) {
	call := builtinCall(c.pass.TypesInfo, e, "min")
	if call == nil {
		return 0, false
	}
	best, found := int64(0), false
	for _, a := range call.Args {
		if n, ok := analysisutil.ConstInt(c.pass.TypesInfo, a); ok && (!found || n < best) {
			best, found = n, true
		}
	}
	return best, found
}

// leaves reports whether a block always leaves the enclosing function or
// loop: it ends in return, panic, break, continue or goto.
func leaves(b *ast.BlockStmt) bool {
	if b == nil || len(b.List) == 0 {
		return false
	}
	switch last := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		if call, ok := ast.Unparen(last.X).(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}

// assigns reports whether a statement assigns to v or a path it goes
// through (or takes the address of one).
func assigns(info *types.Info, st ast.Stmt, v varPath) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if p, ok := pathOf(info, l); ok && p.prefixOf(v) {
					found = true
				}
			}
		case *ast.UnaryExpr:
			if p, ok := pathOf(info, n.X); ok && n.Op == token.AND && p.prefixOf(v) {
				found = true
			}
		}
		return !found
	})
	return found
}
