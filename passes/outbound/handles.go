package outbound

import (
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
type HandleFact struct {
	Place Place
}

func (*HandleFact) AFact() {}

func (f *HandleFact) String() string { return "handle " + f.Place.String() }

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
	return l.handlePlace(fn)
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
		}
	}
}
