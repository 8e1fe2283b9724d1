package outbound

import (
	"go/ast"
	"go/types"
	"net"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
	"github.com/resilint/resilint/passes/ctxflow"
)

// Locality says whether a call can reach another machine.
type Locality uint8

const (
	// LocalityUnknown: the target cannot be seen (a parameter, a value from
	// configuration). An outbound call of unknown locality may be remote.
	LocalityUnknown Locality = iota
	// Remote: the target is visible and names another host.
	Remote
	// Local: the call provably stays on this machine — a loopback address
	// (127.0.0.0/8, ::1, localhost), a unix socket, an embedded database
	// engine, the file system, a subprocess. Local work is never a
	// dependency: it is not in Result.Calls.
	Local
)

func (l Locality) String() string {
	switch l {
	case Remote:
		return "remote"
	case Local:
		return "local"
	}
	return "unknown"
}

// Place is where a call goes, and why resilint thinks so.
type Place struct {
	Locality Locality
	// Reason, for Remote and Local: what shows it, for messages
	// ("loopback address 127.0.0.1", "a unix socket", "host db.internal",
	// "an embedded SQLite database (github.com/mattn/go-sqlite3)").
	Reason string
}

func (p Place) String() string {
	if p.Reason == "" {
		return p.Locality.String()
	}
	return p.Locality.String() + ": " + p.Reason
}

// joinPlaces is the place of a value that can be any of ps: known only
// when all agree.
func joinPlaces(ps []Place) Place {
	if len(ps) == 0 {
		return Place{}
	}
	reasons := map[string]bool{}
	for _, p := range ps {
		if p.Locality != ps[0].Locality || p.Locality == LocalityUnknown {
			return Place{}
		}
		reasons[p.Reason] = true
	}
	list := make([]string, 0, len(reasons))
	for r := range reasons {
		list = append(list, r)
	}
	sort.Strings(list)
	return Place{Locality: ps[0].Locality, Reason: strings.Join(list, ", ")}
}

// Locality returns where a call goes: for an outbound call, the place its
// target, client, connection or driver shows; for a call of a package that
// works only on this machine (os, os/exec: knowledge.LocalityTable), of the
// client of a local daemon (LocalityTable.Daemons, also through an
// interface method whose signature takes or returns that client's types), or of a
// function that works in memory only (LocalityTable.InProcess), Local;
// otherwise unknown (the call may do anything).
func (r *Result) Locality(call *ast.CallExpr) Place {
	if c := r.ByCall[call]; c != nil {
		return c.Place
	}
	if c := r.LocalByCall[call]; c != nil {
		return c.Place
	}
	if r.Model == nil || r.table == nil {
		return Place{}
	}
	fn, _ := r.Model.Callee(call)
	if fn == nil || fn.Pkg() == nil {
		return Place{}
	}
	if what, ok := r.table.Locality.LocalFuncs[fn.FullName()]; ok {
		return Place{Locality: Local, Reason: what}
	}
	if r.table.Locality.InProcess[analysisutil.Key(fn)] {
		return Place{Locality: Local, Reason: "in-process work"}
	}
	if what, ok := r.table.Locality.Package(fn.Pkg().Path()); ok {
		return Place{Locality: Local, Reason: what}
	}
	if sig := fn.Signature(); sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
		if what, ok := r.table.Locality.DaemonSignature(sig); ok {
			return Place{Locality: Local, Reason: what}
		}
	}
	return Place{}
}

// URLPlace returns where a URL expression points (an http.NewRequest URL).
func (r *Result) URLPlace(e ast.Expr) Place {
	if r.loc == nil {
		return Place{}
	}
	return r.loc.url(e)
}

type locator struct {
	m       *ctxflow.Model
	t       *knowledge.Table
	pass    *analysis.Pass
	drivers map[string]string // registered SQL driver name → package path
	modSQL  *Place            // moduleSQL's answer
	handles map[*types.Func]Place
	targets map[*types.Func]int // handleTarget's answers
}

// place returns the place of an outbound call.
func (s *state) place(c *Call) Place {
	l := s.res.loc
	switch c.Spec.Kind {
	case knowledge.Dial, knowledge.TLS:
		if p := l.network(c.Arg(c.Spec.Network)); p.Locality == Local {
			return p
		}
		if t := c.Arg(c.Spec.Target); t != nil {
			return l.addr(t)
		}
	case knowledge.HTTP:
		if e := c.Client(); e != nil {
			if p := l.clientTransport(e); p.Locality == Local {
				return p
			}
		}
		if t := c.Arg(c.Spec.Target); t != nil {
			return l.url(t)
		}
		if r := c.Request(); r != nil {
			return l.request(r)
		}
	case knowledge.GRPC:
		if c.Recv != nil {
			return l.grpc(c.Recv)
		}
	case knowledge.SQL:
		return l.sql(c.Recv)
	}
	return Place{}
}

// network reads a dial's network argument: a unix socket is local.
func (l *locator) network(e ast.Expr) Place {
	if e == nil {
		return Place{}
	}
	shapes, ok := l.m.Shapes(e)
	if !ok {
		return Place{}
	}
	for _, sh := range shapes {
		if !sh.Whole || !hasPrefix(sh.Prefix, l.t.Locality.LocalNetworks) {
			return Place{}
		}
	}
	return Place{Locality: Local, Reason: "a unix socket"}
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// addr reads a host:port address expression.
func (l *locator) addr(e ast.Expr) Place {
	shapes, ok := l.m.Shapes(e)
	if !ok {
		return Place{}
	}
	var ps []Place
	for _, sh := range shapes {
		ps = append(ps, l.hostPort(sh.Prefix, sh.Whole))
	}
	return joinPlaces(ps)
}

// hostPort reads the host of host:port (or of its constant beginning,
// when the host is complete in it).
func (l *locator) hostPort(s string, whole bool) Place {
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return Place{}
		}
		return l.host(s[1:end])
	}
	if i := strings.IndexByte(s, ':'); i >= 0 {
		if strings.Count(s, ":") > 1 && whole {
			return l.host(s) // a bare IPv6 address
		}
		return l.host(s[:i])
	}
	if whole {
		return l.host(s)
	}
	return Place{}
}

// host classifies a complete host name or address. An empty host or an
// unspecified address (":8080", "0.0.0.0") dials the local system.
func (l *locator) host(h string) Place {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if i := strings.IndexByte(h, '%'); i >= 0 {
		h = h[:i] // an IPv6 zone
	}
	if h == "" {
		return Place{Locality: Local, Reason: "the local system (no host)"}
	}
	for _, lh := range l.t.Locality.LoopbackHosts {
		if h == lh || strings.HasSuffix(h, "."+lh) {
			return Place{Locality: Local, Reason: "loopback address " + h}
		}
	}
	if ip := net.ParseIP(h); ip != nil {
		switch {
		case ip.IsLoopback():
			return Place{Locality: Local, Reason: "loopback address " + h}
		case ip.IsUnspecified():
			return Place{Locality: Local, Reason: "the local system (" + h + ")"}
		}
	}
	return Place{Locality: Remote, Reason: "host " + h}
}

// url reads a URL expression.
func (l *locator) url(e ast.Expr) Place {
	shapes, ok := l.m.Shapes(e)
	if !ok {
		return Place{}
	}
	var ps []Place
	for _, sh := range shapes {
		ps = append(ps, l.urlShape(sh.Prefix, sh.Whole))
	}
	return joinPlaces(ps)
}

func (l *locator) urlShape(s string, whole bool) Place {
	i := strings.Index(s, "://")
	if i < 0 {
		return Place{}
	}
	scheme := strings.ToLower(s[:i])
	if hasScheme(scheme, l.t.Locality.LocalSchemes) {
		return Place{Locality: Local, Reason: "a unix socket (" + scheme + "://)"}
	}
	rest := s[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end >= 0 {
		rest, whole = rest[:end], true
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	return l.hostPort(rest, whole)
}

func hasScheme(scheme string, schemes []string) bool {
	for _, s := range schemes {
		if scheme == s {
			return true
		}
	}
	return false
}

// request reads the URL of the request a send is given: where it was built
// (http.NewRequest(method, url, body)), through copies
// (req.WithContext(ctx)).
func (l *locator) request(e ast.Expr) Place {
	var ps []Place
	if !l.requestURLs(e, map[*ast.CallExpr]bool{}, &ps) {
		return Place{}
	}
	return joinPlaces(ps)
}

func (l *locator) requestURLs(e ast.Expr, seen map[*ast.CallExpr]bool, ps *[]Place) bool {
	srcs, ok := l.m.Sources(e)
	if !ok || len(srcs) == 0 {
		return false
	}
	for _, src := range srcs {
		if lit, isLit := ast.Unparen(src).(*ast.CompositeLit); isLit {
			// &http.Request{URL: u}: where its URL points.
			p, ok := l.requestLit(lit)
			if !ok {
				return false
			}
			*ps = append(*ps, p)
			continue
		}
		call, isCall := ast.Unparen(src).(*ast.CallExpr)
		if !isCall {
			return false
		}
		if seen[call] {
			continue // req = req.WithContext(ctx): its other sources decide
		}
		seen[call] = true
		fn, recv := l.m.Callee(call)
		if fn == nil {
			return false
		}
		row, ok := l.t.Requests[analysisutil.Key(fn)]
		switch {
		case !ok:
			return false
		case row.URL >= 0 && row.URL < len(call.Args):
			*ps = append(*ps, l.url(call.Args[row.URL]))
		case row.URL < 0 && recv != nil:
			if !l.requestURLs(recv, seen, ps) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// requestLit reads the URL of a request composite literal.
func (l *locator) requestLit(lit *ast.CompositeLit) (Place, bool) {
	field, ok := l.t.URLs.RequestFields[analysisutil.TypeKey(l.m.Pass.TypesInfo.TypeOf(lit))]
	if !ok {
		return Place{}, false
	}
	u := litField(lit, field)
	if u == nil {
		return Place{}, false
	}
	shapes, ok := l.m.URLShapes(u)
	if !ok {
		return Place{}, false
	}
	var ps []Place
	for _, sh := range shapes {
		ps = append(ps, l.urlShape(sh.Prefix, sh.Whole))
	}
	return joinPlaces(ps), true
}

// clientTransport reports a client whose transport dials only unix
// sockets (&http.Client{Transport: &http.Transport{DialContext: dialSock}}).
func (l *locator) clientTransport(e ast.Expr) Place {
	srcs, ok := l.m.Sources(e)
	if !ok || len(srcs) == 0 {
		return Place{}
	}
	var ps []Place
	for _, src := range srcs {
		if call, isCall := ast.Unparen(src).(*ast.CallExpr); isCall {
			p := l.madePlace(call) // a client of a constructor of the module
			if p.Locality != Local {
				return Place{}
			}
			ps = append(ps, p)
			continue
		}
		lit, isLit := ast.Unparen(src).(*ast.CompositeLit)
		if !isLit {
			return Place{}
		}
		ct, ok := l.t.ClientTypes[analysisutil.TypeKey(l.m.Pass.TypesInfo.TypeOf(lit))]
		field := ct.TransportField
		if !ok || field == "" {
			return Place{}
		}
		tr := litField(lit, field)
		if tr == nil {
			return Place{} // the default transport dials TCP
		}
		ps = append(ps, l.transport(tr))
	}
	return joinPlaces(ps)
}

func (l *locator) transport(e ast.Expr) Place {
	srcs, ok := l.m.Sources(e)
	if !ok || len(srcs) == 0 {
		return Place{}
	}
	var ps []Place
	for _, src := range srcs {
		lit, isLit := ast.Unparen(src).(*ast.CompositeLit)
		if !isLit {
			return Place{}
		}
		tt, ok := l.t.TransportTypes[analysisutil.TypeKey(l.m.Pass.TypesInfo.TypeOf(lit))]
		fields := tt.DialFields
		if !ok {
			return Place{}
		}
		n := 0
		for _, f := range fields {
			if d := litField(lit, f); d != nil {
				n++
				ps = append(ps, l.dialFunc(d))
			}
		}
		if n == 0 {
			return Place{}
		}
	}
	return joinPlaces(ps)
}

// dialFunc reads a dial function value: local when every return of its
// body gives the result of a dial on a unix socket.
func (l *locator) dialFunc(e ast.Expr) Place {
	var body *ast.BlockStmt
	switch x := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		body = x.Body
	case *ast.Ident, *ast.SelectorExpr:
		var obj types.Object
		if id, ok := x.(*ast.Ident); ok {
			obj = l.m.Pass.TypesInfo.Uses[id]
		} else {
			obj = l.m.Pass.TypesInfo.Uses[x.(*ast.SelectorExpr).Sel]
		}
		fn, ok := obj.(*types.Func)
		if !ok {
			return Place{}
		}
		decl := l.m.Decl(fn)
		if decl == nil {
			return Place{}
		}
		body = decl.Body
	}
	if body == nil {
		return Place{}
	}
	var ps []Place
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) == 0 {
				ok = false
				return false
			}
			call, isCall := ast.Unparen(n.Results[0]).(*ast.CallExpr)
			if !isCall {
				if len(n.Results) > 1 && l.m.Pass.TypesInfo.Types[n.Results[0]].IsNil() {
					return true // return nil, err
				}
				ok = false
				return false
			}
			fn, _ := l.m.Callee(call)
			if fn == nil {
				ok = false
				return false
			}
			row, known := l.t.Outbound[analysisutil.Key(fn)]
			if !known || (row.Kind != knowledge.Dial && row.Kind != knowledge.TLS) || row.Network < 0 || row.Network >= len(call.Args) {
				ok = false
				return false
			}
			ps = append(ps, l.network(call.Args[row.Network]))
		}
		return ok
	})
	if !ok {
		return Place{}
	}
	return joinPlaces(ps)
}

// litField returns the value a keyed composite literal gives a field.
func litField(lit *ast.CompositeLit, name string) ast.Expr {
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return kv.Value
			}
		}
	}
	return nil
}

// grpc reads the target of the connection a gRPC call goes through.
func (l *locator) grpc(recv ast.Expr) Place {
	dials, made := l.m.GRPCOrigins(recv)
	if len(dials) == 0 && len(made) == 0 {
		return Place{}
	}
	var ps []Place
	for _, c := range made {
		p := l.madePlace(c)
		if p.Locality == LocalityUnknown {
			return Place{}
		}
		ps = append(ps, p)
	}
	for _, d := range dials {
		fn, _ := l.m.Callee(d)
		i, ok := l.t.GRPC.DialTargets[analysisutil.Key(fn)]
		if !ok || i >= len(d.Args) {
			return Place{}
		}
		ps = append(ps, l.grpcTargetExpr(d.Args[i]))
	}
	return joinPlaces(ps)
}

// DialPlace is where a gRPC dial call (grpc.NewClient(target, ...))
// connects: its target's place.
func (r *Result) DialPlace(dial *ast.CallExpr) Place {
	fn, _ := r.loc.m.Callee(dial)
	if fn == nil {
		return Place{}
	}
	i, ok := r.loc.t.GRPC.DialTargets[analysisutil.Key(fn)]
	if !ok || i >= len(dial.Args) {
		return Place{}
	}
	return r.loc.grpcTargetExpr(dial.Args[i])
}

// DialledInView reports whether a gRPC call's connection traces only to
// dials of this package (grpc.NewClient(addr, ...)) whose target is not
// proven local and whose options are all read and install no custom
// dialer: the connection goes over the network to wherever the target
// names, though the target itself comes from out of sight.
func (r *Result) DialledInView(c *Call) bool {
	if c.Spec.Kind != knowledge.GRPC || c.Recv == nil || c.Place.Locality == Local {
		return false
	}
	l := r.loc
	dials, made := l.m.GRPCOrigins(c.Recv)
	if len(dials) == 0 || len(made) > 0 {
		return false
	}
	g := &l.t.GRPC
	for _, d := range dials {
		fn, _ := l.m.Callee(d)
		first, ok := g.Dials[analysisutil.Key(fn)]
		if !ok || d.Ellipsis.IsValid() {
			return false
		}
		for _, a := range d.Args[min(first, len(d.Args)):] {
			oc, ok := ast.Unparen(a).(*ast.CallExpr)
			if !ok {
				return false
			}
			ofn, _ := l.m.Callee(oc)
			if ofn == nil || ofn.Pkg() != fn.Pkg() || slices.Contains(g.CustomDialers, analysisutil.Key(ofn)) {
				return false
			}
		}
	}
	return true
}

// grpcTarget reads a gRPC target: scheme:rest (unix:path, dns:///host:port,
// passthrough:///addr) or a bare host:port.
func (l *locator) grpcTarget(s string, whole bool) Place {
	if i := strings.IndexByte(s, ':'); i > 0 {
		scheme := strings.ToLower(s[:i])
		if hasScheme(scheme, l.t.Locality.LocalSchemes) {
			return Place{Locality: Local, Reason: "a unix socket (" + scheme + ":)"}
		}
		if strings.HasPrefix(s[i:], "://") {
			rest := s[i+3:]
			if j := strings.IndexByte(rest, '/'); j >= 0 {
				rest = rest[j+1:] // dns://authority/host:port
			} else {
				return Place{}
			}
			return l.hostPort(rest, whole)
		}
	}
	return l.hostPort(s, whole)
}

// sql reads the database a database/sql handle is opened on: the driver
// named where it is opened (sql.Open("sqlite3", path)), following handles
// made from handles (db.Begin(), db.Prepare(q)); or, when the handle's
// origin is out of sight, the drivers linked into the program: local when
// every registered driver is an embedded engine; and when that leaves it
// unknown, the drivers the module can link (moduleSQL).
func (l *locator) sql(recv ast.Expr) Place {
	p := l.sqlHandle(recv)
	if p.Locality == LocalityUnknown {
		return l.moduleSQL()
	}
	return p
}

func (l *locator) sqlHandle(recv ast.Expr) Place {
	if recv != nil {
		if ps, ok := l.sqlPlaces(recv, 0); ok {
			return joinPlaces(ps)
		}
	}
	drivers := l.registered()
	if len(drivers) == 0 {
		return Place{}
	}
	var ps []Place
	for name := range drivers {
		ps = append(ps, l.driverPlace(name))
	}
	return joinPlaces(ps)
}

// moduleSQL is the place of a handle whose origin and drivers are out of
// sight (a *sql.Tx handed in by a migration library, the program's main
// linking the driver): the module's go.mod, when it requires an embedded
// engine's driver and no driver of a database server, proves every handle
// local; otherwise unknown.
func (l *locator) moduleSQL() Place {
	if l.modSQL != nil {
		return *l.modSQL
	}
	l.modSQL = new(Place)
	reqs, complete, ok := analysisutil.Requirements(l.pass)
	if !ok || !complete {
		return *l.modSQL
	}
	if engine, mod, ok := l.t.Locality.ModuleSQLEngine(reqs); ok {
		*l.modSQL = Place{Locality: Local, Reason: "an embedded " + engine + " database (the module's only database driver is " + mod + ")"}
	}
	return *l.modSQL
}

func (l *locator) driverPlace(name string) Place {
	path, ok := l.registered()[name]
	if !ok {
		// Not registered in sight (the driver is linked by the program's
		// main, not by this package): the name the embedded engines'
		// drivers register.
		if engine, local := l.t.Locality.LocalSQLNames[name]; local {
			return Place{Locality: Local, Reason: "an embedded " + engine + " database (driver " + strconv.Quote(name) + ")"}
		}
		return Place{}
	}
	if engine, local := l.t.Locality.LocalSQLDrivers[path]; local {
		return Place{Locality: Local, Reason: "an embedded " + engine + " database (" + path + ")"}
	}
	return Place{}
}

// sqlPlaces returns the places of the databases a handle is opened on: by
// the driver names it is opened with, or by the facts of the functions of
// the module that make it.
func (l *locator) sqlPlaces(e ast.Expr, depth int) ([]Place, bool) {
	if depth > 8 {
		return nil, false
	}
	srcs, ok := l.m.Sources(e)
	if !ok || len(srcs) == 0 {
		return nil, false
	}
	var places []Place
	for _, src := range srcs {
		call, isCall := ast.Unparen(src).(*ast.CallExpr)
		if !isCall {
			return nil, false
		}
		fn, recv := l.m.Callee(call)
		if fn == nil {
			return nil, false
		}
		key := analysisutil.Key(fn)
		if i, ok := l.t.Locality.SQLOpens[key]; ok && i < len(call.Args) {
			shapes, ok := l.m.Shapes(call.Args[i])
			if !ok {
				return nil, false
			}
			for _, sh := range shapes {
				if !sh.Whole {
					return nil, false
				}
				places = append(places, l.driverPlace(sh.Prefix))
			}
			continue
		}
		if row, ok := l.t.Outbound[key]; ok && row.Kind == knowledge.SQL && recv != nil {
			// tx, err := db.BeginTx(ctx, nil): the same database.
			more, ok := l.sqlPlaces(recv, depth+1)
			if !ok {
				return nil, false
			}
			places = append(places, more...)
			continue
		}
		if p := l.madePlace(call); p.Locality != LocalityUnknown {
			places = append(places, p) // db, err := store.Open(path)
			continue
		}
		return nil, false
	}
	return places, len(places) > 0
}

// registered returns the SQL drivers registered by the packages this one
// is built with (SQLDriverFact), by name.
func (l *locator) registered() map[string]string {
	if l.drivers != nil {
		return l.drivers
	}
	l.drivers = map[string]string{}
	for _, pf := range l.pass.AllPackageFacts() {
		if f, ok := pf.Fact.(*SQLDriverFact); ok {
			for _, n := range f.Names {
				l.drivers[n] = pf.Package.Path()
			}
		}
	}
	return l.drivers
}

// SQLDriverFact is exported for a package that registers database/sql
// drivers under constant names (sql.Register("sqlite3", &Driver{})).
type SQLDriverFact struct {
	Names []string
}

func (*SQLDriverFact) AFact() {}

func (f *SQLDriverFact) String() string { return "sql drivers " + strings.Join(f.Names, ",") }

// exportDrivers exports the package's SQLDriverFact.
func (s *state) exportDrivers(calls []*ast.CallExpr) {
	var names []string
	for _, call := range calls {
		fn, _ := s.model.Callee(call)
		if fn == nil {
			continue
		}
		i, ok := s.table.Locality.SQLRegisters[analysisutil.Key(fn)]
		if !ok || i >= len(call.Args) {
			continue
		}
		shapes, ok := s.model.Shapes(call.Args[i])
		if !ok {
			continue
		}
		for _, sh := range shapes {
			if sh.Whole {
				names = append(names, sh.Prefix)
			}
		}
	}
	if len(names) > 0 {
		sort.Strings(names)
		s.pass.ExportPackageFact(&SQLDriverFact{Names: names})
	}
}

// localPackage reports whether fn belongs to a package whose functions all
// stay on this machine (os, the client of a local daemon): what it does
// forwards no context and sends no request to a dependency.
func (s *state) localPackage(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	_, ok := s.table.Locality.Package(fn.Pkg().Path())
	return ok
}
