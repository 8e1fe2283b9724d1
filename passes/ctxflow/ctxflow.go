// Package ctxflow is resilint's context-provenance model. For a
// context.Context value at a call it tells whether the value is provably
// deadline-free (it comes from context.Background()/TODO() through only
// inheriting wrappers and assignments, or from WithoutCancel), has a
// deadline (WithTimeout/WithDeadline on every definition), or is unknown
// (a parameter, a field, the result of any other call). It answers the same
// question for the context an outbound request carries, and whether a client
// or dialer value has a timeout.
//
// The model is flow-insensitive and conservative: a variable's value is the
// join of every definition of the variable in the package, so a value is
// "provably" something only when every definition agrees. Unknown means
// silent: analyzers report only what the model proves.
//
// The pass exports a [RequestFact] for functions that return an outbound
// request, so that a request built by a helper (c.newRequest(ctx, ...)) is
// followed across packages, and a [ClientFact] for exported functions that
// return a client (an *http.Client, a dialer) provably with or without a
// timeout, so that a client from another package's constructor is read.
package ctxflow

import (
	"go/ast"
	"go/types"
	"reflect"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// New returns the pass for a configuration.
func New(cfg *config.Config) *analysis.Analyzer {
	return cfg.Memo("ctxflow", func() *analysis.Analyzer {
		return &analysis.Analyzer{
			Name:       "ctxflow",
			Doc:        "context-deadline provenance model shared by resilint analyzers (helper pass; reports nothing)",
			Requires:   []*analysis.Analyzer{inspect.Analyzer},
			Run:        func(pass *analysis.Pass) (any, error) { return run(pass, cfg) },
			ResultType: reflect.TypeFor[*Model](),
			FactTypes:  []analysis.Fact{new(RequestFact), new(RecontextFact), new(ClientFact), new(ConnFact), new(OptionFact), new(UnlimitedGroupFact), new(ShapeFact), new(LaterFact), new(CtxInertFact)},
		}
	})
}

// State is what is known about a context's deadline.
type State uint8

const (
	// Unknown: nothing is proven (a parameter, a field, a call result, or
	// definitions that disagree).
	Unknown State = iota
	// Free: provably deadline-free.
	Free
	// Deadline: has a deadline on every definition.
	Deadline
)

func (s State) String() string {
	switch s {
	case Free:
		return "deadline-free"
	case Deadline:
		return "has a deadline"
	}
	return "unknown"
}

// Origin describes where a context value comes from.
type Origin struct {
	State State
	// Detached: every definition comes from context.Background() or TODO()
	// (possibly through inheriting wrappers), not from WithoutCancel.
	Detached bool
	// Roots are the calls the value comes from when it is Free: the
	// Background()/TODO() calls, or the http.NewRequest calls that give a
	// request context.Background().
	Roots []*ast.CallExpr
	// NoCtxRequest: Free because a request was built without a context
	// (http.NewRequest).
	NoCtxRequest bool
	// HelperNoCtx: Free because a helper (Roots) returns requests it
	// builds without a context.
	HelperNoCtx bool
	// Param: the value is this parameter, or inherits from it through
	// wrappers and assignments only.
	Param *types.Var
	// Inbound: the value is an inbound request's context (r.Context()).
	Inbound bool
	// Derived, when State is Deadline: the parameter the deadline was
	// added to (ctx, cancel := context.WithTimeout(ctx, d)), through
	// wrappers and assignments only. The value carries that parameter's
	// cancellation and values, and a bound of its own.
	Derived *types.Var

	self bool // a deadline added to the variable being evaluated (a cycle)
}

// Root returns the Background()/TODO() call when the value comes from a
// single one.
func (o Origin) Root() *ast.CallExpr {
	if len(o.Roots) == 1 {
		return o.Roots[0]
	}
	return nil
}

// Bound is what is known about a client's or dialer's own timeout.
type Bound uint8

const (
	BoundUnknown Bound = iota
	NoTimeout
	HasTimeout
)

// Model answers provenance questions for one package.
type Model struct {
	Pass  *analysis.Pass
	Table *knowledge.Table
	// Relevant is false when the package imports nothing the knowledge
	// table knows; the model is then empty.
	Relevant bool

	info      *types.Info
	defs      map[*types.Var][]def
	results   map[*ast.CallExpr]map[int]*types.Var // the variables a multi-valued call's results are assigned to
	addrTaken map[*types.Var]bool
	handed    map[*types.Var][]handoff // see HandedOn
	params    map[*types.Var]paramInfo
	fieldSets map[*types.Var][]fieldSet
	decls     map[*types.Func]*ast.FuncDecl
	reqMemo   map[*types.Func]*RequestFact
	reqBusy   map[*types.Func]bool
	recMemo   map[*types.Func]*RecontextFact
	recBusy   map[*types.Func]bool
	// LaterFacts, read by analyzers that run concurrently.
	laterMu   sync.Mutex
	laterMemo map[*types.Func]*LaterFact
	laterBusy map[*types.Func]bool

	ins     *inspector.Inspector
	indexed sync.Once

	servicesOnce sync.Once
	services     []*types.Interface // see serviceInterfaces

	callsOnce sync.Once
	calls     map[*types.Func][]*ast.CallExpr // see ParamValues
	asValue   map[*types.Func]bool

	fieldsOnce  sync.Once
	fieldVals   map[*types.Var][]ast.Expr // see indexFields
	fieldOpaque map[*types.Var]bool
}

type paramInfo struct {
	fn     ast.Node // *ast.FuncDecl or *ast.FuncLit
	index  int
	result bool
}

func run(pass *analysis.Pass, cfg *config.Config) (any, error) {
	m := &Model{
		Pass:      pass,
		Table:     cfg.Table(),
		info:      pass.TypesInfo,
		defs:      map[*types.Var][]def{},
		results:   map[*ast.CallExpr]map[int]*types.Var{},
		addrTaken: map[*types.Var]bool{},
		handed:    map[*types.Var][]handoff{},
		params:    map[*types.Var]paramInfo{},
		fieldSets: map[*types.Var][]fieldSet{},
		decls:     map[*types.Func]*ast.FuncDecl{},
		reqMemo:   map[*types.Func]*RequestFact{},
		reqBusy:   map[*types.Func]bool{},
		recMemo:   map[*types.Func]*RecontextFact{},
		recBusy:   map[*types.Func]bool{},
		laterMemo: map[*types.Func]*LaterFact{},
		laterBusy: map[*types.Func]bool{},
	}
	// Fast path: a package that imports nothing the table knows (no
	// context, net/http, database/sql, ...) can hold no known call, context
	// or request.
	m.ins = pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	m.Relevant = analysisutil.Imports(pass.Pkg, m.Table.PathSet())
	if !m.Relevant {
		if analysisutil.OwnCode(pass) {
			// A package of the user's own code that knows no client may
			// still return an address another package calls
			// (cfg.AgentURL() for "http://127.0.0.1:8500"), or keep a
			// callback to run later.
			m.Index()
			m.exportLaterFacts()
			m.exportShapeFacts()
		}
		return m, nil
	}
	m.Index()
	m.exportLaterFacts()
	m.exportRequestFacts()
	return m, nil
}
