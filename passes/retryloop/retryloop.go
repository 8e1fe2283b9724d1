// Package retryloop is resilint's retry model. It finds the retry loops of a
// package and the calls to known retry helpers, and describes each the way a
// reviewer would:
//
//   - a retry loop is a for or range loop whose body makes a call that can
//     fail (an error result, an HTTP status, a gRPC code) and whose failure
//     path goes round again while success can leave, so that the next
//     iteration repeats the same operation: the call's inputs do not depend
//     on the element or index iterated, nor on what the call returned (a
//     page token). Polling with a ticker, server accept loops and loops over
//     a collection that move on after a failure are not retry loops;
//   - for each: its attempt bound (a constant, a variable, none), its sleeps
//     and how their durations change across iterations (invariant, grows,
//     randomised), whether they and the loop observe a context or deadline,
//     and which HTTP statuses and gRPC codes go round again;
//   - a known retry helper call (cenkalti/backoff, retry-go, retryablehttp,
//     failsafe-go, go-resiliency's retrier, resil, a team's own from the
//     configuration), with its attempts and delay read from its options;
//   - the retry predicates handed to known retry helpers (retry-go's
//     RetryIf, retryablehttp's Client.CheckRetry, failsafe's HandleIf on a
//     retry policy), walked like a loop body whose true result goes round,
//     and the permanent failures they retry.
//
// The pass exports a [RetryFact] for every function that retries, by a loop
// or a helper, or that calls one that does, so that callers in other
// packages see "this function retries up to N attempts". It is AST-based and
// flow-insensitive where it can be; unknown means silent.
package retryloop

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strconv"
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

// New returns the pass for a configuration.
func New(cfg *config.Config) *analysis.Analyzer {
	return cfg.Memo("retryloop", func() *analysis.Analyzer {
		ob := outbound.New(cfg)
		return &analysis.Analyzer{
			Name:       "retryloop",
			Doc:        "finds retry loops and retry-helper calls for resilint analyzers (helper pass; reports nothing)",
			Requires:   []*analysis.Analyzer{inspect.Analyzer, ob},
			Run:        func(pass *analysis.Pass) (any, error) { return run(pass, cfg, ob) },
			ResultType: reflect.TypeFor[*Result](),
			FactTypes:  []analysis.Fact{new(RetryFact), new(SleepFact), new(DelayFact), new(RetriesFact), new(PlaceFact), new(RunsFact), new(IterFact), new(ConfigFact), new(NoReturnFact)},
		}
	})
}

// Bound is what limits a retry loop's attempts.
type Bound uint8

const (
	// NoBound: nothing counts the attempts.
	NoBound Bound = iota
	// VarBound: a counter compared with a value that is not a constant, or a
	// range over a collection of unknown length.
	VarBound
	// ConstBound: a constant number of attempts.
	ConstBound
)

// Loop is the evidence record of a retry loop (issue 13, "the shape"):
// what it re-issues (Retried, Place, Remote), what bounds it (Bound,
// Attempts, BoundExpr, Param, and every piece of evidence in Bounds), its
// waits and how they vary (Sleeps), its exits (Exit, Bounds), and the
// failures it sends round (Statuses, Codes, Permanent). The analyzers
// filter it and word their messages; RetryFact, SleepFact, DelayFact,
// PlaceFact and RunsFact carry what callers in other packages need.
type Loop struct {
	Stmt ast.Stmt // *ast.ForStmt or *ast.RangeStmt
	Body *ast.BlockStmt
	// Func is the innermost function (declaration or literal) containing the
	// loop; Decl the outermost declaration, nil at package level.
	Func ast.Node
	Decl *ast.FuncDecl

	Bound    Bound
	Attempts int // when Bound is ConstBound
	// Counter is the attempt variable (for attempt := 0; ...; attempt++),
	// or nil; CounterStart is its first value when Counted.
	Counter      *types.Var
	CounterStart int64
	Counted      bool
	// Param is a parameter of the loop's declaration that bounds the
	// attempts (attempt < attempts): Param + ParamOffset attempts at most.
	Param       *types.Var
	ParamOffset int
	// BoundExpr is what the attempts are counted against when it is not a
	// constant (maxRetries, c.cfg.Attempts, len(hosts)): BoundExpr +
	// BoundOffset attempts at most. Nil when unknown.
	BoundExpr   ast.Expr
	BoundOffset int
	// Exit: the loop leaves when a context is done, a deadline passes (one
	// computed before the loop: a time, a timer), or a done channel
	// receives.
	Exit bool
	// Bounds is every piece of evidence that the loop's attempts end, with
	// where it is; empty when nothing is proven to end them.
	Bounds []BoundEvidence
	// CounterChecked: an attempt counter is compared somewhere in the body
	// (if attempt > 3 { log }), though no count could be read from it.
	CounterChecked bool
	// CtxBound: a retried call is given a context that can end (the
	// caller's, or one with a deadline fixed before the loop): once it is
	// done every attempt fails at once, and the loop is no longer waiting on
	// the dependency.
	CtxBound bool

	// Retried are the calls whose failure goes round again.
	Retried []*ast.CallExpr
	// Statuses and Codes are the transient HTTP statuses and gRPC codes that
	// go round (when the loop reads them); Predicate: a predicate on the
	// outcome decides (shouldRetry(resp, err)). Permanent failures that go
	// round are in Permanent.
	Statuses  []int
	Codes     []string
	Predicate bool
	// Reconnect: success does not leave (a watch or consumer loop that
	// calls again after every success), and the loop waits only after the
	// call failed: its waits are sleepretry's business, but it is no retry
	// layer and has no attempt bound to miss.
	Reconnect bool
	// Polls: every wait is also passed after a success that goes round
	// (a wait for a result not there yet: wait-for-ready), and nothing
	// bounds the loop. Only its unbounded wait is sleepretry's business:
	// it is no retry layer, and its waits pace the poll.
	Polls bool
	// Goto: the loop is a label and a goto that jumps back to it; Stmt is
	// a synthetic for statement at the label (no fix edits it).
	Goto bool
	// Remote: a retried call is proven to reach another process (an
	// outbound call, a function that makes one or retries, a failure read
	// as an HTTP status or gRPC code): the loop is a retry layer for
	// amplification.
	Remote bool
	// Place is where the retried calls go (issue 13, rule 1): Remote when
	// one is proven to reach another machine, Local when every one stays
	// on this one (the file system, a subprocess, a unix socket, a
	// loopback address, in-process work): then the loop retries no
	// dependency.
	Place outbound.Locality
	// Sleeps are the waits of the loop body.
	Sleeps []*Sleep
	// Permanent are the conditions that send a permanent failure round again.
	Permanent []*Permanent

	class layerClass // the failures it retries (classes.go)
}

// BoundKind is what ends a retry loop's attempts.
type BoundKind uint8

const (
	// AttemptLimit: a counter compared with a limit that leaves the loop
	// (the loop condition, an if or a case that leaves).
	AttemptLimit BoundKind = iota + 1
	// CollectionRange: a range over a collection or an integer.
	CollectionRange
	// CounterCompared: an attempt counter compared elsewhere in the body.
	CounterCompared
	// ExitSignal: the loop leaves when a context is done, a deadline
	// computed before it passes, or a stop signal fires.
	ExitSignal
	// ContextToCall: a retried call is given a context that can end.
	ContextToCall
	// IteratorYields: the yields of the iterator the loop ranges over.
	IteratorYields
)

var boundKindNames = map[BoundKind]string{AttemptLimit: "limit", CollectionRange: "range", CounterCompared: "counter",
	ExitSignal: "exit", ContextToCall: "ctx-to-call", IteratorYields: "yields"}

func (k BoundKind) String() string { return boundKindNames[k] }

// BoundEvidence is one reason a retry loop's attempts end, and where.
type BoundEvidence struct {
	Kind BoundKind
	Node ast.Node
}

// SleepForm is how a loop waits.
type SleepForm uint8

const (
	// Blocking: time.Sleep, or a bare receive from a timer: nothing but the
	// duration ends it.
	Blocking SleepForm = iota + 1
	// SelectCase: a timer case of a select (the other cases can end it).
	SelectCase
	// CtxSleep: a sleep that returns when a context is done (resil.Sleep).
	CtxSleep
	// HelperSleep: a call to a function that sleeps.
	HelperSleep
)

// Sleep is one wait in a retry loop.
type Sleep struct {
	// Node is where the wait is reported; Others are other lines of the
	// same wait (a timer's receive).
	Node   ast.Node
	Others []ast.Node
	// Call is the call that takes the duration (time.Sleep, time.After,
	// time.NewTimer, (*time.Timer).Reset, resil.Sleep, a sleeping helper).
	Call *ast.CallExpr
	// Dur is the duration expression, or nil for a helper that sleeps a
	// duration of its own.
	Dur  ast.Expr
	Form SleepForm
	// Vary is how the duration changes from one iteration to the next.
	Vary knowledge.Variation
	// CtxAware: the wait also ends when a context is done or a channel
	// receives.
	CtxAware bool
	// Stmt is the statement that is only the wait (time.Sleep(d);
	// <-time.After(d)), for fixes; nil otherwise.
	Stmt ast.Stmt
	// Name names the wait for messages (time.Sleep, time.After, a helper).
	Name string
	// Ticker: the wait is a tick of a ticker made before the loop (a
	// retry paced by a time.Ticker): its period is the interval, and no
	// rewrite of the one duration changes the waits.
	Ticker bool
	// Ctx spells the context the wait should observe (ctx,
	// r.Context()): one in scope that the loop did not make; "" if none.
	Ctx string
	// DurText spells the duration when Dur is out of sight (an iterator of
	// another package), At is where such a wait is (file.go:15).
	DurText, At string
	// CtxOutside: Ctx is not in scope at the wait: it is the context of
	// the loop that ranges over the iterator the wait is in (rule 9), so
	// the iterator would have to be given it.
	CtxOutside bool
	// Pacing: the wait is also passed after the call succeeded, on a path
	// that goes round (a pause between batches): it paces the work, it is
	// no backoff.
	Pacing bool
}

// Permanent is a condition that sends permanent failures round again.
type Permanent struct {
	// Node is the condition: an if statement, a case clause, a switch
	// statement, or in a predicate a return statement whose result decides.
	Node     ast.Node
	Statuses []int    // HTTP statuses
	Codes    []string // gRPC code names
	// Loop is the retry loop, or Pred the retry predicate, the failures
	// go round in.
	Loop *Loop
	Pred *Predicate
	// Op is the retry helper whose operation holds the condition.
	Op *Helper
}

// Helper is a call to a known retry helper, or the construction of a retry
// configuration that can only be used for retrying (a failsafe retry
// policy's Build, retrier.New).
type Helper struct {
	Call *ast.CallExpr
	Fn   *types.Func
	Row  knowledge.RetryHelper
	// Site: a call that retries (false for a construction).
	Site bool
	// Attempts is the number of attempts, 0 when unknown or unlimited;
	// AttemptsText spells them when they are set to a value that is not a
	// constant (c.cfg.MaxRetries+1).
	Attempts     int
	AttemptsText string
	// Unlimited: no attempt limit, no time limit, and no context.
	Unlimited bool
	// Delay is how the wait varies; DelayNode the option or construction
	// that sets it (NewConstantBackOff(d), DelayType(retry.FixedDelay),
	// WithDelay(d)), nil when it is the helper's default.
	Delay     knowledge.Variation
	DelayNode ast.Node
	// Ops are the operations the helper retries; Place is where they go
	// (Local: every one stays on this machine).
	Ops   []ast.Expr
	Place outbound.Locality
	Func  ast.Node
	Decl  *ast.FuncDecl
}

// Nested is a call on the retried path of a retry layer that reaches a
// function that retries itself.
type Nested struct {
	// Node is the inner call (or the operation handed to a helper).
	Node ast.Node
	// Callee names the function called.
	Callee string
	// Outer is the retry layer the call is in; Inner the layers it reaches,
	// outermost first.
	Outer Layer
	Inner []Layer
	// Loop: Node is a retry loop written inside the outer one (Inner is
	// its layer), not a call.
	Loop bool
}

// Result is the pass's result for one package.
type Result struct {
	Loops   []*Loop
	Helpers []*Helper
	Nested  []*Nested
	// Predicates are the retry predicates handed to retry helpers that
	// retry a permanent failure.
	Predicates []*Predicate
	// ServiceRetries are the gRPC dials whose default service config
	// retries permanent codes.
	ServiceRetries []*ServiceRetry
	// OpPermanent are the conditions in operations handed to retry
	// helpers (Permanent.Op) that return a plain error, which the helper
	// retries, for a permanent failure.
	OpPermanent []*Permanent
	// Relevant is false when the package has nothing the model looks at.
	Relevant bool
	// Model is the context-provenance model (shared with outbound).
	Model *ctxflow.Model
}

// RetryFact is exported for a function that retries (a retry loop that
// reaches another process, or a retry helper) or that calls one that does.
type RetryFact struct {
	// Layers are the retry layers one call of the function goes through,
	// outermost first (at most maxLayers).
	Layers []Layer
	// ResilCtx is the index of the context parameter that reaches the
	// outermost layer when it is resil.Retry, or -1: a caller retrying with
	// resil.Retry and passing its context down makes that layer attempt once.
	ResilCtx int
	// Op is 1 + the index of a parameter of function type the function
	// retries, 0 for none: the function is a retry helper of its own (it
	// calls the parameter on the retried path of a retry loop), and a call
	// of it is a retry layer whose operation is the argument. OpLayer is
	// that loop's layer: its attempts, or the parameter bounding them
	// (Param, ParamOffset).
	Op      int
	OpLayer Layer
}

// Layer is one retry layer.
type Layer struct {
	// Attempts is the number of attempts (0: unknown); Bound spells an
	// unknown number when the code names it (maxRetries+1, c.RetryMax+1),
	// in the terms of the function that retries.
	Attempts int
	Bound    string
	// Func is the function that retries (pkg.Func, (*pkg.T).Method).
	Func string
	// Via is the helper it retries with ("backoff.Retry"), empty for a loop.
	Via string
	// Call is the function called to reach this layer from the previous
	// one; empty for the first layer of a fact.
	Call string
	// Resil: the layer is resil.Retry.
	Resil bool
	// Param is 1 + the index of a parameter of the fact's function that
	// bounds this layer's attempts (at most the argument + ParamOffset), 0
	// for none; only the first layer of a fact has one. A call with a
	// constant argument knows the attempts.
	Param       int
	ParamOffset int
	// On are the failure classes the layer retries (classes.go), sorted;
	// none: every failure, unless OnUnknown: what it retries cannot be
	// related to a class.
	On        []string
	OnUnknown bool
	// Closed is the package of a library helper that retries an operation
	// of its own (retryablehttp's Do): what it returns when it gives up is
	// its own failure, never a sentinel of the user's module.
	Closed string
	// Off are conditions on the fact's function's parameters under which
	// the layer is reached (if !retry { return once(ctx) }): a call whose
	// constant argument fails one does not take the layer. Only the first
	// layer of a fact has them.
	Off []Guard
}

func (*RetryFact) AFact() {}

func (f *RetryFact) String() string {
	var parts []string
	for _, l := range f.Layers {
		s := attemptsText(l.Attempts) + "@" + l.Func
		if l.Via != "" {
			s += "/" + l.Via
		}
		if l.Param > 0 {
			s += "[arg" + strconv.Itoa(l.Param-1)
			if l.ParamOffset != 0 {
				s += fmt.Sprintf("%+d", l.ParamOffset)
			}
			s += "]"
		}
		for _, g := range l.Off {
			ref := "arg" + strconv.Itoa(g.Param-1)
			if g.Field != "" {
				ref += "." + g.Field
			}
			if !g.Want {
				s += "[unless " + ref + g.Op.String() + strconv.FormatInt(g.K, 10) + "]"
			} else {
				s += "[if " + ref + g.Op.String() + strconv.FormatInt(g.K, 10) + "]"
			}
		}
		if l.Call != "" {
			s = l.Call + "→" + s
		}
		parts = append(parts, s)
	}
	var out string
	if len(parts) > 0 {
		out = "retries " + strings.Join(parts, " ")
	}
	if f.ResilCtx >= 0 {
		out += " resilctx#" + strconv.Itoa(f.ResilCtx)
	}
	if f.Op > 0 {
		if out != "" {
			out += "; "
		}
		out += "retries its parameter #" + strconv.Itoa(f.Op-1) + " up to "
		if l := f.OpLayer; l.Param > 0 {
			out += "parameter #" + strconv.Itoa(l.Param-1)
			if l.ParamOffset != 0 {
				out += fmt.Sprintf("%+d", l.ParamOffset)
			}
			out += " attempts"
		} else {
			out += attemptsText(l.Attempts) + " attempts"
		}
	}
	return out
}

// Product returns the product of the layers' attempts, or 0 when one is
// unknown.
func Product(layers ...Layer) int {
	p := 1
	for _, l := range layers {
		if l.Attempts <= 0 {
			return 0
		}
		p *= l.Attempts
	}
	return p
}

func attemptsText(n int) string {
	if n <= 0 {
		return "n"
	}
	return strconv.Itoa(n)
}

// SleepFact is exported for a function that sleeps (it contains a wait
// outside any loop), so that a loop calling it sleeps too.
type SleepFact struct {
	Delay    DelaySummary
	CtxAware bool
}

func (*SleepFact) AFact() {}

func (f *SleepFact) String() string {
	s := "sleeps " + f.Delay.String()
	if f.CtxAware {
		s += " ctx-aware"
	}
	return s
}

// DelayFact is exported for a function returning a duration that is
// random, constant, or a pure function of its parameters.
type DelayFact struct{ Delay DelaySummary }

func (*DelayFact) AFact() {}

func (f *DelayFact) String() string { return "delay " + f.Delay.String() }

// DelaySummary describes a duration a function computes.
type DelaySummary struct {
	Vary knowledge.Variation // Randomised, Invariant, or VaryUnknown
	// Deps: the duration depends only on these parameters (receiver -1),
	// when Pure.
	Pure bool
	Deps []int
}

func (d DelaySummary) String() string {
	if d.Pure {
		s := "pure("
		for i, p := range d.Deps {
			if i > 0 {
				s += ","
			}
			s += strconv.Itoa(p)
		}
		return s + ")"
	}
	return d.Vary.String()
}

// maxLayers bounds the layers a fact carries.
const maxLayers = 6

func run(pass *analysis.Pass, cfg *config.Config, ob *analysis.Analyzer) (any, error) {
	obr := pass.ResultOf[ob].(*outbound.Result)
	res := &Result{Model: obr.Model}
	m := newModel(pass, cfg, obr)
	// The functions that never return: exported from the user's own
	// packages (a fatal helper need not import time to be one), used by the
	// loops of the packages that have any.
	own := analysisutil.OwnPackage(pass.Module, pass.Pkg.Path())
	relevant := m.relevant()
	if own || relevant {
		m.noReturnFuncs(own)
	}
	if !relevant {
		return res, nil
	}
	res.Relevant = true
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	m.collect(ins)
	m.exportFacts()
	res.Loops = m.loops
	res.Helpers = m.helpers
	res.Nested = m.nestedReports()
	res.Predicates = m.preds
	res.ServiceRetries = m.svcRetries
	res.OpPermanent = m.opPerms
	return res, nil
}

// model is the per-package state of the pass.
type model struct {
	pass  *analysis.Pass
	info  *types.Info
	table *knowledge.Table
	rt    *knowledge.RetryTable
	ob    *outbound.Result
	m     *ctxflow.Model
	x     *index

	forwards map[*ast.CallExpr]bool
	// sendsMemo: whether a function of the package makes an outbound call.
	sendsMemo map[*ast.FuncDecl]bool
	combine   map[string]bool

	loops   []*Loop
	helpers []*Helper
	// predSites are the values handed over as retry predicates; preds the
	// predicates that retry a permanent failure.
	predSites []predSite
	preds     []*Predicate
	// gotoLoops are the synthetic for statements of goto loops.
	gotoLoops map[ast.Stmt]bool
	// svcRetries are the gRPC dials whose service config retries
	// permanent codes.
	svcRetries []*ServiceRetry
	// opPerms are the conditions in operations handed to retry helpers
	// that send permanent failures back into the helper.
	opPerms []*Permanent
	// sites are the retry layers of the package (remote loops and helper
	// calls), with their enclosing declarations.
	sites      []*site
	byDecl     map[*ast.FuncDecl][]*site
	siteByCall map[*ast.CallExpr]*site
	// ownHelpers are the package's own retry helpers; ownCands the calls
	// that may call one (a function value among the arguments).
	ownHelpers map[*types.Func]*ownHelper
	// closureHelpers are retry helpers held in local variables
	// (withRetry := func(op func() error) error { for ... }).
	closureHelpers map[*types.Var]*ownHelper
	ownCands       []ownCand
	// noRet are the package's functions that never return; noRetVars its
	// variables that hold one (noreturn.go).
	noRet      map[*types.Func]bool
	noRetVars  map[*types.Var]bool
	collecting bool
	// importsHelpers: the package imports a retry helper's package; importsTime: it
	// imports time or resil (fast paths).
	importsHelpers, importsTime bool
	// calls are the static calls of each declaration (for forwarding).
	calls map[*ast.FuncDecl][]*ast.CallExpr

	// bindKey and bindVal give the expression spelled bindKey a value while
	// simulating a loop bound.
	bindKey string
	bindVal int64

	// asyncMemo: the parts of a declaration that run apart from its call.
	asyncMemo map[*ast.FuncDecl][]ast.Node

	// statusMemo: whether a variable holds an HTTP status; statusFields
	// whether a field does; fieldCmp and errField index the comparisons of
	// fields with status constants (status.go).
	statusMemo   map[*types.Var]bool
	checksMemo   map[*ast.FuncDecl]bool // checksStatus
	runsMemo     map[runsKey]bool
	statusFields map[*types.Var]bool
	fieldCmp     map[*types.Var]compares
	errField     map[*types.Var]bool
	// placeMemo: where the package's functions go (place.go); usesOf and
	// callByFun index its references to functions and their calls.
	placeMemo map[any]outbound.Locality
	// placeOpen: the functions and literals whose component is not
	// complete, placeStack in the order they were reached, placeCur the one
	// whose body is being read, placeNext the next index (place.go).
	placeOpen  map[any]*placeFrame
	placeStack []any
	placeCur   any
	placeNext  int
	usesOf     map[*types.Func][]*ast.Ident
	callByFun  map[*ast.Ident]*ast.CallExpr

	factMemo map[*types.Func]*RetryFact
	factBusy map[*types.Func]bool

	sleepMemo map[*types.Func]*SleepFact
	// fieldLits are the values struct literals of the package give each
	// field (nil for an unkeyed literal), built on first use.
	fieldLits map[*types.Var][]ast.Expr
	delayMemo map[*types.Func]*DelayFact
	busy      map[*types.Func]bool
}

func newModel(pass *analysis.Pass, cfg *config.Config, ob *outbound.Result) *model {
	table := cfg.Table()
	m := &model{
		pass:           pass,
		info:           pass.TypesInfo,
		table:          table,
		rt:             &table.Retry,
		ob:             ob,
		m:              ob.Model,
		forwards:       map[*ast.CallExpr]bool{},
		sendsMemo:      map[*ast.FuncDecl]bool{},
		combine:        knowledge.CombineDelayKeys(),
		byDecl:         map[*ast.FuncDecl][]*site{},
		gotoLoops:      map[ast.Stmt]bool{},
		ownHelpers:     map[*types.Func]*ownHelper{},
		closureHelpers: map[*types.Var]*ownHelper{},
		calls:          map[*ast.FuncDecl][]*ast.CallExpr{},
		factMemo:       map[*types.Func]*RetryFact{},
		placeMemo:      map[any]outbound.Locality{},
		placeOpen:      map[any]*placeFrame{},
		statusMemo:     map[*types.Var]bool{},
		statusFields:   map[*types.Var]bool{},
		runsMemo:       map[runsKey]bool{},
		factBusy:       map[*types.Func]bool{},
		sleepMemo:      map[*types.Func]*SleepFact{},
		delayMemo:      map[*types.Func]*DelayFact{},
		busy:           map[*types.Func]bool{},
	}
	for _, f := range ob.Forwards {
		m.forwards[f.Call] = true
	}
	return m
}

// relevant is the fast path: a package can hold a retry loop or a retrying
// call only if it imports time (sleeps), context, an outbound or retry
// library, or a package that has retrying functions.
func (m *model) relevant() bool {
	paths := map[string]bool{"time": true, "context": true}
	for _, p := range m.table.Paths() {
		paths[p] = true
	}
	for _, p := range m.table.RetryPaths() {
		paths[p] = true
	}
	if analysisutil.Imports(m.pass.Pkg, paths) {
		return true
	}
	for _, imp := range m.pass.Pkg.Imports() {
		if m.pass.ImportPackageFact(imp, new(RetriesFact)) {
			return true
		}
	}
	return false
}

// RetriesFact is exported for a package that exports a RetryFact, so that
// packages importing none of the libraries the model knows still look at
// their calls into it.
type RetriesFact struct{}

func (*RetriesFact) AFact() {}

func (*RetriesFact) String() string { return "has retrying functions" }

// callee returns the static callee of a call, following method values in
// locals assigned once (ctxflow's resolution), and the receiver.
func (m *model) callee(call *ast.CallExpr) (*types.Func, ast.Expr) {
	return m.m.Callee(call)
}

// key returns the knowledge-table key of a call's callee, or "".
func (m *model) key(call *ast.CallExpr) string {
	fn, _ := m.callee(call)
	if fn == nil {
		return ""
	}
	return analysisutil.Key(fn)
}

// ctxFor returns how to spell the context a wait at pos in loop L should
// observe: a context variable in scope declared before the loop (a
// parameter, a local; one named ctx preferred), or r.Context() of an
// inbound request parameter; "" when there is none. Contexts made inside
// the loop (one per attempt) and contexts that are only
// context.Background()/TODO() (nothing cancels them) do not count.
func (m *model) ctxFor(L *Loop, pos token.Pos) string {
	pkg := m.pass.Pkg
	scope := pkg.Scope().Innermost(pos)
	var ctx, req *types.Var
	for s := scope; s != nil && s != pkg.Scope() && s != types.Universe; s = s.Parent() {
		for _, name := range s.Names() {
			v, ok := s.Lookup(name).(*types.Var)
			if !ok || name == "_" || v.Pos() >= pos || v.IsField() || within(v.Pos(), L.Stmt) {
				continue
			}
			if _, obj := scope.LookupParent(name, pos); obj != v {
				continue // shadowed
			}
			if analysisutil.IsContext(v.Type()) {
				if m.rootOnly(v) {
					continue
				}
				if ctx == nil || (name == "ctx" && ctx.Name() != "ctx") {
					ctx = v
				}
			}
			if p, ok := types.Unalias(v.Type()).(*types.Pointer); ok && req == nil {
				if analysisutil.TypeKey(p.Elem()) == "net/http.Request" {
					if _, _, isParam := m.m.IsParam(v); isParam {
						req = v
					}
				}
			}
		}
		if ctx != nil && ctx.Name() == "ctx" {
			break
		}
	}
	switch {
	case ctx != nil:
		return ctx.Name()
	case req != nil:
		return req.Name() + ".Context()"
	}
	return ""
}

// rootOnly reports whether every definition of a context variable is
// context.Background() or TODO().
func (m *model) rootOnly(v *types.Var) bool {
	ds := m.x.defs[v]
	if len(ds) == 0 {
		return false // a parameter
	}
	for _, d := range ds {
		c, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
		if !ok || d.index >= 0 {
			return false
		}
		row, ok := m.table.Contexts[m.key(c)]
		if !ok || row.Effect != knowledge.Root {
			return false
		}
	}
	return true
}
