package globalbreaker

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strconv"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
	"github.com/resilint/resilint/passes/ctxflow"
	"github.com/resilint/resilint/passes/deps"
)

//go:embed doc.go
var docSrc string

// Doc is the analyzer's documentation, from doc.go.
var Doc = analysisutil.MustDoc(docSrc, "globalbreaker")

// Analyzer is globalbreaker with the default configuration.
var Analyzer = New(config.Default())

// New returns the analyzer for a configuration.
func New(cfg *config.Config) *analysis.Analyzer {
	return cfg.Memo("globalbreaker", func() *analysis.Analyzer {
		dp := deps.New(cfg)
		return &analysis.Analyzer{
			Name:      Doc.Name,
			Doc:       Doc.Text(),
			URL:       "https://github.com/resilint/resilint/blob/main/analyzers/globalbreaker/doc.go",
			Requires:  []*analysis.Analyzer{inspect.Analyzer, dp},
			Run:       func(pass *analysis.Pass) (any, error) { return run(pass, cfg, dp) },
			FactTypes: []analysis.Fact{new(WrapperFact), new(PackageFact)},
		}
	})
}

// A call of the package, with what the analysis needs of its surroundings.
type callSite struct {
	call  *ast.CallExpr
	fn    *types.Func
	recv  ast.Expr
	owner *ast.FuncDecl // outermost function declaration, or nil
	where analysisutil.Where
}

// A ref is what is known about the breaker of a guarded call.
type ref struct {
	key  string // identity; "" when unknown
	text string // spelling for messages
	// sym is the breaker as a symbolic value (a field path, a parameter),
	// for helpers that guard their function argument.
	sym deps.Sym
	// name is the constant breaker name (hystrix command, registry);
	// nameParam is the index of the owner's parameter that names it, or -1.
	lib       string
	nameParam int
	// local is the local variable holding a breaker constructed in the
	// function (ctor); ctor alone is a construction used in place.
	local *types.Var
	ctor  *ast.CallExpr
	// holder is the local variable holding an executor whose definition
	// constructs the breaker in place (exec := failsafe.With(New...())).
	holder *types.Var
	// expr is the expression that names the breaker at the call.
	expr ast.Expr
}

// A guarded call runs an operation through a breaker.
type guarded struct {
	site  *callSite
	guard knowledge.Guard
	ref   ref
	sites []deps.Site
	// direct: the call is a known guarded call (not a helper's), so its
	// receiver can be replaced.
	direct bool
}

// A wrapper is a function of the package that runs its function parameter
// Op through a breaker.
type wrapper struct {
	op  int
	ref ref
}

type checker struct {
	pass  *analysis.Pass
	cfg   *config.Config
	table *knowledge.BreakerTable
	m     *deps.Model
	flow  *ctxflow.Model
	rep   *analysisutil.Reporter

	calls    []*callSite
	guarded  []*guarded
	wrappers map[*types.Func]*wrapper
	// imported are the helpers of other packages, from their facts (nil:
	// not a helper).
	imported map[*types.Func]*wrapper
	uses     map[*types.Var][]use
	paths    map[string]bool // import paths of the breaker rows
}

// use is one use of a local breaker variable.
type use struct {
	id *ast.Ident
	// repeated: a loop or function literal that does not contain the
	// variable's declaration encloses the use.
	repeated bool
}

func run(pass *analysis.Pass, cfg *config.Config, dp *analysis.Analyzer) (any, error) {
	table := &cfg.Table().Breakers
	m := pass.ResultOf[dp].(*deps.Model)
	c := &checker{
		pass: pass, cfg: cfg, table: table, m: m, flow: m.Flow,
		rep:      analysisutil.NewReporter(pass, cfg),
		wrappers: map[*types.Func]*wrapper{},
		imported: map[*types.Func]*wrapper{},
		uses:     map[*types.Var][]use{},
		paths:    table.Paths(),
	}
	if !analysisutil.Imports(pass.Pkg, c.paths) && !c.importsWrappers() {
		return nil, nil
	}
	m.Flow.Index()
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	filter := []ast.Node{(*ast.CallExpr)(nil), (*ast.CompositeLit)(nil), (*ast.AssignStmt)(nil), (*ast.Ident)(nil)}
	ins.WithStack(filter, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			fn, recv := c.flow.Callee(n)
			if fn == nil {
				return true
			}
			w := analysisutil.WhereOf(stack)
			cs := &callSite{call: n, fn: fn, recv: recv, owner: w.Decl, where: w}
			c.calls = append(c.calls, cs)
			c.checkCall(cs)
		case *ast.CompositeLit:
			c.checkLiteral(n)
		case *ast.AssignStmt:
			c.checkAssign(n)
		case *ast.Ident:
			c.noteUse(n, stack)
		}
		return true
	})

	// Guarded calls, then calls of helpers that guard their function
	// argument (helpers of helpers, a few levels deep).
	for _, cs := range c.calls {
		if g, ok := table.Guards[analysisutil.Key(cs.fn)]; ok {
			c.addGuarded(cs, g)
		}
	}
	for round := 0; round < 3; round++ {
		n := len(c.wrappers)
		for _, cs := range c.calls {
			if w := c.wrapperOf(cs.fn); w != nil && !c.isGuarded(cs) {
				c.addWrapped(cs, w)
			}
		}
		if len(c.wrappers) == n {
			break
		}
	}
	c.exportWrappers()
	c.reportShared()
	c.reportNeverTrips()
	return nil, nil
}

func (c *checker) isGuarded(cs *callSite) bool {
	for _, g := range c.guarded {
		if g.site == cs {
			return true
		}
	}
	return false
}

// addGuarded records a guarded call: its breaker and the dependencies its
// operation reaches.
func (c *checker) addGuarded(cs *callSite, g knowledge.Guard) {
	op, twoStep := c.opIndex(cs, g)
	r, ok := c.breakerOf(cs, g)
	if !ok {
		return
	}
	gc := &guarded{site: cs, guard: g, ref: r, direct: true}
	switch {
	case twoStep:
		gc.sites = c.regionSites(cs)
	case op >= 0 && op < len(cs.call.Args):
		if j := c.opParam(cs.call.Args[op], cs.owner); j >= 0 {
			c.addWrapper(cs, j, r)
		}
		gc.sites = c.opSites(cs.call.Args[op], cs.owner)
	}
	c.guarded = append(c.guarded, gc)
}

// addWrapped records a call of a helper that guards its function argument.
func (c *checker) addWrapped(cs *callSite, w *wrapper) {
	if w.op >= len(cs.call.Args) || cs.call.Ellipsis.IsValid() {
		return
	}
	if sig, ok := cs.fn.Type().(*types.Signature); !ok || (sig.Recv() != nil && cs.recv == nil) {
		// A method expression ((*Guard).Do(g, fn)): the arguments are
		// shifted by the receiver.
		return
	}
	r := ref{key: w.ref.key, text: w.ref.text, lib: w.ref.lib, nameParam: -1, expr: cs.call}
	switch {
	case w.ref.nameParam >= 0:
		if w.ref.nameParam >= len(cs.call.Args) {
			return
		}
		arg := cs.call.Args[w.ref.nameParam]
		if s, ok := analysisutil.ConstString(c.pass.TypesInfo, arg); ok {
			r.key, r.text = w.ref.lib+":"+s, strconv.Quote(s)
		} else if j := c.paramIndex(arg, cs.owner); j >= 0 {
			r.key, r.nameParam = "", j
		} else {
			return
		}
	case w.ref.sym.Kind == deps.Path:
		r.sym = c.m.Subst(w.ref.sym, cs.fn, cs.recv, cs.call.Args, cs.owner)
		r.key = c.m.Key(r.sym, cs.owner)
		r.text = r.sym.Text
		if r.key == "" {
			return
		}
	}
	if j := c.opParam(cs.call.Args[w.op], cs.owner); j >= 0 {
		c.addWrapper(cs, j, r)
	}
	gc := &guarded{site: cs, ref: r, sites: c.opSites(cs.call.Args[w.op], cs.owner)}
	c.guarded = append(c.guarded, gc)
}

// addWrapper records that cs's function guards its parameter j with r.
func (c *checker) addWrapper(cs *callSite, j int, r ref) {
	if cs.owner == nil || cs.where.Func != ast.Node(cs.owner) {
		return
	}
	fn, ok := c.pass.TypesInfo.Defs[cs.owner.Name].(*types.Func)
	if !ok || c.wrappers[fn] != nil {
		return
	}
	if r.key == "" && r.nameParam < 0 && r.sym.Kind != deps.Path {
		return
	}
	if r.sym.Kind == deps.Path && r.sym.Root == deps.RootParam && r.sym.Param >= 0 && r.key != "" {
		// The breaker is a parameter: resolved at each call.
		r.key = ""
	}
	if r.key != "" && r.sym.Kind != deps.Path && r.nameParam < 0 && r.lib == "" && !isStable(r.key) {
		return
	}
	c.wrappers[fn] = &wrapper{op: j, ref: r}
}

func isStable(key string) bool { return key != "" && key[0] != 'l' } // not "local:..."

// paramIndex returns the index of e among the parameters of owner when e is
// one of them (a function declaration's, not a literal's), else -1.
func (c *checker) paramIndex(e ast.Expr, owner *ast.FuncDecl) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || owner == nil {
		return -1
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return -1
	}
	fn, idx, ok := c.flow.IsParam(v)
	if !ok || fn != ast.Node(owner) || idx < 0 {
		return -1
	}
	return idx
}

// opParam returns the index of the parameter of owner that a guarded
// operation runs: the parameter itself (cb.Execute(fn)), or a function
// literal that calls it (cb.Execute(func() (any, error) { return fn() })),
// not in a goroutine or a nested literal. Else -1, also when the literal
// calls several parameters.
func (c *checker) opParam(op ast.Expr, owner *ast.FuncDecl) int {
	lit, ok := ast.Unparen(op).(*ast.FuncLit)
	if !ok {
		return c.paramIndex(op, owner)
	}
	found := -1
	several := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt:
			return false
		case *ast.CallExpr:
			if j := c.paramIndex(n.Fun, owner); j >= 0 {
				if found >= 0 && found != j {
					several = true
				}
				found = j
			}
		}
		return true
	})
	if several {
		return -1
	}
	return found
}

// opIndex returns the index of the guarded operation argument, or
// twoStep for a call whose done callback closes the guarded region.
func (c *checker) opIndex(cs *callSite, g knowledge.Guard) (op int, twoStep bool) {
	if g.Op != knowledge.Auto {
		return g.Op, g.Op == knowledge.None
	}
	for i, a := range cs.call.Args {
		if t := c.pass.TypesInfo.TypeOf(a); t != nil {
			if _, ok := t.Underlying().(*types.Signature); ok {
				return i, false
			}
		}
	}
	sig, _ := cs.fn.Type().(*types.Signature)
	if sig != nil {
		for i := 0; i < sig.Results().Len(); i++ {
			if _, ok := sig.Results().At(i).Type().Underlying().(*types.Signature); ok {
				return knowledge.None, true
			}
		}
	}
	return knowledge.None, false
}

// opSites returns the dependencies a guarded operation reaches: a function
// literal's calls, or a function or method value's.
func (c *checker) opSites(op ast.Expr, owner *ast.FuncDecl) []deps.Site {
	return c.sitesOf(op, owner, 0)
}

func (c *checker) sitesOf(op ast.Expr, owner *ast.FuncDecl, depth int) []deps.Site {
	if depth > 3 {
		return nil
	}
	info := c.pass.TypesInfo
	var ds []deps.Dep
	switch x := ast.Unparen(op).(type) {
	case *ast.FuncLit:
		ds = c.m.Reach(x.Body, owner)
	case *ast.Ident:
		switch obj := info.Uses[x].(type) {
		case *types.Func:
			ds = c.m.CallDeps(obj, nil, nil, owner, 0)
		case *types.Var:
			if c.flow.Visible(obj) && !isGlobal(obj) {
				if defs := c.flow.DefsOf(obj); len(defs) == 1 && defs[0].Rhs != nil && defs[0].Index < 0 {
					return c.sitesOf(defs[0].Rhs, owner, depth+1)
				}
			}
		}
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok {
			if fn, ok := sel.Obj().(*types.Func); ok && sel.Kind() == types.MethodVal {
				ds = c.m.CallDeps(fn, x.X, nil, owner, 0)
			}
		} else if fn, ok := info.Uses[x.Sel].(*types.Func); ok {
			ds = c.m.CallDeps(fn, nil, nil, owner, 0)
		}
	}
	out := make([]deps.Site, 0, len(ds))
	for _, d := range ds {
		out = append(out, deps.Site{Dep: d, Owner: owner})
	}
	return out
}

func isGlobal(v *types.Var) bool { return v.Pkg() != nil && v.Parent() == v.Pkg().Scope() }

// regionSites returns the dependencies reached between a two-step call
// (done, err := cb.Allow()) and the call of its done callback: the
// statements after it in its block, up to the one that calls done.
func (c *checker) regionSites(cs *callSite) []deps.Site {
	w := cs.where
	var list []ast.Stmt
	switch {
	case w.Block != nil:
		list = w.Block.List
	default:
		return nil
	}
	var done *types.Var
	if as, ok := w.Stmt.(*ast.AssignStmt); ok && len(as.Lhs) >= 1 && len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == ast.Expr(cs.call) {
		if id, ok := as.Lhs[0].(*ast.Ident); ok {
			done, _ = c.pass.TypesInfo.ObjectOf(id).(*types.Var)
		}
	}
	var out []deps.Site
	after := false
	for _, s := range list {
		if s == w.Stmt {
			after = true
			continue
		}
		if !after {
			continue
		}
		for _, d := range c.m.Reach(s, cs.owner) {
			out = append(out, deps.Site{Dep: d, Owner: cs.owner})
		}
		if done != nil && callsVar(c.pass.TypesInfo, s, done) {
			if _, deferred := s.(*ast.DeferStmt); !deferred {
				break
			}
		}
	}
	return out
}

// callsVar reports whether n calls the function held by v.
func callsVar(info *types.Info, n ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && info.Uses[id] == v {
				found = true
			}
		}
		return !found
	})
	return found
}

// breakerOf returns the breaker of a guarded call.
func (c *checker) breakerOf(cs *callSite, g knowledge.Guard) (ref, bool) {
	switch g.From {
	case knowledge.FromReceiver:
		if cs.recv == nil {
			return ref{}, false
		}
		return c.ref(cs.recv, cs.owner, 0), true
	case knowledge.FromName:
		if g.Name < 0 || g.Name >= len(cs.call.Args) {
			return ref{}, false
		}
		lib := knowledge.PathOf(analysisutil.Key(cs.fn))
		arg := cs.call.Args[g.Name]
		r := ref{lib: lib, nameParam: -1, expr: arg}
		if s, ok := analysisutil.ConstString(c.pass.TypesInfo, arg); ok {
			r.key, r.text = lib+":"+s, strconv.Quote(s)
		} else if j := c.paramIndex(arg, cs.owner); j >= 0 {
			r.nameParam = j
		}
		return r, true
	case knowledge.FromExecutor:
		if cs.recv == nil {
			return ref{}, false
		}
		// The executor itself, without the calls that return an executor
		// with the same policies (exec.WithContext(ctx)).
		root := c.executorRoot(cs.recv)
		ps, holder := c.policies(root, 0)
		for _, p := range ps {
			if !c.isBreaker(c.pass.TypesInfo.TypeOf(p)) {
				continue
			}
			r := c.ref(p, cs.owner, 0)
			if r.ctor == nil || holder == nil {
				return r, true
			}
			// The breaker is constructed in place in the definition of
			// an executor variable: it lives as long as that variable.
			if isGlobal(holder) {
				return c.ref(root, cs.owner, 0), true
			}
			r.holder = holder
			r.key = "local:" + c.pass.Fset.Position(holder.Pos()).String()
			r.text = holder.Name()
			return r, true
		}
		// An executor kept in a field that the package builds with a
		// breaker: the field is the breaker.
		if f := analysisutil.FieldOf(c.pass.TypesInfo, root); f != nil && c.executorWithBreaker(f) {
			return c.ref(root, cs.owner, 0), true
		}
	}
	return ref{}, false
}

// executorWithBreaker reports whether every value the package stores in
// field f (in a composite literal or an assignment) is an executor built
// with a breaker policy, and there is at least one.
func (c *checker) executorWithBreaker(f *types.Var) bool {
	if f.Pkg() != c.pass.Pkg {
		return false
	}
	info := c.pass.TypesInfo
	found, other := false, false
	check := func(v ast.Expr) {
		has := false
		ps, _ := c.policies(v, 0)
		for _, p := range ps {
			if c.isBreaker(info.TypeOf(p)) {
				has = true
			}
		}
		if has {
			found = true
		} else {
			other = true
		}
	}
	for _, file := range c.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && info.Uses[id] == f {
					check(n.Value)
				}
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i, lhs := range n.Lhs {
						if analysisutil.FieldOf(c.pass.TypesInfo, lhs) == f {
							check(n.Rhs[i])
						}
					}
				}
			}
			return true
		})
	}
	return found && !other
}

// isBreaker reports whether t is a known breaker type (or a pointer to one).
func (c *checker) isBreaker(t types.Type) bool {
	return t != nil && c.table.Types[analysisutil.TypeKey(t)]
}

// policies returns the policy arguments an executor expression was built
// with: failsafe.With(retry, cb).WithContext(ctx) → retry, cb; and holder,
// the variable whose definition builds the executor (exec :=
// failsafe.With(...)), if the expression reaches it through one.
func (c *checker) policies(e ast.Expr, depth int) (out []ast.Expr, holder *types.Var) {
	if depth > 8 {
		return nil, nil
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		fn, recv := c.flow.Callee(x)
		if fn == nil {
			return nil, nil
		}
		key := analysisutil.Key(fn)
		if i, ok := c.table.Executors[key]; ok {
			if i < len(x.Args) {
				return x.Args[i:], nil
			}
			return nil, nil
		}
		if c.table.ExecutorMethods[key] && recv != nil {
			out, holder = c.policies(recv, depth+1)
			if c.table.ExecutorComposers[key] {
				out = append(out, x.Args...)
			}
			return out, holder
		}
	case *ast.Ident:
		if v, ok := c.pass.TypesInfo.Uses[x].(*types.Var); ok && c.flow.Visible(v) {
			if defs := c.flow.DefsOf(v); len(defs) == 1 && defs[0].Rhs != nil && defs[0].Index < 0 {
				out, holder = c.policies(defs[0].Rhs, depth+1)
				if holder == nil && out != nil {
					holder = v
				}
				return out, holder
			}
		}
	}
	return nil, nil
}

// executorRoot strips the executor methods that return an executor with
// the same policies: i.exec.WithContext(ctx) → i.exec.
func (c *checker) executorRoot(e ast.Expr) ast.Expr {
	for depth := 0; depth < 8; depth++ {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			break
		}
		fn, recv := c.flow.Callee(call)
		if fn == nil || recv == nil || !c.table.ExecutorMethods[analysisutil.Key(fn)] || c.table.ExecutorComposers[analysisutil.Key(fn)] {
			break
		}
		e = recv
	}
	return ast.Unparen(e)
}

// ref identifies the breaker an expression denotes.
func (c *checker) ref(e ast.Expr, owner *ast.FuncDecl, depth int) ref {
	e = ast.Unparen(e)
	r := ref{nameParam: -1, expr: e, text: analysisutil.Format(c.pass.Fset, e)}
	if depth > 6 {
		return r
	}
	info := c.pass.TypesInfo
	switch x := e.(type) {
	case *ast.CallExpr:
		fn, _ := c.flow.Callee(x)
		if fn == nil {
			return r
		}
		key := analysisutil.Key(fn)
		if i, ok := c.table.Registries[key]; ok {
			if i < len(x.Args) {
				lib := "registry:" + knowledge.PathOf(key)
				if s, ok := analysisutil.ConstString(info, x.Args[i]); ok {
					r.key, r.text = lib+":"+s, analysisutil.Format(c.pass.Fset, x)
				} else if j := c.paramIndex(x.Args[i], owner); j >= 0 {
					// A helper's parameter names the breaker: resolved
					// at each call of the helper.
					r.lib, r.nameParam = lib, j
				}
			}
			return r
		}
		if _, ok := c.table.Ctors[key]; ok && c.isBreaker(info.TypeOf(x)) {
			r.ctor = x
		}
		return r
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		if !ok {
			return r
		}
		if _, _, isParam := c.flow.IsParam(v); !isParam && !isGlobal(v) {
			if !c.flow.Visible(v) {
				return r
			}
			defs := c.flow.DefsOf(v)
			if len(defs) != 1 || defs[0].Rhs == nil || defs[0].Index >= 0 {
				return r
			}
			inner := c.ref(defs[0].Rhs, owner, depth+1)
			if inner.ctor != nil && inner.local == nil {
				r.local, r.ctor = v, inner.ctor
				r.key = "local:" + c.pass.Fset.Position(v.Pos()).String()
				return r
			}
			inner.expr, inner.text = e, r.text
			return inner
		}
	case *ast.SelectorExpr, *ast.StarExpr:
	default:
		return r
	}
	sym := c.m.Eval(e, owner)
	if sym.Kind == deps.Path {
		r.sym = sym
		r.key = c.m.Key(sym, owner)
	}
	return r
}

// reportShared reports breakers whose guarded calls reach different
// dependencies.
func (c *checker) reportShared() {
	groups := map[string][]*guarded{}
	var keys []string
	for _, g := range c.guarded {
		if g.ref.key == "" {
			continue
		}
		if _, ok := groups[g.ref.key]; !ok {
			keys = append(keys, g.ref.key)
		}
		groups[g.ref.key] = append(groups[g.ref.key], g)
	}
	sort.Strings(keys)
	for _, k := range keys {
		list := groups[k]
		sort.Slice(list, func(i, j int) bool { return list[i].site.call.Pos() < list[j].site.call.Pos() })
		var first *deps.Site
		var firstCall *guarded
		for _, g := range list {
			for i := range g.sites {
				s := &g.sites[i]
				if !s.Known() {
					continue
				}
				if first == nil {
					first, firstCall = s, g
					continue
				}
				if c.m.Different(*first, *s) {
					c.reportOne(g, *s, *first, firstCall)
					goto next
				}
			}
		next:
		}
	}
}

func (c *checker) reportOne(g *guarded, here, first deps.Site, firstCall *guarded) {
	where := "here"
	if firstCall != g {
		where = c.at(firstCall.site.call.Pos())
	} else {
		where = "in the same operation"
	}
	name := c.m.Name(here)
	advice := "give each dependency its own breaker"
	if name != "" {
		advice += fmt.Sprintf(" (resil.BreakerFor(%q))", name)
	}
	c.rep.Report(analysis.Diagnostic{
		Pos: g.site.call.Pos(), End: g.site.call.End(),
		Message: fmt.Sprintf("breaker %s guards %s here but %s %s: when one of them fails, the breaker opens for both; %s",
			g.ref.text, here.Describe(), first.Describe(), where, advice),
		SuggestedFixes: c.perDependencyFix(g, name),
	})
}

// at spells a position as file:line for messages.
func (c *checker) at(pos token.Pos) string {
	p := c.pass.Fset.Position(pos)
	return "at " + filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
}

// noteUse records a use of a local variable of a breaker type.
func (c *checker) noteUse(id *ast.Ident, stack []ast.Node) {
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || isGlobal(v) || v.IsField() || !c.tracked(v.Type()) {
		return
	}
	u := use{id: id}
	for i := len(stack) - 2; i >= 0; i-- {
		n := stack[i]
		if n.Pos() <= v.Pos() && v.Pos() < n.End() {
			break
		}
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
			u.repeated = true
		}
		if u.repeated {
			break
		}
	}
	c.uses[v] = append(c.uses[v], u)
}

// tracked reports whether the uses of a local of type t are recorded: a
// breaker, or a type of a breaker library (an executor).
func (c *checker) tracked(t types.Type) bool {
	if c.isBreaker(t) {
		return true
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && c.paths[n.Obj().Pkg().Path()]
}

// reportNeverTrips reports breakers constructed for a single guarded call.
func (c *checker) reportNeverTrips() {
	for _, g := range c.guarded {
		if !g.direct || g.ref.ctor == nil {
			continue
		}
		call := g.site.call
		if v := g.ref.local; v != nil || g.ref.holder != nil {
			if v == nil {
				v = g.ref.holder
			}
			us := c.uses[v]
			if len(us) != 1 || us[0].repeated || us[0].id.Pos() < call.Pos() || us[0].id.Pos() >= call.End() {
				continue
			}
		}
		when := "every call of the function literal"
		if _, ok := g.site.where.Func.(*ast.FuncDecl); ok && g.site.owner != nil {
			when = "every call of " + g.site.owner.Name.Name
		}
		if c.constructedInLoop(g) {
			when = "every iteration"
		}
		what := "a new breaker"
		if g.ref.local != nil {
			what = "breaker " + g.ref.local.Name()
		}
		c.rep.Report(analysis.Diagnostic{
			Pos: g.ref.ctor.Pos(), End: g.ref.ctor.End(),
			Message: fmt.Sprintf("%s is created on %s and guards a single call: it never sees a second failure, so it can never open; create one breaker per dependency for the life of the process (a package-level variable, a struct field, or resil.BreakerFor(name))",
				what, when),
		})
	}
}

// constructedInLoop reports whether the breaker of a guarded call is
// constructed inside a loop of the function that makes the call.
func (c *checker) constructedInLoop(g *guarded) bool {
	body := g.site.where.Body
	if body == nil {
		return false
	}
	pos := g.ref.ctor.Pos()
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil || !(n.Pos() <= pos && pos < n.End()) {
			return false
		}
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			found = true
		}
		return !found
	})
	return found
}
