// Package launch computes the evidence about goroutines started in loops
// that unboundedfanout filters: for every go statement or launcher call
// (errgroup's Go, WaitGroup.Go, conc's pools) inside a loop, a [Launch]
// record says how many goroutines the loops start (the collection, its
// size, whether each goroutine designates an element), what each goroutine
// reaches (remote outbound work, with the dependency its target designates
// and whether the element determines it), how long it lives, and every
// limit on the path (a group limit, a semaphore, a limit inside a helper or
// the client, a mutex around the call).
//
// It exports a [WorkFact] for every function that reaches remote outbound
// work (the work's dependency symbolic in the function's parameters, the
// limits that hold around it, whether the function runs a loop with no
// fixed end), so that
// goroutines running functions of other packages are judged by what those
// functions do.
package launch

import (
	"go/ast"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
	"github.com/resilint/resilint/passes/ctxflow"
	"github.com/resilint/resilint/passes/deps"
	"github.com/resilint/resilint/passes/loops"
)

// New returns the pass for a configuration.
func New(cfg *config.Config) *analysis.Analyzer {
	return cfg.Memo("launch", func() *analysis.Analyzer {
		dm := deps.New(cfg)
		flow := ctxflow.New(cfg)
		return &analysis.Analyzer{
			Name:       "launch",
			Doc:        "goroutines started in loops and what they reach, for resilint analyzers (helper pass; reports nothing)",
			Requires:   []*analysis.Analyzer{inspect.Analyzer, flow, dm},
			Run:        func(pass *analysis.Pass) (any, error) { return run(pass, cfg, flow, dm) },
			ResultType: reflect.TypeFor[*Result](),
			FactTypes:  []analysis.Fact{new(WorkFact), new(HostFact), new(LimitFact), new(ValidFact), new(PackageFact)},
		}
	})
}

// A Launch is a goroutine started in a loop: a go statement or a launcher
// call, with the evidence about it.
type Launch struct {
	Node ast.Node      // *ast.GoStmt or the launcher's *ast.CallExpr
	Call *ast.CallExpr // the go statement's call, or the launcher call
	// Fn is the function the goroutine runs (a literal, a function or
	// method value); Args are the go statement's arguments.
	Fn   ast.Expr
	Args []ast.Expr
	// Spec and Group describe a launcher call (Group is its receiver).
	Spec  *knowledge.Launcher
	Group ast.Expr
	// Loops are the loops of the enclosing function whose body contains
	// the launch and that multiply its goroutines, innermost first (loops
	// around one that waits for the goroutines of each iteration are left
	// out); Stack is the inspector stack of the launch.
	Loops []ast.Stmt
	Stack []ast.Node
	Where analysisutil.Where
	// Body is the body of the function the goroutine runs, when it is in
	// sight (a literal, a function of the package).
	Body *ast.BlockStmt

	// Shape says how the loops start goroutines; Trips are the trip counts
	// of Loops, Open the indexes of those that are not a small constant,
	// and N (for Const) the number of goroutines the constant loops start
	// at once (UpTo: a cap, not an exact count).
	Shape Shape
	Trips []loops.Trip
	Open  []int
	N     int64
	UpTo  bool

	// Reach is what every goroutine reaches; Work its remote outbound work,
	// the values written in Where.Decl. Varies: the element determines
	// the target of some of that work (or the target cannot be told).
	Reach  Reach
	Work   []Work
	Varies bool

	// LongLived: each goroutine is a worker or a service (a loop until it
	// is stopped, a subscription, a tail), not a unit of work.
	LongLived bool

	// Limits are the limits found on the path: any one bounds the
	// goroutines (or the work they do).
	Limits []Limit
}

// Shape classifies how a launch's loops start goroutines.
type Shape uint8

const (
	// ShapeUnknown: a loop whose trip count is not understood, or a loop
	// with no fixed end that does not feed the goroutines a stream of work
	// (a racer started when a timer fires, a server reading its requests).
	ShapeUnknown Shape = iota
	// ShapeOnce: the loop leaves right after the launch, or never runs.
	ShapeOnce
	// ShapeSmall: constant loops that start at most the fan-out limit.
	ShapeSmall
	// ShapePool: goroutines that do not designate an item of work: a
	// counting loop whose goroutines ignore the index (workers), N
	// identical goroutines, a goroutine per CPU.
	ShapePool
	// ShapeConst: constant loops that start N goroutines, more than the
	// fan-out limit, each designating an item.
	ShapeConst
	// ShapeItems: one goroutine per element or iteration of data (Open).
	ShapeItems
)

// Reach is what the goroutines of a launch reach.
type Reach uint8

const (
	// ReachUnknown: the function the goroutine runs is out of sight (a
	// function value, an interface method).
	ReachUnknown Reach = iota
	// ReachNone: no remote outbound work (local work, waits, bookkeeping).
	ReachNone
	// ReachRemote: remote outbound work (Work).
	ReachRemote
)

// LimitKind classifies a limit.
type LimitKind uint8

const (
	// GroupLimit: the launcher's group has a limit (SetLimit,
	// WithMaxGoroutines) before the launches, or comes from where one may
	// be set (a parameter, a helper out of sight).
	GroupLimit LimitKind = iota + 1
	// SlotLimit: each goroutine holds a slot of a bound, taken before the
	// launch or first thing in the goroutine (a buffered channel,
	// semaphore.Weighted, a bulkhead, a team's own bound).
	SlotLimit
	// PathLimit: every remote call runs under a limit shared by every
	// goroutine, inside the goroutine or a helper on the path: a
	// semaphore, a rate limiter, a mutex held around the call, the
	// client's own connection cap.
	PathLimit
	// ServerLoop: the loop accepts connections (a server's accept loop).
	ServerLoop
)

// A Limit is one limit found on a launch's path.
type Limit struct {
	Kind LimitKind
	// Text describes it ("g.SetLimit", "s.sem", "(*sync.Mutex).Lock").
	Text string
}

// Result is the pass's result for one package.
type Result struct {
	// Launches are the package's goroutines started in loops, in source
	// order (test code included; the analyzers' reporter drops it).
	Launches []*Launch

	s *state
}

// FreshGroup reports whether e makes a launcher group with no limit
// (errgroup.WithContext, new(errgroup.Group), &errgroup.Group{}).
func (r *Result) FreshGroup(e ast.Expr) bool {
	if r.s == nil {
		return false
	}
	return r.s.freshGroup(e)
}

// A limitCall is a call that limits a group (g.SetLimit(8)).
type limitCall struct {
	call  *ast.CallExpr
	recv  ast.Expr
	where analysisutil.Where
}

type state struct {
	pass  *analysis.Pass
	cfg   *config.Config
	table *knowledge.BoundTable
	flow  *ctxflow.Model
	deps  *deps.Model
	info  *types.Info

	limits    []limitCall
	remote    bool // the package can reach remote work (see relevant)
	ranges    map[*types.Var]*ast.RangeStmt
	builds    map[*types.Var][]*ast.CallExpr // calls that change a local in place (see builders)
	seen      map[*types.Var]bool            // locals being read by varRoots
	hosts     map[*types.Func]*HostFact
	limitMemo map[*types.Func]*LimitFact
	decls     map[*types.Func]*ast.FuncDecl
	memo      map[*types.Func]*WorkFact
	busy      map[*types.Func]bool
	valid     map[*types.Func][]validCap // see validCaps
	fieldCaps map[*types.Var]fieldCapOf  // see fieldCap
}

func run(pass *analysis.Pass, cfg *config.Config, flowA, depsA *analysis.Analyzer) (any, error) {
	s := &state{
		pass: pass, cfg: cfg, table: &cfg.Table().Bounds,
		flow:      pass.ResultOf[flowA].(*ctxflow.Model),
		deps:      pass.ResultOf[depsA].(*deps.Model),
		info:      pass.TypesInfo,
		memo:      map[*types.Func]*WorkFact{},
		seen:      map[*types.Var]bool{},
		hosts:     map[*types.Func]*HostFact{},
		limitMemo: map[*types.Func]*LimitFact{},
		busy:      map[*types.Func]bool{},
	}
	res := &Result{s: s}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)

	filter := []ast.Node{(*ast.GoStmt)(nil), (*ast.CallExpr)(nil)}
	ins.WithStack(filter, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		switch n := n.(type) {
		case *ast.GoStmt:
			l := &Launch{Node: n, Call: n.Call, Fn: n.Call.Fun, Args: n.Call.Args}
			if l.Loops = loopsOf(stack); len(l.Loops) > 0 {
				l.Stack = append([]ast.Node(nil), stack...)
				res.Launches = append(res.Launches, l)
			}
		case *ast.CallExpr:
			// Direct calls only: the model is not indexed yet.
			fn, recv := analysisutil.Callee(pass.TypesInfo, n, nil)
			if fn == nil {
				return true
			}
			key := analysisutil.Key(fn)
			if i, ok := s.table.Limits[key]; ok && recv != nil && !noLimit(pass.TypesInfo, n, i) {
				s.limits = append(s.limits, limitCall{call: n, recv: recv, where: analysisutil.WhereOf(stack)})
			}
			spec, ok := s.table.Launchers[key]
			if !ok || recv == nil || spec.Fn >= len(n.Args) {
				return true
			}
			l := &Launch{Node: n, Call: n, Fn: n.Args[spec.Fn], Spec: &spec, Group: recv}
			if l.Loops = loopsOf(stack); len(l.Loops) > 0 {
				l.Stack = append([]ast.Node(nil), stack...)
				res.Launches = append(res.Launches, l)
			}
		}
		return true
	})

	s.remote = s.deps.Relevant && s.relevant()
	if s.remote || analysisutil.OwnCode(pass) || analysisutil.Imports(pass.Pkg, cfg.Table().FactPaths()) || importsFacts(pass) {
		// Only where the vet engine's fast path analyses the package
		// (the user's own code, and vetunit.CanHaveFacts otherwise), so
		// that both engines agree. A validator of the module that
		// imports nothing known still caps its callers' collections.
		s.exportLimits()
	}
	if s.remote {
		s.exportFacts()
	}
	if len(res.Launches) == 0 {
		return res, nil // fast path: no goroutine started in a loop
	}
	s.flow.Index()
	for _, l := range res.Launches {
		l.Where = analysisutil.WhereOf(l.Stack)
		s.build(l)
	}
	return res, nil
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

// build fills a launch's record.
func (s *state) build(l *Launch) {
	l.Body, _ = s.bodyOf(l)
	// Goroutines waited for within an iteration of a loop run one batch at
	// a time: that loop and the loops around it do not multiply them.
	for k, lp := range l.Loops {
		if s.waitedIn(l, l.Body, lp) {
			l.Loops = l.Loops[:k]
			break
		}
	}
	if len(l.Loops) == 0 {
		l.Shape = ShapeOnce
	} else {
		s.shape(l)
	}
	s.reach(l)
	l.LongLived = s.longLived(l)
	s.collectLimits(l)
}

// bodyOf returns the body of the function the goroutine runs (a literal,
// or a function of the package) and the expressions its parameters get.
func (s *state) bodyOf(l *Launch) (*ast.BlockStmt, []ast.Expr) {
	if lit := s.literal(l.Fn); lit != nil {
		return lit.Body, l.Args
	}
	if fn := s.funcOf(l.Fn); fn != nil {
		if d := s.flow.Decl(fn); d != nil {
			return d.Body, l.Args
		}
	}
	return nil, l.Args
}

// literal returns the function literal a launch runs: written in place, or
// a local function value defined once (stop := func(s *Server) {...}).
func (s *state) literal(e ast.Expr) *ast.FuncLit {
	switch f := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		return f
	case *ast.Ident:
		if v, ok := s.info.Uses[f].(*types.Var); ok && s.flow.Visible(v) {
			if ds := s.flow.DefsOf(v); len(ds) == 1 && ds[0].Index < 0 {
				if lit, ok := ast.Unparen(ds[0].Rhs).(*ast.FuncLit); ok {
					return lit
				}
			}
		}
	}
	return nil
}

// funcOf returns the function a function-valued expression names.
func (s *state) funcOf(e ast.Expr) *types.Func {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		fn, _ := s.info.Uses[x].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if sel, ok := s.info.Selections[x]; ok {
			fn, _ := sel.Obj().(*types.Func)
			return fn
		}
		fn, _ := s.info.Uses[x.Sel].(*types.Func)
		return fn
	case *ast.IndexExpr:
		return s.funcOf(x.X)
	case *ast.IndexListExpr:
		return s.funcOf(x.X)
	}
	return nil
}

// LoopsOf returns the loops of the innermost function whose body encloses
// the last node of stack, innermost first.
func LoopsOf(stack []ast.Node) []ast.Stmt { return loopsOf(stack) }

// importsFacts reports whether a direct import has facts of this pass (the
// fast path's condition: internal/vetunit.CanHaveFacts).
func importsFacts(pass *analysis.Pass) bool {
	direct := map[*types.Package]bool{}
	for _, imp := range pass.Pkg.Imports() {
		direct[imp] = true
	}
	for _, f := range pass.AllObjectFacts() {
		if direct[f.Object.Pkg()] {
			return true
		}
	}
	for _, f := range pass.AllPackageFacts() {
		if direct[f.Package] {
			return true
		}
	}
	return false
}
