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
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"
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
			FactTypes:  []analysis.Fact{new(RequestFact), new(RecontextFact), new(ClientFact), new(DeadlineConnFact), new(UnlimitedGroupFact)},
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

// RequestFact is exported for a function that returns an outbound request
// (an *http.Request) whose context is known relative to its parameters.
type RequestFact struct {
	// Result is the index of the request among the results.
	Result int
	// Param is the index of the parameter whose context the request
	// carries, or -1.
	Param int
	// State, when Param is -1: Free or Deadline.
	State    State
	Detached bool
}

func (*RequestFact) AFact() {}

func (f *RequestFact) String() string {
	return "request{result " + itoa(f.Result) + ", param " + itoa(f.Param) + ", " + f.State.String() + "}"
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// ClientFact is exported for a function that returns a client (an
// *http.Client, a dialer) whose timeout is known: every return gives a
// client with a Timeout, or every one a client without.
type ClientFact struct {
	Bound Bound
}

func (*ClientFact) AFact() {}

func (f *ClientFact) String() string {
	if f.Bound == HasTimeout {
		return "client{timeout}"
	}
	return "client{no timeout}"
}

// UnlimitedGroupFact is exported for a function that returns a new
// concurrency group with no limit (return errgroup.WithContext(ctx), and
// no SetLimit in its body): goroutines its callers start in it are not
// bounded by it.
type UnlimitedGroupFact struct{}

func (*UnlimitedGroupFact) AFact() {}

func (*UnlimitedGroupFact) String() string { return "unlimited group" }

// UnlimitedGroup reports whether fn, a function of another package, returns
// a new group with no limit.
func (m *Model) UnlimitedGroup(fn *types.Func) bool {
	return fn.Pkg() != m.Pass.Pkg && m.Pass.ImportObjectFact(fn.Origin(), new(UnlimitedGroupFact))
}

// returnsUnlimitedGroup reports whether a function of this package returns
// a group a known constructor makes (errgroup.WithContext), directly or
// through a variable given it once, and calls no limit in its body.
func (m *Model) returnsUnlimitedGroup(fn *types.Func) bool {
	decl := m.decls[fn.Origin()]
	if decl == nil || decl.Body == nil {
		return false
	}
	b := &m.Table.Bounds
	// Only a function returning a group type is worth reading (every
	// exported function is asked): a type whose methods start goroutines.
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Results().Len() == 0 {
		return false
	}
	if !b.GroupType(analysisutil.TypeKey(sig.Results().At(0).Type())) {
		return false
	}
	ctor := func(e ast.Expr) bool {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			v, _ := m.info.Uses[id].(*types.Var)
			if v == nil || len(m.defs[v]) != 1 || m.addrTaken[v] {
				return false
			}
			e = m.defs[v][0].rhs
		}
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		f, _ := m.Callee(call)
		if f == nil {
			return false
		}
		_, ok = b.GroupCtors[analysisutil.Key(f)]
		return ok
	}
	returns, ok := 0, true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if f, _ := m.Callee(n); f != nil {
				if _, limit := b.Limits[analysisutil.Key(f)]; limit {
					ok = false
				}
			}
		case *ast.ReturnStmt:
			returns++
			if len(n.Results) == 0 || !ctor(n.Results[0]) {
				ok = false
			}
		}
		return ok
	})
	return ok && returns > 0
}

// DeadlineConnFact is exported for a function that returns a gRPC client
// connection (or a client made from one) dialled with an option that can
// give every call a deadline (see [Model.DeadlineConn]).
type DeadlineConnFact struct{}

func (*DeadlineConnFact) AFact() {}

func (*DeadlineConnFact) String() string { return "deadline conn" }

// RecontextFact is exported for a function that gives a request parameter
// a new context (req = req.WithContext(ctx)) before using it: a request
// passed to it is not sent with the context it was built with.
type RecontextFact struct {
	Params []int
}

func (*RecontextFact) AFact() {}

func (f *RecontextFact) String() string {
	s := "recontexts"
	for _, p := range f.Params {
		s += " #" + itoa(p)
	}
	return s
}

// def is one definition of a variable: the right-hand side and, when the
// right-hand side is a multi-valued call, the index of the result.
type def struct {
	rhs   ast.Expr
	index int
	zero  bool // declared without a value
	// rangeOver is the ranged expression when the variable is the value of
	// a range statement (for _, v := range X).
	rangeOver ast.Expr
}

// fieldSet is an assignment to a field path of a variable: v.A.B = rhs.
type fieldSet struct {
	path string
	rhs  ast.Expr
}

// Model answers provenance questions for one package.
type Model struct {
	Pass  *analysis.Pass
	Table *knowledge.Table
	// Relevant is false when the package imports nothing the knowledge
	// table knows; the model is then empty.
	Relevant bool

	info      *types.Info
	defs      map[*types.Var][]def
	addrTaken map[*types.Var]bool
	params    map[*types.Var]paramInfo
	fieldSets map[*types.Var][]fieldSet
	decls     map[*types.Func]*ast.FuncDecl
	reqMemo   map[*types.Func]*RequestFact
	reqBusy   map[*types.Func]bool
	recMemo   map[*types.Func]*RecontextFact
	recBusy   map[*types.Func]bool

	ins     *inspector.Inspector
	indexed sync.Once

	dialsOnce sync.Once
	dials     bool // see DialsWithDeadline

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
		addrTaken: map[*types.Var]bool{},
		params:    map[*types.Var]paramInfo{},
		fieldSets: map[*types.Var][]fieldSet{},
		decls:     map[*types.Func]*ast.FuncDecl{},
		reqMemo:   map[*types.Func]*RequestFact{},
		reqBusy:   map[*types.Func]bool{},
		recMemo:   map[*types.Func]*RecontextFact{},
		recBusy:   map[*types.Func]bool{},
	}
	// Fast path: a package that imports nothing the table knows (no
	// context, net/http, database/sql, ...) can hold no known call, context
	// or request.
	m.ins = pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	m.Relevant = analysisutil.Imports(pass.Pkg, m.Table.PathSet())
	if !m.Relevant {
		return m, nil
	}
	m.Index()
	m.exportRequestFacts()
	return m, nil
}

// Index records the package's variables, parameters and function
// declarations, which Defs, DefsOf, IsParam, Decl and Callee read. The pass
// does it for relevant packages; elsewhere the first method that reads the
// index builds it (analyzers sharing the model run concurrently: every
// reader goes through this once, so none sees a half-built index and every
// one sees the same). It runs once per package.
func (m *Model) Index() { m.indexed.Do(func() { m.index(m.ins) }) }

// Defs returns the recorded definitions of v (nil entries for definitions
// that are not plain expressions).
func (m *Model) Defs(v *types.Var) []ast.Expr {
	m.Index()
	var out []ast.Expr
	for _, d := range m.defs[v] {
		if d.index >= 0 {
			out = append(out, nil)
			continue
		}
		out = append(out, d.rhs)
	}
	return out
}

// A Def is one definition of a variable: its right-hand side and, when that
// is a multi-valued call, the index of the variable's result (-1 for a
// plain expression). Rhs is nil for definitions that are not an assignment
// of a value (range variables, v++, v += x); Zero marks a declaration
// without a value.
type Def struct {
	Rhs   ast.Expr
	Index int
	Zero  bool
}

// DefsOf returns every recorded definition of v, for variables whose
// definitions are all visible ([Model.Visible]).
func (m *Model) DefsOf(v *types.Var) []Def {
	m.Index()
	out := make([]Def, len(m.defs[v]))
	for i, d := range m.defs[v] {
		out[i] = Def{Rhs: d.rhs, Index: d.index, Zero: d.zero}
	}
	return out
}

// Visible reports whether every definition of v is recorded: a variable of
// this package (local or package-level, not a field) whose address is
// never taken.
func (m *Model) Visible(v *types.Var) bool {
	m.Index()
	return m.local(v) && !m.addrTaken[v]
}

// Decl returns the declaration of a function of this package.
func (m *Model) Decl(fn *types.Func) *ast.FuncDecl {
	m.Index()
	return m.decls[fn.Origin()]
}

// IsParam reports whether v is a parameter (not a result) of a function or
// function literal, and its index.
func (m *Model) IsParam(v *types.Var) (ast.Node, int, bool) {
	m.Index()
	p, ok := m.params[v]
	if !ok || p.result {
		return nil, 0, false
	}
	return p.fn, p.index, true
}

// Assigned reports whether v is assigned after its declaration (a
// parameter reassigned in the body) or has its address taken.
func (m *Model) Assigned(v *types.Var) bool {
	m.Index()
	if m.addrTaken[v] {
		return true
	}
	if _, isParam := m.params[v]; isParam {
		return len(m.defs[v]) > 0
	}
	return len(m.defs[v]) > 1
}

// Callee resolves a call's function, following method values held in
// variables assigned once.
func (m *Model) Callee(call *ast.CallExpr) (*types.Func, ast.Expr) {
	m.Index()
	return analysisutil.Callee(m.info, call, func(v *types.Var) []ast.Expr {
		if m.addrTaken[v] || !m.local(v) {
			return nil
		}
		return m.Defs(v)
	})
}

func (m *Model) index(ins *inspector.Inspector) {
	filter := []ast.Node{
		(*ast.FuncDecl)(nil), (*ast.FuncLit)(nil), (*ast.AssignStmt)(nil),
		(*ast.ValueSpec)(nil), (*ast.RangeStmt)(nil), (*ast.IncDecStmt)(nil),
		(*ast.UnaryExpr)(nil),
	}
	ins.Preorder(filter, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if fn, ok := m.info.Defs[n.Name].(*types.Func); ok {
				m.decls[fn] = n
			}
			m.recordParams(n, n.Recv, n.Type)
		case *ast.FuncLit:
			m.recordParams(n, nil, n.Type)
		case *ast.AssignStmt:
			m.recordAssign(n)
		case *ast.ValueSpec:
			for i, name := range n.Names {
				v, ok := m.info.Defs[name].(*types.Var)
				if !ok {
					continue
				}
				switch {
				case len(n.Values) == len(n.Names):
					m.defs[v] = append(m.defs[v], def{rhs: n.Values[i], index: -1})
				case len(n.Values) == 1:
					m.defs[v] = append(m.defs[v], def{rhs: n.Values[0], index: i})
				default:
					m.defs[v] = append(m.defs[v], def{zero: true, index: -1})
				}
			}
		case *ast.RangeStmt:
			if v := m.varOf(n.Key); v != nil {
				m.defs[v] = append(m.defs[v], def{index: -1})
			}
			if v := m.varOf(n.Value); v != nil {
				m.defs[v] = append(m.defs[v], def{index: -1, rangeOver: n.X})
			}
		case *ast.IncDecStmt:
			if v := m.varOf(n.X); v != nil {
				m.defs[v] = append(m.defs[v], def{index: -1})
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if v := m.rootVar(n.X); v != nil {
					// &v or &v.f: v may change out of sight. A composite
					// literal's address (&T{...}) is not a variable.
					if _, isIdent := ast.Unparen(n.X).(*ast.Ident); isIdent {
						m.addrTaken[v] = true
					}
				}
			}
		}
	})
}

func (m *Model) recordParams(fn ast.Node, recv *ast.FieldList, ft *ast.FuncType) {
	i := 0
	add := func(fl *ast.FieldList, result bool) {
		if fl == nil {
			return
		}
		for _, f := range fl.List {
			if len(f.Names) == 0 {
				i++
				continue
			}
			for _, name := range f.Names {
				if v, ok := m.info.Defs[name].(*types.Var); ok {
					m.params[v] = paramInfo{fn: fn, index: i, result: result}
				}
				i++
			}
		}
	}
	if recv != nil {
		for _, f := range recv.List {
			for _, name := range f.Names {
				if v, ok := m.info.Defs[name].(*types.Var); ok {
					m.params[v] = paramInfo{fn: fn, index: -1}
				}
			}
		}
	}
	add(ft.Params, false)
	i = 0
	add(ft.Results, true)
}

func (m *Model) recordAssign(n *ast.AssignStmt) {
	plain := n.Tok == token.ASSIGN || n.Tok == token.DEFINE
	for i, lhs := range n.Lhs {
		lhs = ast.Unparen(lhs)
		if v := m.varOf(lhs); v != nil {
			switch {
			case !plain:
				m.defs[v] = append(m.defs[v], def{index: -1})
			case len(n.Lhs) == len(n.Rhs):
				m.defs[v] = append(m.defs[v], def{rhs: n.Rhs[i], index: -1})
			case len(n.Rhs) == 1:
				m.defs[v] = append(m.defs[v], def{rhs: n.Rhs[0], index: i})
			}
			continue
		}
		// v.A.B = rhs
		if sel, ok := lhs.(*ast.SelectorExpr); ok && plain && len(n.Lhs) == len(n.Rhs) {
			if root, path := m.fieldPath(sel); root != nil {
				m.fieldSets[root] = append(m.fieldSets[root], fieldSet{path: path, rhs: n.Rhs[i]})
			}
		}
	}
}

// fieldPath returns the variable at the root of x.A.B and the path "A.B".
func (m *Model) fieldPath(sel *ast.SelectorExpr) (*types.Var, string) {
	var parts []string
	var e ast.Expr = sel
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if s, ok := m.info.Selections[x]; ok && s.Kind() == types.FieldVal {
				parts = append([]string{x.Sel.Name}, parts...)
				e = x.X
				continue
			}
			// A qualified identifier: pkg.Var.
			if v, ok := m.info.Uses[x.Sel].(*types.Var); ok {
				return v, strings.Join(parts, ".")
			}
			return nil, ""
		case *ast.StarExpr:
			e = x.X
			continue
		case *ast.Ident:
			if v, ok := m.info.Uses[x].(*types.Var); ok {
				return v, strings.Join(parts, ".")
			}
		}
		return nil, ""
	}
}

func (m *Model) varOf(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	if v, ok := m.info.Defs[id].(*types.Var); ok {
		return v
	}
	if v, ok := m.info.Uses[id].(*types.Var); ok {
		return v
	}
	return nil
}

func (m *Model) rootVar(e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return m.varOf(x)
		case *ast.SelectorExpr:
			if s, ok := m.info.Selections[x]; ok && s.Kind() == types.FieldVal {
				e = x.X
				continue
			}
			return nil
		default:
			return nil
		}
	}
}

// local reports whether v's definitions are all visible: a variable of this
// package (local or package-level), not a field.
func (m *Model) local(v *types.Var) bool {
	return v.Pkg() == m.Pass.Pkg && !v.IsField()
}

// val is an Origin plus "no information yet", the identity of join, used to
// cut cycles (ctx = context.WithValue(ctx, k, v)).
type val struct {
	bottom bool
	Origin
}

var (
	bottom  = val{bottom: true}
	unknown = val{}
)

func join(a, b val) val {
	if a.bottom {
		return b
	}
	if b.bottom {
		return a
	}
	if a.State != b.State {
		// A parameter, and a deadline added to it: the value carries the
		// parameter's cancellation, and its own bound where it was added.
		if a.State == Deadline {
			a, b = b, a
		}
		if a.State == Unknown && a.Param != nil && !a.Inbound && b.State == Deadline && b.Derived == a.Param {
			return b
		}
		return unknown
	}
	switch a.State {
	case Free:
		roots := append(append([]*ast.CallExpr(nil), a.Roots...), b.Roots...)
		return val{Origin: Origin{State: Free, Detached: a.Detached && b.Detached, Roots: roots, NoCtxRequest: a.NoCtxRequest && b.NoCtxRequest}}
	case Deadline:
		o := Origin{State: Deadline}
		if a.Derived == b.Derived {
			o.Derived = a.Derived
		}
		return val{Origin: o}
	}
	o := Origin{Inbound: a.Inbound && b.Inbound}
	if a.Param == b.Param {
		o.Param = a.Param
	}
	return val{Origin: o}
}

const maxDepth = 24

// Context returns the origin of a context-typed expression.
func (m *Model) Context(e ast.Expr) Origin {
	m.Index()
	v := m.ctx(e, map[*types.Var]bool{}, 0)
	if v.bottom {
		return Origin{}
	}
	return v.Origin
}

// VarContext returns the origin of a context variable of this package.
func (m *Model) VarContext(v *types.Var) Origin {
	m.Index()
	r := m.varVal(v, map[*types.Var]bool{}, 0, m.ctx, m.ctxCall)
	if r.bottom {
		return Origin{}
	}
	return r.Origin
}

// Request returns the origin of the context an outbound request carries.
func (m *Model) Request(e ast.Expr) Origin {
	m.Index()
	v := m.req(e, map[*types.Var]bool{}, 0)
	if v.bottom {
		return Origin{}
	}
	return v.Origin
}

func (m *Model) ctx(e ast.Expr, seen map[*types.Var]bool, depth int) val {
	if depth > maxDepth {
		return unknown
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if e.Name == "nil" {
			return unknown
		}
		v, ok := m.info.Uses[e].(*types.Var)
		if !ok {
			return unknown
		}
		return m.varVal(v, seen, depth, m.ctx, m.ctxCall)
	case *ast.CallExpr:
		return m.ctxCall(e, -1, seen, depth)
	}
	return unknown
}

type exprEval func(ast.Expr, map[*types.Var]bool, int) val
type callEval func(*ast.CallExpr, int, map[*types.Var]bool, int) val

func (m *Model) varVal(v *types.Var, seen map[*types.Var]bool, depth int, expr exprEval, call callEval) val {
	if seen[v] {
		return bottom
	}
	if m.addrTaken[v] || !m.local(v) {
		return unknown
	}
	seen[v] = true
	defer delete(seen, v)
	r := bottom
	if p, ok := m.params[v]; ok {
		if p.result {
			r = join(r, unknown)
		} else {
			r = join(r, val{Origin: Origin{Param: v}})
		}
	}
	for _, d := range m.defs[v] {
		var dv val
		switch {
		case d.rhs == nil:
			dv = unknown
		case d.index < 0:
			dv = expr(d.rhs, seen, depth+1)
		default:
			if c, ok := ast.Unparen(d.rhs).(*ast.CallExpr); ok {
				dv = call(c, d.index, seen, depth+1)
			} else {
				dv = unknown
			}
		}
		if dv.self {
			// ctx, cancel := context.WithTimeout(ctx, d): a deadline on v
			// itself, which derives from v's parameter if v is one.
			dv.self = false
			if p, ok := m.params[v]; ok && !p.result {
				dv.Derived = v
			}
		}
		r = join(r, dv)
		if !r.bottom && r.State == Unknown && r.Param == nil && !r.Inbound {
			return unknown // nothing left to learn
		}
	}
	if r.bottom {
		return unknown
	}
	return r
}

func (m *Model) ctxCall(call *ast.CallExpr, index int, seen map[*types.Var]bool, depth int) val {
	fn, recv := m.Callee(call)
	if fn == nil {
		return unknown
	}
	key := analysisutil.Key(fn)
	if row, ok := m.Table.Contexts[key]; ok {
		if index >= 0 && index != row.Result {
			return unknown
		}
		switch row.Effect {
		case knowledge.Root:
			return val{Origin: Origin{State: Free, Detached: true, Roots: []*ast.CallExpr{call}}}
		case knowledge.Inherit:
			if row.Parent >= 0 && row.Parent < len(call.Args) {
				return m.ctx(call.Args[row.Parent], seen, depth+1)
			}
			return unknown
		case knowledge.AddDeadline:
			o := Origin{State: Deadline}
			if row.Parent >= 0 && row.Parent < len(call.Args) {
				switch p := m.ctx(call.Args[row.Parent], seen, depth+1); {
				case p.bottom:
					o.self = true // WithTimeout(ctx, d) assigned to ctx: see varVal
				case p.State == Unknown && !p.Inbound:
					o.Derived = p.Param
				case p.State == Deadline:
					o.Derived = p.Derived
				}
			}
			return val{Origin: o}
		case knowledge.DropDeadline:
			return val{Origin: Origin{State: Free, Roots: []*ast.CallExpr{call}}}
		}
		return unknown
	}
	if m.Table.Inbound[key] && recv != nil && index <= 0 {
		// r.Context(): the caller's budget when r is an inbound request
		// parameter; a request built here carries the context it was
		// built with.
		if v := m.varOf(recv); v != nil {
			if _, _, isParam := m.IsParam(v); isParam && len(m.defs[v]) == 0 {
				return val{Origin: Origin{Inbound: true}}
			}
		}
		return m.req(recv, seen, depth+1)
	}
	return unknown
}

func (m *Model) req(e ast.Expr, seen map[*types.Var]bool, depth int) val {
	if depth > maxDepth {
		return unknown
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if e.Name == "nil" {
			return bottom
		}
		v, ok := m.info.Uses[e].(*types.Var)
		if !ok {
			return unknown
		}
		return m.varVal(v, seen, depth, m.req, m.reqCall)
	case *ast.CallExpr:
		return m.reqCall(e, -1, seen, depth)
	}
	return unknown
}

func (m *Model) reqCall(call *ast.CallExpr, index int, seen map[*types.Var]bool, depth int) val {
	fn, _ := m.Callee(call)
	if fn == nil {
		return unknown
	}
	if row, ok := m.Table.Requests[analysisutil.Key(fn)]; ok {
		if index >= 0 && index != row.Result {
			return unknown
		}
		if row.Ctx == knowledge.None {
			return val{Origin: Origin{State: Free, Roots: []*ast.CallExpr{call}, NoCtxRequest: true}}
		}
		if row.Ctx < len(call.Args) {
			return m.ctx(call.Args[row.Ctx], seen, depth+1)
		}
		return unknown
	}
	f := m.requestFact(fn)
	if f == nil || (index >= 0 && index != f.Result) || (index < 0 && f.Result != 0) {
		return unknown
	}
	if f.Param >= 0 {
		if f.Param < len(call.Args) {
			return m.ctx(call.Args[f.Param], seen, depth+1)
		}
		return unknown
	}
	return val{Origin: Origin{State: f.State, Detached: f.Detached, Roots: []*ast.CallExpr{call}}}
}

// requestFact returns the RequestFact of fn, computing it for functions of
// this package.
func (m *Model) requestFact(fn *types.Func) *RequestFact {
	fn = fn.Origin()
	if fn.Pkg() != m.Pass.Pkg {
		f := new(RequestFact)
		if m.Pass.ImportObjectFact(fn, f) {
			return f
		}
		return nil
	}
	if f, ok := m.reqMemo[fn]; ok {
		return f
	}
	if m.reqBusy[fn] {
		return nil
	}
	m.reqBusy[fn] = true
	f := m.computeRequestFact(fn)
	delete(m.reqBusy, fn)
	m.reqMemo[fn] = f
	return f
}

func (m *Model) computeRequestFact(fn *types.Func) *RequestFact {
	decl := m.decls[fn]
	if decl == nil || decl.Body == nil {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	result := -1
	for i := 0; i < sig.Results().Len(); i++ {
		if m.isRequestType(sig.Results().At(i).Type()) {
			result = i
			break
		}
	}
	if result < 0 {
		return nil
	}
	r := bottom
	seen := map[*types.Var]bool{}
	ok := true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			switch {
			case len(n.Results) == sig.Results().Len():
				r = join(r, m.req(n.Results[result], seen, 0))
			case len(n.Results) == 1:
				if c, isCall := ast.Unparen(n.Results[0]).(*ast.CallExpr); isCall {
					r = join(r, m.reqCall(c, result, seen, 0))
				} else {
					ok = false
				}
			default:
				ok = false // bare return of named results
			}
		}
		return true
	})
	if !ok || r.bottom {
		return nil
	}
	switch {
	case r.State == Unknown && r.Param != nil:
		if p, isParam := m.params[r.Param]; isParam && p.fn == decl && !p.result && p.index >= 0 {
			return &RequestFact{Result: result, Param: p.index}
		}
	case r.State == Free || r.State == Deadline:
		return &RequestFact{Result: result, Param: -1, State: r.State, Detached: r.Detached}
	}
	return nil
}

func (m *Model) isRequestType(t types.Type) bool {
	if _, ok := types.Unalias(t).(*types.Pointer); !ok {
		return false
	}
	k := analysisutil.TypeKey(t)
	if k == "" {
		return false
	}
	for _, row := range m.Table.Requests {
		if row.Type == k {
			return true
		}
	}
	return false
}

func (m *Model) exportRequestFacts() {
	for fn := range m.decls {
		sig := fn.Type().(*types.Signature)
		if m.anyRequest(sig.Results()) {
			if f := m.requestFact(fn); f != nil {
				m.Pass.ExportObjectFact(fn, f)
			}
		}
		if m.anyRequest(sig.Params()) {
			if f := m.recontextFact(fn); f != nil {
				m.Pass.ExportObjectFact(fn, f)
			}
		}
		if sig.Results().Len() > 0 && fn.Exported() && m.returnsUnlimitedGroup(fn) {
			m.Pass.ExportObjectFact(fn, &UnlimitedGroupFact{})
		}
		if sig.Results().Len() > 0 && fn.Exported() && m.returnsDeadlineConn(fn, map[*types.Var]bool{}, 0) {
			m.Pass.ExportObjectFact(fn, &DeadlineConnFact{})
		}
		if sig.Results().Len() > 0 && fn.Exported() {
			if _, ok := m.Table.ClientTypes[analysisutil.TypeKey(sig.Results().At(0).Type())]; ok {
				if b := m.constructed(fn, map[*types.Var]bool{}, 0); b != BoundUnknown {
					m.Pass.ExportObjectFact(fn, &ClientFact{Bound: b})
				}
			}
		}
	}
}

func (m *Model) anyRequest(t *types.Tuple) bool {
	for i := 0; i < t.Len(); i++ {
		if m.isRequestType(t.At(i).Type()) {
			return true
		}
	}
	return false
}

// Recontexts reports whether fn gives its request parameter i a new
// context before using it.
func (m *Model) Recontexts(fn *types.Func, i int) bool {
	m.Index()
	f := m.recontextFact(fn)
	if f == nil {
		return false
	}
	for _, p := range f.Params {
		if p == i {
			return true
		}
	}
	return false
}

// RecontextCall reports whether call gives the request held in variable v
// a new context: v.WithContext(ctx), v.Clone(ctx), or a call passing v to
// a function that does.
func (m *Model) RecontextCall(call *ast.CallExpr, v *types.Var) bool {
	fn, recv := m.Callee(call)
	if fn == nil || isAbstract(fn) {
		// A function value or an interface method given the request and a
		// context (opts.Do(ctx, client, req)) may well attach one: unknown.
		passesV, passesCtx := false, false
		for _, a := range call.Args {
			if m.varOf(a) == v {
				passesV = true
			}
			if analysisutil.IsContext(m.Pass.TypesInfo.TypeOf(a)) {
				passesCtx = true
			}
		}
		return passesV && passesCtx
	}
	if recv != nil {
		if row, ok := m.Table.Requests[analysisutil.Key(fn)]; ok && row.Ctx != knowledge.None && m.varOf(recv) == v {
			return true
		}
	}
	for i, a := range call.Args {
		if m.varOf(a) == v && m.Recontexts(fn, i) {
			return true
		}
	}
	return false
}

func (m *Model) recontextFact(fn *types.Func) *RecontextFact {
	fn = fn.Origin()
	if fn.Pkg() != m.Pass.Pkg {
		f := new(RecontextFact)
		if m.Pass.ImportObjectFact(fn, f) {
			return f
		}
		return nil
	}
	if f, ok := m.recMemo[fn]; ok {
		return f
	}
	if m.recBusy[fn] {
		return nil
	}
	m.recBusy[fn] = true
	defer delete(m.recBusy, fn)
	var f *RecontextFact
	if decl := m.decls[fn]; decl != nil && decl.Body != nil {
		var params []*types.Var
		sig := fn.Type().(*types.Signature)
		for i := 0; i < sig.Params().Len(); i++ {
			params = append(params, sig.Params().At(i))
		}
		found := map[int]bool{}
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			for i, p := range params {
				if !found[i] && m.isRequestType(p.Type()) && m.RecontextCall(call, p) {
					found[i] = true
				}
			}
			return true
		})
		for i := range params {
			if found[i] {
				if f == nil {
					f = &RecontextFact{}
				}
				f.Params = append(f.Params, i)
			}
		}
	}
	m.recMemo[fn] = f
	return f
}

// Client returns what is known about the timeout of a client or dialer
// expression (an *http.Client, a *net.Dialer).
func (m *Model) Client(e ast.Expr) Bound {
	m.Index()
	return m.client(e, map[*types.Var]bool{}, 0)
}

func (m *Model) client(e ast.Expr, seen map[*types.Var]bool, depth int) Bound {
	if depth > maxDepth {
		return BoundUnknown
	}
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return m.client(x.X, seen, depth+1)
		}
	case *ast.StarExpr:
		return m.client(x.X, seen, depth+1)
	case *ast.CompositeLit:
		ct, ok := m.Table.ClientTypes[analysisutil.TypeKey(m.info.TypeOf(x))]
		if !ok {
			return BoundUnknown
		}
		return m.litTimeout(x, ct.TimeoutField, seen, depth)
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && id.Name == "new" && len(x.Args) == 1 {
			if _, isBuiltin := m.info.Uses[id].(*types.Builtin); isBuiltin {
				if _, ok := m.Table.ClientTypes[analysisutil.TypeKey(m.info.TypeOf(x.Args[0]))]; ok {
					return NoTimeout
				}
			}
			return BoundUnknown
		}
		fn, _ := m.Callee(x)
		if fn != nil {
			if cv, ok := m.Table.Clients[analysisutil.Key(fn)]; ok {
				return boundOf(cv)
			}
			if fn.Pkg() != nil && fn.Pkg() != m.Pass.Pkg {
				// A constructor of another package of the module.
				f := new(ClientFact)
				if m.Pass.ImportObjectFact(fn.Origin(), f) {
					return f.Bound
				}
				return BoundUnknown
			}
			return m.constructed(fn, seen, depth)
		}
	case *ast.SelectorExpr:
		if v, ok := m.info.Uses[x.Sel].(*types.Var); ok && !v.IsField() {
			return m.clientVar(v, seen, depth)
		}
		if v, ok := m.info.Uses[x.Sel].(*types.Var); ok && v.IsField() {
			return m.fieldClient(v, seen, depth)
		}
	case *ast.Ident:
		if v, ok := m.info.Uses[x].(*types.Var); ok {
			return m.clientVar(v, seen, depth)
		}
	}
	return BoundUnknown
}

// fieldClient is what is known about the timeout of a client kept in a
// struct field: for an unexported field of this package, which no other
// package can set, the values the package gives it (in literals and
// assignments) when they all agree; unknown if it gives none, takes the
// field's address, or sets anything through it (c.rc.HTTPClient.Timeout =
// d, c.hc.Transport = t).
func (m *Model) fieldClient(f *types.Var, seen map[*types.Var]bool, depth int) Bound {
	if f.Pkg() != m.Pass.Pkg || f.Exported() {
		return BoundUnknown
	}
	if _, ok := m.Table.ClientTypes[analysisutil.TypeKey(f.Type())]; !ok {
		return BoundUnknown
	}
	m.fieldsOnce.Do(m.indexFields)
	if m.fieldOpaque[f] || len(m.fieldVals[f]) == 0 {
		return BoundUnknown
	}
	var b Bound
	for i, e := range m.fieldVals[f] {
		bi := m.client(e, seen, depth+1)
		if bi == BoundUnknown || i > 0 && bi != b {
			return BoundUnknown
		}
		b = bi
	}
	return b
}

// indexFields records the values the package gives struct fields of its
// own, and the fields it cannot follow.
func (m *Model) indexFields() {
	m.fieldVals = map[*types.Var][]ast.Expr{}
	m.fieldOpaque = map[*types.Var]bool{}
	field := func(e ast.Expr) *types.Var { return analysisutil.FieldOf(m.info, e) }
	// through marks every field an lvalue goes through (c.rc in
	// c.rc.HTTPClient.Timeout) as set out of sight.
	through := func(e ast.Expr) {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return
		}
		for x := ast.Unparen(sel.X); ; {
			s, ok := x.(*ast.SelectorExpr)
			if !ok {
				break
			}
			if f := field(s); f != nil {
				m.fieldOpaque[f] = true
			}
			x = ast.Unparen(s.X)
		}
	}
	m.ins.Preorder([]ast.Node{(*ast.CompositeLit)(nil), (*ast.AssignStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.IncDecStmt)(nil)}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.CompositeLit:
			st, ok := types.Unalias(m.info.TypeOf(n)).Underlying().(*types.Struct)
			if !ok {
				return
			}
			for i, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						if f, ok := m.info.Uses[id].(*types.Var); ok && f.IsField() {
							m.fieldVals[f] = append(m.fieldVals[f], kv.Value)
						}
					}
					continue
				}
				if i < st.NumFields() {
					m.fieldVals[st.Field(i)] = append(m.fieldVals[st.Field(i)], el)
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				through(l)
				f := field(l)
				if f == nil {
					continue
				}
				if n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
					m.fieldOpaque[f] = true
					continue
				}
				m.fieldVals[f] = append(m.fieldVals[f], n.Rhs[i])
			}
		case *ast.IncDecStmt:
			through(n.X)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if f := field(n.X); f != nil {
					m.fieldOpaque[f] = true
				}
				through(n.X)
			}
		}
	})
}

// litTimeout reads the timeout field path of a client composite literal;
// a dotted path goes through a nested literal or a dialer variable
// (tls.Dialer{NetDialer: &net.Dialer{Timeout: d}}).
func (m *Model) litTimeout(lit *ast.CompositeLit, path string, seen map[*types.Var]bool, depth int) Bound {
	if depth > maxDepth {
		return BoundUnknown
	}
	head, rest, nested := strings.Cut(path, ".")
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return BoundUnknown // positional fields: do not guess
		}
		if id, ok := kv.Key.(*ast.Ident); !ok || id.Name != head {
			continue
		}
		if !nested {
			return m.timeoutValue(kv.Value)
		}
		v := ast.Unparen(kv.Value)
		if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
			v = ast.Unparen(u.X)
		}
		if inner, ok := v.(*ast.CompositeLit); ok {
			return m.litTimeout(inner, rest, seen, depth+1)
		}
		return m.client(kv.Value, seen, depth+1)
	}
	return NoTimeout
}

// constructed reads the client a function of this package returns: every
// return statement of its body gives a client of the same bound
// (func newClient() *http.Client { return &http.Client{...} }).
func (m *Model) constructed(fn *types.Func, seen map[*types.Var]bool, depth int) Bound {
	decl := m.decls[fn.Origin()]
	if decl == nil || decl.Body == nil || depth > maxDepth {
		return BoundUnknown
	}
	r, found := BoundUnknown, false
	ok := true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) == 0 {
				ok = false
				return false
			}
			if len(n.Results) > 1 && m.info.Types[n.Results[0]].IsNil() {
				return true // return nil, err: no client
			}
			b := m.client(n.Results[0], seen, depth+1)
			if b == BoundUnknown || (found && b != r) {
				ok = false
				return false
			}
			r, found = b, true
		}
		return true
	})
	if !ok || !found {
		return BoundUnknown
	}
	return r
}

func boundOf(cv knowledge.ClientValue) Bound {
	if cv.HasTimeout {
		return HasTimeout
	}
	return NoTimeout
}

func (m *Model) clientVar(v *types.Var, seen map[*types.Var]bool, depth int) Bound {
	if seen[v] || m.addrTaken[v] {
		return BoundUnknown
	}
	// A timeout set by a field assignment anywhere in the package counts.
	if ct, ok := m.Table.ClientTypes[analysisutil.TypeKey(v.Type())]; ok {
		for _, fs := range m.fieldSets[v] {
			if fs.path == ct.TimeoutField {
				if m.timeoutValue(fs.rhs) == HasTimeout {
					return HasTimeout
				}
				return BoundUnknown
			}
			if strings.HasPrefix(ct.TimeoutField, fs.path+".") {
				// d.NetDialer = &net.Dialer{...}: read the rest there.
				if m.client(fs.rhs, seen, depth+1) == HasTimeout {
					return HasTimeout
				}
				return BoundUnknown
			}
		}
	}
	if cv, ok := m.Table.Clients[analysisutil.VarKey(v)]; ok && !m.local(v) {
		return boundOf(cv)
	}
	if !m.local(v) {
		return BoundUnknown
	}
	if _, isParam := m.params[v]; isParam {
		return BoundUnknown
	}
	seen[v] = true
	defer delete(seen, v)
	var r Bound
	first := true
	for _, d := range m.defs[v] {
		var b Bound
		switch {
		case d.zero:
			if _, ok := m.Table.ClientTypes[analysisutil.TypeKey(v.Type())]; ok {
				if _, isPtr := v.Type().Underlying().(*types.Pointer); !isPtr {
					b = NoTimeout
				}
			}
		case d.rhs != nil && d.index < 0:
			b = m.client(d.rhs, seen, depth+1)
		}
		if first {
			r, first = b, false
		} else if r != b {
			return BoundUnknown
		}
		if r == BoundUnknown {
			return BoundUnknown
		}
	}
	return r
}

// DeadlineConn reports whether e, a gRPC client connection or a generated
// client made from one, traces back to a connection dialled with an option
// that can give its calls a deadline (a unary interceptor, a service config
// with a "timeout"), or with options that cannot be read: a call on it may
// be bounded, and resilint stays silent.
func (m *Model) DeadlineConn(e ast.Expr) bool {
	m.Index()
	return m.deadlineConn(e, map[*types.Var]bool{}, 0)
}

func (m *Model) deadlineConn(e ast.Expr, seen map[*types.Var]bool, depth int) bool {
	if depth > maxDepth || e == nil {
		return false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return m.deadlineConn(x.X, seen, depth+1)
		}
	case *ast.CompositeLit:
		// A wrapper made here (&Client{conn: conn, certs: pb.NewCertsClient(conn)}):
		// its connection or generated client.
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			if t := m.info.TypeOf(el); t != nil && m.connOrClient(t) && m.deadlineConn(el, seen, depth+1) {
				return true
			}
		}
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		if !ok || seen[v] || !m.local(v) {
			return false
		}
		seen[v] = true
		for _, d := range m.defs[v] {
			if d.rhs != nil && d.index <= 0 && m.deadlineConn(d.rhs, seen, depth+1) {
				return true
			}
		}
	case *ast.CallExpr:
		fn, _ := m.Callee(x)
		if fn == nil {
			return false
		}
		g := &m.Table.GRPC
		if first, ok := g.Dials[analysisutil.Key(fn)]; ok {
			return m.deadlineOptions(x, first, depth)
		}
		// A dial helper of the module (conn, err := warehouse.Dial(addr)).
		if fn.Pkg() != nil && fn.Pkg() != m.Pass.Pkg {
			if m.Pass.ImportObjectFact(fn.Origin(), new(DeadlineConnFact)) {
				return true
			}
		} else if m.returnsDeadlineConn(fn, seen, depth+1) {
			return true
		}
		// A client constructor taking the connection (NewInventoryClient(cc)).
		sig, _ := fn.Type().(*types.Signature)
		for i := 0; sig != nil && i < sig.Params().Len() && i < len(x.Args); i++ {
			if slices.Contains(g.ConnTypes, analysisutil.TypeKey(sig.Params().At(i).Type())) {
				return m.deadlineConn(x.Args[i], seen, depth+1)
			}
		}
	}
	return false
}

// DialsWithDeadline reports whether a function of this package returns a
// gRPC connection or client dialled with an option that can give its calls
// a deadline (a dial helper with a deadline interceptor). A generated client
// the package keeps in a struct field, from a connection it is given, most
// likely comes from that helper: a call on it may be bounded.
func (m *Model) DialsWithDeadline() bool {
	m.Index()
	m.dialsOnce.Do(func() {
		for fn := range m.decls {
			if m.returnsDeadlineConn(fn, map[*types.Var]bool{}, 0) {
				m.dials = true
				return
			}
		}
	})
	return m.dials
}

// returnsDeadlineConn reports whether a function of this package returns,
// first, a connection or client that DeadlineConn traces to a dial with a
// deadline option.
func (m *Model) returnsDeadlineConn(fn *types.Func, seen map[*types.Var]bool, depth int) bool {
	decl := m.decls[fn.Origin()]
	if decl == nil || decl.Body == nil || depth > maxDepth {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Results().Len() == 0 {
		return false
	}
	if !m.connOrClient(sig.Results().At(0).Type()) {
		return false // not worth reading the body (every exported function is asked)
	}
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) > 0 && !found && m.deadlineConn(n.Results[0], seen, depth+1) {
				found = true
			}
		}
		return !found
	})
	return found
}

// connOrClient reports whether t is a connection type or a generated
// client: an interface of methods taking call options, or (a pointer to) a
// struct with a field of a connection type.
func (m *Model) connOrClient(t types.Type) bool {
	g := &m.Table.GRPC
	if slices.Contains(g.ConnTypes, analysisutil.TypeKey(t)) {
		return true
	}
	switch u := analysisutil.Deref(t).Underlying().(type) {
	case *types.Interface:
		return m.generatedClient(u)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			ft := u.Field(i).Type()
			if slices.Contains(g.ConnTypes, analysisutil.TypeKey(ft)) || m.generatedClient(ft) {
				return true
			}
		}
	}
	return false
}

// generatedClient reports whether t is a generated gRPC client: an
// interface of methods taking call options.
func (m *Model) generatedClient(t types.Type) bool {
	u, ok := types.Unalias(t).Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for i := 0; i < u.NumMethods(); i++ {
		sig, _ := u.Method(i).Type().(*types.Signature)
		if sig == nil || !sig.Variadic() {
			continue
		}
		if sl, ok := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice); ok && analysisutil.TypeKey(sl.Elem()) == m.Table.GRPC.CallOption {
			return true
		}
	}
	return false
}

// deadlineOptions reports whether the dial options of call (from index
// first on) include one that can set deadlines, or cannot be read.
func (m *Model) deadlineOptions(call *ast.CallExpr, first, depth int) bool {
	var opts []ast.Expr
	for i := first; i < len(call.Args); i++ {
		opts = append(opts, call.Args[i])
	}
	if call.Ellipsis.IsValid() && len(opts) > 0 {
		// grpc.NewClient(target, opts...): read the slice's literal and
		// appends; anything else is unreadable.
		last := opts[len(opts)-1]
		opts = opts[:len(opts)-1]
		elems, ok := m.sliceElems(last)
		if !ok {
			return true
		}
		opts = append(opts, elems...)
	}
	for _, o := range opts {
		oc, ok := ast.Unparen(o).(*ast.CallExpr)
		if !ok {
			return true // an option from a variable: unknown
		}
		fn, _ := m.Callee(oc)
		if fn == nil {
			return true
		}
		row, ok := m.Table.GRPC.DeadlineOptions[analysisutil.Key(fn)]
		if !ok {
			if fn.Pkg() != nil && fn.Pkg() == m.Pass.Pkg {
				return true // the package's own option helper: unknown
			}
			continue
		}
		if row.Config == knowledge.None || row.Config >= len(oc.Args) {
			return true
		}
		strs, ok := m.Strings(oc.Args[row.Config])
		if !ok {
			return true
		}
		for _, js := range strs {
			if strings.Contains(js, `"timeout"`) {
				return true
			}
		}
	}
	return false
}

// sliceElems returns the elements a local slice variable is given: its
// composite literal and the values appended to it.
func (m *Model) sliceElems(e ast.Expr) ([]ast.Expr, bool) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil, false
	}
	v, ok := m.info.Uses[id].(*types.Var)
	if !ok || !m.local(v) || m.addrTaken[v] {
		return nil, false
	}
	if _, isParam := m.params[v]; isParam {
		return nil, false
	}
	var out []ast.Expr
	for _, d := range m.defs[v] {
		switch {
		case d.zero:
		case d.rhs == nil || d.index > 0:
			return nil, false
		default:
			switch r := ast.Unparen(d.rhs).(type) {
			case *ast.CompositeLit:
				out = append(out, r.Elts...)
			case *ast.CallExpr:
				// opts = append(opts, x, y)
				if id, ok := ast.Unparen(r.Fun).(*ast.Ident); !ok || id.Name != "append" || len(r.Args) == 0 || r.Ellipsis.IsValid() {
					return nil, false
				}
				if base, ok := ast.Unparen(r.Args[0]).(*ast.Ident); !ok || m.info.Uses[base] != v {
					return nil, false
				}
				out = append(out, r.Args[1:]...)
			default:
				return nil, false
			}
		}
	}
	return out, true
}

// timeoutValue reads the value given to a Timeout field: a constant zero is
// no timeout, anything else is a timeout.
func (m *Model) timeoutValue(e ast.Expr) Bound {
	if tv, ok := m.info.Types[e]; ok && tv.Value != nil {
		if tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) <= 0 {
			return NoTimeout
		}
	}
	return HasTimeout
}

// Caller is the caller's context visible in a function: a context.Context
// parameter, or the Context() of an inbound request parameter.
type Caller struct {
	// Param is the context parameter, or nil.
	Param *types.Var
	// Request is the inbound request parameter, when there is no context
	// parameter.
	Request *types.Var
	// Func is the function or function literal that declares it.
	Func ast.Node
}

// Expr returns how to spell the caller's context at pos, or "" when the
// parameter is shadowed there.
func (c *Caller) Expr(pkg *types.Package, pos token.Pos) string {
	v, suffix := c.Param, ""
	if v == nil {
		v, suffix = c.Request, ".Context()"
	}
	if v == nil || v.Name() == "" || v.Name() == "_" {
		return ""
	}
	if !analysisutil.VisibleAt(pkg, pos, v) {
		return ""
	}
	return v.Name() + suffix
}

// CallerOf returns the caller's context in scope at the innermost function
// of stack (an inspector stack, outermost first): the nearest enclosing
// function or function literal with a context parameter, else with an
// inbound request parameter. It returns nil when there is none, as in main,
// in tests' own contexts and in functions that receive no context.
func (m *Model) CallerOf(stack []ast.Node) *Caller {
	m.Index()
	var req, blank *Caller
	innermost := true
	orBlank := func() *Caller {
		if req == nil && blank != nil {
			return blank
		}
		return req
	}
	for i := len(stack) - 1; i >= 0; i-- {
		var ft *ast.FuncType
		switch f := stack[i].(type) {
		case *ast.FuncDecl:
			ft = f.Type
		case *ast.FuncLit:
			ft = f.Type
		default:
			continue
		}
		c, b := m.paramCaller(stack[i], ft)
		if c != nil && c.Param != nil {
			return c
		}
		if req == nil {
			req = c
		}
		if innermost {
			// func (s *S) Relocate(_ context.Context, ...): the function is
			// given the caller's context and throws it away. It counts
			// when nothing else does; Expr spells it "" (no fix).
			blank, innermost = b, false
		}
		if lit, ok := stack[i].(*ast.FuncLit); ok && i > 0 && outlives(stack[i-1], lit) {
			// A function literal returned or stored for later (a shutdown
			// hook, a struct's callback) runs after the enclosing call
			// has returned: the enclosing function's context is not its
			// caller's budget. Only its own parameters count.
			return orBlank()
		}
	}
	return orBlank()
}

func (m *Model) isInbound(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && m.Table.InboundParams[analysisutil.TypeKey(p.Elem())]
}

// paramCaller returns the caller's context among the parameters of one
// function, preferring a context parameter.
//
// blank is a context parameter named _, or nil: the function is given the
// caller's context and throws it away.
func (m *Model) paramCaller(fn ast.Node, ft *ast.FuncType) (c, blank *Caller) {
	if ft.Params == nil {
		return nil, nil
	}
	var req *Caller
	for _, field := range ft.Params.List {
		for _, name := range field.Names {
			v, ok := m.info.Defs[name].(*types.Var)
			if !ok {
				continue
			}
			if name.Name == "_" {
				if blank == nil && analysisutil.IsContext(v.Type()) {
					blank = &Caller{Param: v, Func: fn}
				}
				continue
			}
			if analysisutil.IsContext(v.Type()) {
				return &Caller{Param: v, Func: fn}, blank
			}
			if req == nil && m.isInbound(v.Type()) {
				req = &Caller{Request: v, Func: fn}
			}
		}
	}
	return req, blank
}

// outlives reports whether a function literal, given its parent node, is
// kept to run after the enclosing function returns: returned, or stored in
// a composite literal, a field, a map or a package-level variable.
func outlives(parent ast.Node, lit *ast.FuncLit) bool {
	switch p := parent.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.CompositeLit:
		return true
	case *ast.KeyValueExpr:
		return p.Value == lit
	case *ast.AssignStmt:
		for i, rhs := range p.Rhs {
			if rhs == lit && i < len(p.Lhs) {
				if _, local := p.Lhs[i].(*ast.Ident); !local || p.Tok != token.DEFINE && p.Tok != token.ASSIGN {
					return true
				}
			}
		}
	}
	return false
}

// ServesRequest reports whether decl serves an inbound request: it has an
// inbound request parameter (an HTTP handler), or it is a method of a gRPC
// server implementation (its receiver embeds the generated Unimplemented…Server).
func (m *Model) ServesRequest(decl *ast.FuncDecl) bool {
	m.Index()
	if serves, ok := m.inboundParam(decl.Type, decl.Body); ok {
		return serves
	}
	if decl.Recv == nil || len(decl.Recv.List) != 1 {
		return false
	}
	sig, ok := m.info.Defs[decl.Name].(*types.Func)
	if !ok {
		return false
	}
	params := sig.Type().(*types.Signature).Params()
	if params.Len() == 0 || !analysisutil.IsContext(params.At(0).Type()) {
		return false
	}
	recv := m.info.TypeOf(decl.Recv.List[0].Type)
	if p, ok := types.Unalias(recv).(*types.Pointer); ok {
		recv = p.Elem()
	}
	st, ok := recv.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Embedded() {
			continue
		}
		name := f.Name()
		if strings.HasPrefix(name, m.Table.GRPC.ServerEmbedPrefix) && strings.HasSuffix(name, m.Table.GRPC.ServerEmbedSuffix) {
			// Only the RPCs serve requests: the methods the embedded
			// Unimplemented server also has. A background sweeper or a
			// Start method on the same type is not a request path.
			obj, _, _ := types.LookupFieldOrMethod(f.Type(), true, sig.Pkg(), decl.Name.Name)
			_, isMethod := obj.(*types.Func)
			return isMethod
		}
	}
	return false
}

// sends reports whether decl's body hands the request variable v to an
// outbound call that sends requests (client.Do(v), transport.RoundTrip(v)).
// ServesRequestLit reports whether a function literal serves an inbound
// request: an http.HandlerFunc literal, a middleware's inner handler.
func (m *Model) ServesRequestLit(lit *ast.FuncLit) bool {
	m.Index()
	serves, _ := m.inboundParam(lit.Type, lit.Body)
	return serves
}

// inboundParam reads a function's inbound request parameter: ok when it
// has one; serves unless the function sends that request itself (a
// RoundTripper, a client's do helper: client side, not a request path).
func (m *Model) inboundParam(ft *ast.FuncType, body *ast.BlockStmt) (serves, ok bool) {
	for _, field := range ft.Params.List {
		if !m.isInbound(m.info.TypeOf(field.Type)) {
			continue
		}
		for _, name := range field.Names {
			if v, isVar := m.info.Defs[name].(*types.Var); isVar && body != nil && m.sends(body, v) {
				return false, true
			}
		}
		return true, true
	}
	return false, false
}

func (m *Model) sends(body *ast.BlockStmt, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		fn, _ := m.Callee(call)
		if fn == nil {
			return true
		}
		key := analysisutil.Key(fn)
		if row, ok := m.Table.Outbound[key]; ok && row.Request >= 0 && row.Request < len(call.Args) && m.requestVar(call.Args[row.Request]) == v {
			found = true
		}
		if m.Table.Senders[key] {
			for _, a := range call.Args {
				if m.requestVar(a) == v {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// requestVar returns the variable a request expression is, or is a copy of
// (req.WithContext(ctx), req.Clone(ctx)).
func (m *Model) requestVar(e ast.Expr) *types.Var {
	for i := 0; i < maxDepth; i++ {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return m.varOf(e)
		}
		fn, recv := m.Callee(call)
		if fn == nil || recv == nil {
			return nil
		}
		if _, ok := m.Table.Requests[analysisutil.Key(fn)]; !ok {
			return nil
		}
		e = recv
	}
	return nil
}

// GlobalTimeout reports whether the package sets the timeout field of the
// package-level client variable key (http.DefaultClient.Timeout = d).
func (m *Model) GlobalTimeout(key string) bool {
	m.Index()
	for v, sets := range m.fieldSets {
		if analysisutil.VarKey(v) != key {
			continue
		}
		ct, ok := m.Table.ClientTypes[analysisutil.TypeKey(v.Type())]
		if !ok {
			continue
		}
		for _, fs := range sets {
			if fs.path == ct.TimeoutField && m.timeoutValue(fs.rhs) == HasTimeout {
				return true
			}
		}
	}
	return false
}

// Strings returns the constant string values an expression can have: a
// constant, or a variable whose every definition is one (including the
// values of a range over a literal slice of constants). ok is false when
// any value is unknown.
func (m *Model) Strings(e ast.Expr) ([]string, bool) {
	m.Index()
	return m.strs(e, map[*types.Var]bool{}, 0)
}

func (m *Model) strs(e ast.Expr, seen map[*types.Var]bool, depth int) ([]string, bool) {
	if depth > maxDepth {
		return nil, false
	}
	e = ast.Unparen(e)
	if tv, ok := m.info.Types[e]; ok && tv.Value != nil {
		if tv.Value.Kind() == constant.String {
			return []string{constant.StringVal(tv.Value)}, true
		}
		return nil, false
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil, false
	}
	v, ok := m.info.Uses[id].(*types.Var)
	if !ok || seen[v] || m.addrTaken[v] || !m.local(v) {
		return nil, false
	}
	if _, isParam := m.params[v]; isParam {
		return nil, false
	}
	seen[v] = true
	defer delete(seen, v)
	var out []string
	for _, d := range m.defs[v] {
		switch {
		case d.rangeOver != nil:
			lit := m.literal(d.rangeOver, seen)
			if lit == nil {
				return nil, false
			}
			for _, elt := range lit.Elts {
				vs, ok := m.strs(elt, seen, depth+1)
				if !ok {
					return nil, false
				}
				out = append(out, vs...)
			}
		case d.rhs != nil && d.index < 0:
			vs, ok := m.strs(d.rhs, seen, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, vs...)
		default:
			return nil, false
		}
	}
	return out, len(out) > 0
}

// literal returns the composite literal an expression is, or the one a
// variable assigned once holds.
func (m *Model) literal(e ast.Expr, seen map[*types.Var]bool) *ast.CompositeLit {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return x
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		if !ok || m.addrTaken[v] || !m.local(v) || len(m.defs[v]) != 1 {
			return nil
		}
		d := m.defs[v][0]
		if d.rhs == nil || d.index >= 0 {
			return nil
		}
		lit, _ := ast.Unparen(d.rhs).(*ast.CompositeLit)
		return lit
	}
	return nil
}

// Loopback reports whether an address expression provably names the local
// host: constant addresses, fmt.Sprintf("127.0.0.1:%d", ...), and
// net.JoinHostPort("localhost", ...).
func (m *Model) Loopback(e ast.Expr) bool {
	m.Index()
	if values, ok := m.Strings(e); ok {
		for _, v := range values {
			if !m.loopbackPrefix(v) {
				return false
			}
		}
		return true
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, _ := m.Callee(call)
	if fn == nil {
		return false
	}
	key := analysisutil.Key(fn)
	if i, ok := m.Table.Formatters[key]; ok && i < len(call.Args) {
		if values, ok := m.Strings(call.Args[i]); ok && len(values) == 1 {
			return m.loopbackPrefix(values[0])
		}
	}
	if i, ok := m.Table.HostJoins[key]; ok && i < len(call.Args) {
		if values, ok := m.Strings(call.Args[i]); ok {
			for _, v := range values {
				if !m.isLoopback(v) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// loopbackPrefix reports whether an address (or a format) starts with a
// loopback host followed by a port separator.
func (m *Model) loopbackPrefix(addr string) bool {
	for _, h := range m.Table.LoopbackHosts {
		if strings.HasPrefix(addr, h+":") {
			return true
		}
	}
	return false
}

func (m *Model) isLoopback(host string) bool {
	for _, h := range m.Table.LoopbackHosts {
		if host == h {
			return true
		}
	}
	return false
}

// isAbstract reports whether fn is an interface method (no body anywhere).
func isAbstract(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}
