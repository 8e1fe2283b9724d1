// Package deps is resilint's model of dependency identity: which dependency
// (another service) an outbound call, or a piece of code, reaches.
//
// A dependency is named, from most to least precise, by
//
//   - its target: the host of a constant URL or address, the base-URL value
//     a URL is built on (a field such as s.paymentsAPI, a package-level
//     variable), or the gRPC service of a generated client;
//   - its client: the value the call goes through (the *http.Client, the
//     *sql.DB, the gRPC client, the receiver of a method that reaches an
//     outbound call);
//   - its type: the type of that receiver (a dependency type).
//
// Two dependencies are different only when they are known at the same level
// and differ there (a URL on s.emailAPI and one on s.pushAPI; hosts a.com and
// b.com; the clients r.primary and r.fallback). Paths of one host are one
// dependency; anything unknown is never "different".
//
// Values are symbolic in the parameters of the function that contains them,
// so a helper's dependency is resolved at each call
// (n.send(ctx, n.emailAPI+"/send", ...)). The pass exports a [ReachFact] for
// every function that reaches an outbound call or returns a URL or request,
// so that helpers and clients of other packages are followed too.
package deps

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
	"github.com/resilint/resilint/passes/ctxflow"
	"github.com/resilint/resilint/passes/outbound"
)

// New returns the pass for a configuration.
func New(cfg *config.Config) *analysis.Analyzer {
	return cfg.Memo("deps", func() *analysis.Analyzer {
		ob := outbound.New(cfg)
		return &analysis.Analyzer{
			Name:       "deps",
			Doc:        "dependency identity of outbound calls for resilint analyzers (helper pass; reports nothing)",
			Requires:   []*analysis.Analyzer{ob},
			Run:        func(pass *analysis.Pass) (any, error) { return run(pass, cfg, ob) },
			ResultType: reflect.TypeFor[*Model](),
			FactTypes:  []analysis.Fact{new(ReachFact), new(PackageFact)},
		}
	})
}

// SymKind classifies a symbolic value.
type SymKind uint8

const (
	// Unknown: nothing is known.
	Unknown SymKind = iota
	// Host: a constant host (and port), from a URL or address.
	Host
	// Service: a gRPC service.
	Service
	// Path: a value reached from a root (a parameter or a package-level
	// variable) through fields.
	Path
)

// RootKind is the root of a Path.
type RootKind uint8

const (
	// RootParam: a parameter of the function (Param; -1 is the receiver).
	RootParam RootKind = iota + 1
	// RootGlobal: a package-level variable (Global, "path.name").
	RootGlobal
)

// Sym is a symbolic value that designates a dependency or part of one. It
// is a plain value so that facts can carry it.
type Sym struct {
	Kind SymKind
	// Name is the host (Host) or the service (Service).
	Name string
	// Root, Param, Global and Fields describe a Path.
	Root   RootKind
	Param  int
	Global string
	Fields []string
	// Text spells the value in source for messages (n.emailAPI).
	Text string
}

// Known reports whether anything is known about s.
func (s Sym) Known() bool { return s.Kind != Unknown }

func (s Sym) field(name string) Sym {
	if s.Kind != Path {
		return Sym{}
	}
	out := s
	out.Fields = append(append([]string(nil), s.Fields...), name)
	out.Text = s.Text + "." + name
	return out
}

// Dep is a dependency one outbound call reaches.
type Dep struct {
	Target Sym
	Client Sym
	// Type is the "path.Name" of the dependency type (the receiver of the
	// method that led to the call), or "".
	Type string
	// Call names the outbound call, for messages.
	Call string
	// Kind is the kind of the outbound call (HTTP, gRPC, ...).
	Kind knowledge.Kind
}

// ReachFact is exported for a function that reaches outbound calls (Deps,
// symbolic in its parameters) or returns a value that designates a
// dependency (Result: a URL, a request).
type ReachFact struct {
	Deps   []Dep
	Result Sym
}

func (*ReachFact) AFact() {}

// PackageFact marks a package that exports a ReachFact, so that packages
// importing none of them skip the work.
type PackageFact struct{}

func (*PackageFact) AFact() {}

func (*PackageFact) String() string { return "reaches dependencies" }

func (f *ReachFact) String() string {
	var parts []string
	for _, d := range f.Deps {
		parts = append(parts, d.String())
	}
	s := "reaches " + strings.Join(parts, ", ")
	if f.Result.Known() {
		s += " returns " + f.Result.String()
	}
	return s
}

func (s Sym) String() string {
	switch s.Kind {
	case Host:
		return "host " + s.Name
	case Service:
		return "service " + s.Name
	case Path:
		root := s.Global
		if s.Root == RootParam {
			root = "param" + strconv.Itoa(s.Param)
			if s.Param < 0 {
				root = "recv"
			}
		}
		if len(s.Fields) > 0 {
			root += "." + strings.Join(s.Fields, ".")
		}
		return root
	}
	return "?"
}

func (d Dep) String() string {
	s := d.Call + "{"
	if d.Target.Known() {
		s += "target " + d.Target.String()
	}
	if d.Client.Known() {
		s += " client " + d.Client.String()
	}
	if d.Type != "" {
		s += " type " + d.Type
	}
	return s + "}"
}

// maxDeps bounds the dependencies recorded per function.
const maxDeps = 8

// maxDepth bounds the evaluation of symbolic values.
const maxDepth = 12

// Model answers dependency questions for one package.
type Model struct {
	Pass  *analysis.Pass
	Table *knowledge.Table
	Res   *outbound.Result
	Flow  *ctxflow.Model

	info  *types.Info
	decls map[*types.Func]*ast.FuncDecl
	memo  map[*types.Func]*ReachFact
	busy  map[*types.Func]bool
	// Relevant is false when the package makes no outbound call and uses no
	// function that does: every question then has an empty answer.
	Relevant bool
}

func run(pass *analysis.Pass, cfg *config.Config, ob *analysis.Analyzer) (any, error) {
	res := pass.ResultOf[ob].(*outbound.Result)
	m := &Model{
		Pass: pass, Table: cfg.Table(), Res: res, Flow: res.Model, info: pass.TypesInfo,
		decls: map[*types.Func]*ast.FuncDecl{},
		memo:  map[*types.Func]*ReachFact{},
		busy:  map[*types.Func]bool{},
	}
	m.Relevant = res.Relevant || importsFacts(pass)
	if !m.Relevant {
		return m, nil
	}
	m.Flow.Index()
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					m.decls[fn] = fd
				}
			}
		}
	}
	any := false
	for fn := range m.decls {
		if f := m.fact(fn); f != nil {
			pass.ExportObjectFact(fn, f)
			any = true
		}
	}
	if any {
		pass.ExportPackageFact(new(PackageFact))
	}
	return m, nil
}

// importsFacts reports whether a package this one imports exports
// ReachFacts: its functions may reach outbound calls.
func importsFacts(pass *analysis.Pass) bool {
	for _, imp := range pass.Pkg.Imports() {
		if pass.ImportPackageFact(imp, new(PackageFact)) {
			return true
		}
	}
	return false
}

// Fact returns the reach of a function: computed for this package's
// functions, imported for others. nil when it reaches nothing known.
func (m *Model) Fact(fn *types.Func) *ReachFact {
	if fn == nil || !m.Relevant {
		return nil
	}
	return m.fact(fn.Origin())
}

func (m *Model) fact(fn *types.Func) *ReachFact {
	if fn.Pkg() != m.Pass.Pkg {
		f := new(ReachFact)
		if fn.Pkg() != nil && m.Pass.ImportObjectFact(fn, f) {
			return f
		}
		return nil
	}
	if f, ok := m.memo[fn]; ok {
		return f
	}
	if m.busy[fn] {
		return nil
	}
	m.busy[fn] = true
	decl := m.decls[fn]
	var f *ReachFact
	if decl != nil {
		deps := m.reach(decl.Body, decl, 0)
		res := m.result(fn, decl)
		if len(deps) > 0 || res.Known() {
			f = &ReachFact{Deps: deps, Result: res}
		}
	}
	delete(m.busy, fn)
	m.memo[fn] = f
	return f
}

// result evaluates what a function returns as its first result, when that
// is a string, a URL or a request and every return statement agrees.
func (m *Model) result(fn *types.Func, decl *ast.FuncDecl) Sym {
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() == 0 || !m.designates(sig.Results().At(0).Type()) {
		return Sym{}
	}
	var out Sym
	first, ok := true, true
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
			var s Sym
			if len(n.Results) == sig.Results().Len() {
				s = m.eval(n.Results[0], decl, 0)
			}
			if isNil(m.info, n.Results[0]) {
				return false // return nil, err
			}
			if first {
				out, first = s, false
			} else if !same(out, s) {
				ok = false
			}
		}
		return true
	})
	if !ok {
		return Sym{}
	}
	return out
}

// designates reports whether values of type t can designate a dependency
// (a string, a URL, a request).
func (m *Model) designates(t types.Type) bool {
	if b, ok := t.Underlying().(*types.Basic); ok {
		return b.Info()&types.IsString != 0
	}
	switch analysisutil.TypeKey(t) {
	case "net/url.URL", "net/http.Request":
		return true
	}
	return false
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// Reach returns the dependencies that the calls inside node reach, symbolic
// in the parameters of owner (the function declaration that contains node;
// nil at package level).
func (m *Model) Reach(node ast.Node, owner *ast.FuncDecl) []Dep {
	if !m.Relevant || node == nil {
		return nil
	}
	return m.reach(node, owner, 0)
}

func (m *Model) reach(node ast.Node, owner *ast.FuncDecl, depth int) []Dep {
	var out []Dep
	add := func(d Dep) {
		for _, e := range out {
			if sameDep(e, d) {
				return
			}
		}
		if len(out) < maxDeps {
			out = append(out, d)
		}
	}
	ast.Inspect(node, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if oc := m.Res.ByCall[call]; oc != nil {
			add(m.outboundDep(oc, owner, depth))
			return true
		}
		fn, recv := m.Flow.Callee(call)
		if fn == nil {
			return true
		}
		for _, d := range m.CallDeps(fn, recv, call.Args, owner, depth) {
			add(d)
		}
		return true
	})
	return out
}

// CallDeps returns the dependencies reached by calling fn with receiver
// recv and arguments args, written in owner.
func (m *Model) CallDeps(fn *types.Func, recv ast.Expr, args []ast.Expr, owner *ast.FuncDecl, depth int) []Dep {
	f := m.Fact(fn)
	if f == nil || len(f.Deps) == 0 {
		return nil
	}
	sig, _ := fn.Type().(*types.Signature)
	var out []Dep
	for _, d := range f.Deps {
		sd := Dep{
			Target: m.subst(d.Target, sig, recv, args, owner, depth),
			Client: m.subst(d.Client, sig, recv, args, owner, depth),
			Type:   d.Type,
			Call:   d.Call,
			Kind:   d.Kind,
		}
		if !sd.Target.Known() && !sd.Client.Known() && recv != nil && sig != nil && sig.Recv() != nil {
			// A method of a dependency type: the receiver is the client.
			sd.Client = m.eval(recv, owner, depth+1)
			if sd.Type == "" {
				sd.Type = analysisutil.TypeKey(sig.Recv().Type())
			}
		}
		out = append(out, sd)
	}
	return out
}

// subst resolves a callee's symbolic value at a call.
func (m *Model) subst(s Sym, sig *types.Signature, recv ast.Expr, args []ast.Expr, owner *ast.FuncDecl, depth int) Sym {
	if s.Kind != Path || s.Root != RootParam {
		return s
	}
	var arg ast.Expr
	switch {
	case s.Param < 0:
		arg = recv
	case sig == nil || (sig.Variadic() && s.Param >= sig.Params().Len()-1):
		return Sym{}
	case s.Param < len(args):
		arg = args[s.Param]
	}
	if arg == nil {
		return Sym{}
	}
	base := m.eval(arg, owner, depth+1)
	if len(s.Fields) == 0 {
		return base
	}
	for _, f := range s.Fields {
		base = base.field(f)
	}
	return base
}

// OutboundDep returns the dependency of one outbound call of this package,
// its values written in owner.
func (m *Model) OutboundDep(oc *outbound.Call, owner *ast.FuncDecl) Dep {
	return m.outboundDep(oc, owner, 0)
}

// outboundDep returns the dependency of one outbound call.
func (m *Model) outboundDep(oc *outbound.Call, owner *ast.FuncDecl, depth int) Dep {
	d := Dep{Call: oc.Name(), Kind: oc.Spec.Kind}
	switch {
	case oc.Spec.Kind == knowledge.GRPC && oc.Spec.Target >= 0:
		// (*grpc.ClientConn).Invoke(ctx, "/pkg.Service/Method", ...)
		if s, ok := analysisutil.ConstString(m.info, oc.Arg(oc.Spec.Target)); ok {
			if svc := grpcService(s); svc != "" {
				d.Target = Sym{Kind: Service, Name: svc, Text: svc}
			}
		}
	case oc.Spec.Kind == knowledge.GRPC && oc.Recv != nil:
		// A generated client method: its interface names the service.
		if t := m.info.TypeOf(oc.Recv); t != nil {
			if key := analysisutil.TypeKey(t); key != "" {
				name := shortType(key)
				d.Target = Sym{Kind: Service, Name: key, Text: name}
			}
		}
	case oc.Spec.Target >= 0:
		d.Target = m.eval(oc.Arg(oc.Spec.Target), owner, depth+1)
	case oc.Spec.Request >= 0:
		d.Target = m.eval(oc.Arg(oc.Spec.Request), owner, depth+1)
	}
	switch oc.Spec.Client {
	case knowledge.DefaultClient:
		d.Client = Sym{Kind: Path, Root: RootGlobal, Global: m.Table.DefaultClient, Text: "http.DefaultClient"}
	case knowledge.Receiver, knowledge.Argument:
		if e := oc.Client(); e != nil {
			d.Client = m.eval(e, owner, depth+1)
		}
	default:
		if oc.Recv != nil {
			d.Client = m.eval(oc.Recv, owner, depth+1)
		}
	}
	return d
}

// Eval returns the symbolic value of e, written in owner.
func (m *Model) Eval(e ast.Expr, owner *ast.FuncDecl) Sym {
	if !m.Relevant && m.Pass == nil {
		return Sym{}
	}
	return m.eval(e, owner, 0)
}

func (m *Model) eval(e ast.Expr, owner *ast.FuncDecl, depth int) Sym {
	if e == nil || depth > maxDepth {
		return Sym{}
	}
	e = ast.Unparen(e)
	if s, ok := analysisutil.ConstString(m.info, e); ok {
		if h := hostOf(s); h != "" {
			return Sym{Kind: Host, Name: h, Text: h}
		}
		return Sym{}
	}
	switch x := e.(type) {
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		if !ok {
			return Sym{}
		}
		return m.evalVar(v, x.Name, owner, depth)
	case *ast.SelectorExpr:
		if sel, ok := m.info.Selections[x]; ok {
			if sel.Kind() != types.FieldVal {
				return Sym{}
			}
			return m.eval(x.X, owner, depth+1).field(x.Sel.Name)
		}
		// A qualified identifier: pkg.Var.
		if v, ok := m.info.Uses[x.Sel].(*types.Var); ok {
			return m.evalVar(v, analysisutil.Format(m.Pass.Fset, x), owner, depth)
		}
	case *ast.StarExpr:
		return m.eval(x.X, owner, depth+1)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return m.eval(x.X, owner, depth+1)
		}
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			return m.concat(x, owner, depth)
		}
	case *ast.CallExpr:
		return m.evalCall(x, owner, depth)
	}
	return Sym{}
}

// evalVar evaluates a variable: a parameter of owner is a root; a
// package-level variable is a root unless its one definition is a constant
// host; a local is the value of its definitions when they all agree.
func (m *Model) evalVar(v *types.Var, text string, owner *ast.FuncDecl, depth int) Sym {
	if fn, idx, ok := m.Flow.IsParam(v); ok {
		if owner != nil && fn == ast.Node(owner) {
			return Sym{Kind: Path, Root: RootParam, Param: idx, Text: text}
		}
		return Sym{}
	}
	if v.IsField() {
		return Sym{}
	}
	global := v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
	if global {
		root := Sym{Kind: Path, Root: RootGlobal, Global: v.Pkg().Path() + "." + v.Name(), Text: text}
		if m.Flow.Visible(v) {
			if defs := m.Flow.DefsOf(v); len(defs) == 1 && defs[0].Rhs != nil && defs[0].Index < 0 {
				if s := m.eval(defs[0].Rhs, nil, depth+1); s.Kind == Host {
					return s
				}
			}
		}
		return root
	}
	if !m.Flow.Visible(v) {
		return Sym{}
	}
	defs := m.Flow.DefsOf(v)
	if len(defs) == 0 {
		return Sym{}
	}
	var out Sym
	for i, d := range defs {
		var s Sym
		switch {
		case d.Rhs == nil:
			return Sym{}
		case d.Index >= 0:
			call, ok := ast.Unparen(d.Rhs).(*ast.CallExpr)
			if !ok || d.Index != 0 {
				return Sym{}
			}
			s = m.evalCall(call, owner, depth+1)
		default:
			s = m.eval(d.Rhs, owner, depth+1)
		}
		if !s.Known() {
			return Sym{}
		}
		if i == 0 {
			out = s
		} else if !same(out, s) {
			return Sym{}
		}
	}
	if out.Text == "" {
		// Keep the spelling of the value (r.primary, s.payments) rather than
		// the local's name, unless it has none.
		out.Text = text
	}
	return out
}

// concat evaluates a string concatenation: the dependency is the first
// operand's, past a scheme prefix ("https://" + host + "/path").
func (m *Model) concat(x *ast.BinaryExpr, owner *ast.FuncDecl, depth int) Sym {
	var ops []ast.Expr
	var flatten func(e ast.Expr)
	flatten = func(e ast.Expr) {
		if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.ADD {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		ops = append(ops, e)
	}
	flatten(x)
	for i, op := range ops {
		if s, ok := analysisutil.ConstString(m.info, op); ok {
			if strings.HasSuffix(s, "://") && i+1 < len(ops) {
				continue
			}
			if h := hostOf(s); h != "" {
				return Sym{Kind: Host, Name: h, Text: h}
			}
			return Sym{}
		}
		return m.eval(op, owner, depth+1)
	}
	return Sym{}
}

func (m *Model) evalCall(call *ast.CallExpr, owner *ast.FuncDecl, depth int) Sym {
	if tv, ok := m.info.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 {
		return m.eval(call.Args[0], owner, depth+1) // a conversion
	}
	fn, recv := m.Flow.Callee(call)
	if fn == nil {
		return Sym{}
	}
	key := analysisutil.Key(fn)
	if key == "fmt.Sprintf" {
		return m.sprintf(call, owner, depth)
	}
	if i, ok := m.Table.Breakers.Targets[key]; ok {
		if i < 0 {
			return m.eval(recv, owner, depth+1)
		}
		if i < len(call.Args) {
			return m.eval(call.Args[i], owner, depth+1)
		}
		return Sym{}
	}
	f := m.Fact(fn)
	if f == nil || !f.Result.Known() {
		return Sym{}
	}
	sig, _ := fn.Type().(*types.Signature)
	return m.subst(f.Result, sig, recv, call.Args, owner, depth)
}

// sprintf evaluates fmt.Sprintf(format, args...): the host of a constant
// prefix, or the argument of a leading verb ("%s/v1/orders", base).
func (m *Model) sprintf(call *ast.CallExpr, owner *ast.FuncDecl, depth int) Sym {
	if len(call.Args) == 0 {
		return Sym{}
	}
	format, ok := analysisutil.ConstString(m.info, call.Args[0])
	if !ok {
		return Sym{}
	}
	rest := format
	if i := strings.Index(rest, "://"); i >= 0 && !strings.Contains(rest[:i], "%") {
		rest = rest[i+3:]
	}
	if len(rest) >= 2 && rest[0] == '%' && strings.IndexByte("sv", rest[1]) >= 0 {
		// The first verb of the format: the first argument.
		if strings.Count(format[:len(format)-len(rest)], "%") == 0 && len(call.Args) > 1 {
			return m.eval(call.Args[1], owner, depth+1)
		}
		return Sym{}
	}
	if h := hostOf(format[:len(format)-len(rest)] + cutAt(rest, "%")); h != "" {
		return Sym{Kind: Host, Name: h, Text: h}
	}
	return Sym{}
}

func cutAt(s, sep string) string {
	if i := strings.Index(s, sep); i >= 0 {
		return s[:i]
	}
	return s
}

// hostOf returns the host (with port) a constant URL or address names, or
// "": "https://api.example.com/v1" → "api.example.com",
// "db.internal:5432" → "db.internal:5432".
func hostOf(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
		if j := strings.IndexAny(s, "/?#"); j >= 0 {
			s = s[:j]
		}
		if k := strings.LastIndex(s, "@"); k >= 0 {
			s = s[k+1:]
		}
		if s == "" || strings.ContainsAny(s, "% ") {
			return ""
		}
		return strings.ToLower(s)
	}
	// host:port
	if host, port, ok := strings.Cut(s, ":"); ok && host != "" && port != "" && !strings.ContainsAny(s, "/ %") {
		if _, err := strconv.Atoi(port); err == nil {
			return strings.ToLower(s)
		}
	}
	return ""
}

// grpcService returns the service of a full method name "/pkg.Svc/Method".
func grpcService(method string) string {
	method = strings.TrimPrefix(method, "/")
	if i := strings.LastIndex(method, "/"); i > 0 {
		return method[:i]
	}
	return ""
}

// shortType spells a "path.Name" type key as "pkg.Name".
func shortType(key string) string {
	if i := strings.LastIndex(key, "/"); i >= 0 {
		return key[i+1:]
	}
	return key
}

// ShortType spells a "path.Name" type key as "pkg.Name".
func ShortType(key string) string { return shortType(key) }

// Subst resolves a value written in fn's parameters at a call of fn with
// receiver recv and arguments args, the call being written in owner.
func (m *Model) Subst(s Sym, fn *types.Func, recv ast.Expr, args []ast.Expr, owner *ast.FuncDecl) Sym {
	sig, _ := fn.Type().(*types.Signature)
	return m.subst(s, sig, recv, args, owner, 0)
}
