package outbound

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// HandleFact is exported for a function whose first result is a handle a
// call goes through — a database/sql handle, a gRPC connection or client,
// an HTTP client — when every return gives one whose place is known: an
// embedded database (sql.Open("sqlite3", path)), a loopback or unix-socket
// target, a transport that dials only unix sockets, another host. A
// handle made by a constructor of another package (db, err :=
// store.Open(path)) is then placed at its calls as where it is made.
//
// A gRPC handle dialled with a parameter of the function as its target, on
// every return (NewInventory(target string) (pb.InventoryClient, error)
// around grpc.NewClient(target, ...)), is placed at each call by the
// argument given for it: Target is 1 + that parameter's index, and Place
// is unknown.
type HandleFact struct {
	Place  Place
	Target int
}

func (*HandleFact) AFact() {}

func (f *HandleFact) String() string {
	if f.Target > 0 {
		return fmt.Sprintf("handle dialled to parameter %d", f.Target-1)
	}
	return "handle " + f.Place.String()
}

// handleKind says which reader places a handle of type t.
type handleKind uint8

const (
	notHandle handleKind = iota
	sqlHandle
	grpcHandle
	httpHandle
)

func (l *locator) handleKind(t types.Type) handleKind {
	if t == nil {
		return notHandle
	}
	if _, ok := l.t.ClientTypes[analysisutil.TypeKey(t)]; ok {
		return httpHandle
	}
	if l.m.ConnOrClient(t) {
		return grpcHandle
	}
	// A type with a method the table knows as a database call (*sql.DB,
	// *sql.Tx, a type embedding one).
	ms := types.NewMethodSet(t)
	if _, isPtr := t.(*types.Pointer); !isPtr && !types.IsInterface(t) {
		ms = types.NewMethodSet(types.NewPointer(t))
	}
	for i := 0; i < ms.Len(); i++ {
		fn, ok := ms.At(i).Obj().(*types.Func)
		if !ok {
			continue
		}
		if row, ok := l.t.Outbound[analysisutil.Key(fn)]; ok && row.Kind == knowledge.SQL {
			return sqlHandle
		}
	}
	return notHandle
}

// madePlace is the place of the handle a call of a function returns: its
// HandleFact, or, for a function of this package, what its returns give.
// Unknown otherwise.
func (l *locator) madePlace(call *ast.CallExpr) Place {
	fn, _ := l.m.Callee(call)
	if fn == nil || fn.Pkg() == nil {
		return Place{}
	}
	if p := l.handlePlace(fn); p.Locality != LocalityUnknown {
		return p
	}
	if i := l.handleTarget(fn); i > 0 && i <= len(call.Args) && !call.Ellipsis.IsValid() {
		return l.grpcTargetExpr(call.Args[i-1])
	}
	return Place{}
}

// handleTarget returns 1 + the index of the parameter a function dials its
// gRPC handle with on every return (HandleFact.Target), or 0.
func (l *locator) handleTarget(fn *types.Func) int {
	fn = fn.Origin()
	if i, ok := l.targets[fn]; ok {
		return i
	}
	if l.targets == nil {
		l.targets = map[*types.Func]int{}
	}
	if fn.Pkg() != l.pass.Pkg {
		var f HandleFact
		if l.pass.ImportObjectFact(fn, &f) {
			l.targets[fn] = f.Target
		}
		return l.targets[fn]
	}
	l.targets[fn] = 0 // while it is read
	l.targets[fn] = l.returnedTarget(fn)
	return l.targets[fn]
}

// returnedTarget reads the gRPC handle every return of a function of this
// package gives first: 1 + the index of the parameter that is the dial
// target of each, when it is the same unassigned parameter; 0 otherwise.
func (l *locator) returnedTarget(fn *types.Func) int {
	sig, _ := fn.Type().(*types.Signature)
	decl := l.m.Decl(fn)
	if sig == nil || sig.Results().Len() == 0 || decl == nil || decl.Body == nil {
		return 0
	}
	if l.handleKind(sig.Results().At(0).Type()) != grpcHandle {
		return 0
	}
	results, ok := analysisutil.FirstResults(l.m.Pass.TypesInfo, decl.Body)
	if !ok {
		return 0
	}
	target := 0
	for _, r := range results {
		if isNil(l.m.Pass.TypesInfo, r) {
			continue // return nil, err
		}
		dials, made := l.m.GRPCOrigins(r)
		if len(dials) == 0 || len(made) > 0 {
			return 0
		}
		for _, d := range dials {
			callee, _ := l.m.Callee(d)
			i, ok := l.t.GRPC.DialTargets[analysisutil.Key(callee)]
			if !ok || i >= len(d.Args) {
				return 0
			}
			id, ok := ast.Unparen(d.Args[i]).(*ast.Ident)
			if !ok {
				return 0
			}
			v, ok := l.m.Pass.TypesInfo.Uses[id].(*types.Var)
			if !ok || l.m.Assigned(v) {
				return 0
			}
			owner, idx, isParam := l.m.IsParam(v)
			if !isParam || owner != ast.Node(decl) || target != 0 && target != idx+1 {
				return 0
			}
			target = idx + 1
		}
	}
	return target
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// grpcTargetExpr places a gRPC dial target expression.
func (l *locator) grpcTargetExpr(e ast.Expr) Place {
	shapes, ok := l.m.Shapes(e)
	if !ok {
		return Place{}
	}
	var ps []Place
	for _, sh := range shapes {
		ps = append(ps, l.grpcTarget(sh.Prefix, sh.Whole))
	}
	return joinPlaces(ps)
}

func (l *locator) handlePlace(fn *types.Func) Place {
	fn = fn.Origin()
	if p, ok := l.handles[fn]; ok {
		return p
	}
	if l.handles == nil {
		l.handles = map[*types.Func]Place{}
	}
	if fn.Pkg() != l.pass.Pkg {
		var f HandleFact
		if l.pass.ImportObjectFact(fn, &f) {
			l.handles[fn] = f.Place
		} else {
			l.handles[fn] = Place{}
		}
		return l.handles[fn]
	}
	l.handles[fn] = Place{} // while it is read: a recursive constructor is unknown
	p := l.returnedPlace(fn)
	l.handles[fn] = p
	return p
}

// returnedPlace reads what every return of a function of this package
// gives first.
func (l *locator) returnedPlace(fn *types.Func) Place {
	sig, _ := fn.Type().(*types.Signature)
	decl := l.m.Decl(fn)
	if sig == nil || sig.Results().Len() == 0 || decl == nil || decl.Body == nil {
		return Place{}
	}
	kind := l.handleKind(sig.Results().At(0).Type())
	if kind == notHandle {
		return Place{}
	}
	results, ok := analysisutil.FirstResults(l.m.Pass.TypesInfo, decl.Body)
	if !ok {
		return Place{} // named results: out of this reader's sight
	}
	var ps []Place
	for _, r := range results {
		p := l.handleExpr(kind, r)
		if p.Locality == LocalityUnknown {
			return Place{}
		}
		ps = append(ps, p)
	}
	return joinPlaces(ps)
}

func (l *locator) handleExpr(kind handleKind, e ast.Expr) Place {
	switch kind {
	case sqlHandle:
		ps, ok := l.sqlPlaces(e, 0)
		if !ok {
			return Place{}
		}
		return joinPlaces(ps)
	case grpcHandle:
		return l.grpc(e)
	case httpHandle:
		return l.clientTransport(e)
	}
	return Place{}
}

// exportHandles exports the HandleFact of every function of the package
// that returns a handle of known place.
func (s *state) exportHandles() {
	for fn := range s.decls() {
		if !fn.Exported() {
			continue
		}
		if p := s.res.loc.handlePlace(fn); p.Locality != LocalityUnknown {
			s.pass.ExportObjectFact(fn, &HandleFact{Place: p})
		} else if i := s.res.loc.handleTarget(fn); i > 0 {
			s.pass.ExportObjectFact(fn, &HandleFact{Target: i})
		}
	}
}
