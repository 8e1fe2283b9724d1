package outbound

import (
	"encoding/json"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
	"github.com/resilint/resilint/passes/ctxflow"
)

// Proof is what is known about one bound of a call.
type Proof uint8

const (
	// Unseen: the bound cannot be read (a client of unknown make, a
	// connection handed in): it may bound the call.
	Unseen Proof = iota
	// Bounded: the bound is there.
	Bounded
	// Absent: the bound is provably not there.
	Absent
)

// BoundSource is where a bound on the wait for a call's answer can come
// from, besides the call's context.
type BoundSource uint8

const (
	// FromCall: the call's own timeout (net.DialTimeout), its library's
	// (go-redis read timeouts), or a stream that may rightly live as long
	// as its context.
	FromCall BoundSource = iota + 1
	// FromClient: the client's Timeout (for an HTTP call, which its
	// transport's ResponseHeaderTimeout or deadline-setting connections
	// also give); for a dial, the dialer's Timeout or Deadline.
	FromClient
	// FromConnection: a gRPC connection's interceptor or default service
	// config.
	FromConnection
)

// A Bound is one bound that applies to a call, with what is known of it.
type Bound struct {
	Source BoundSource
	Proof  Proof
	// Note says, when Absent, what proves it for messages ("http.DefaultClient
	// has no Timeout").
	Note string
}

// StreamUse says how a stream a call opens is used.
type StreamUse uint8

const (
	// NoStream: the call is not a stream.
	NoStream StreamUse = iota
	// OpenStream: a stream that may live as long as its context (a watch,
	// a subscription), or whose use is out of sight.
	OpenStream
	// FiniteStream: a stream read to its end in view — drained until
	// io.EOF, or closed with CloseAndRecv — which waits on the server like
	// a unary call.
	FiniteStream
)

// Evidence is what resilint knows about one outbound call: where it goes,
// the context it is given and every other bound that applies, each with
// where it comes from. Analyzers filter these records and word them.
type Evidence struct {
	Call  *Call
	Place Place
	// Context is the origin of the context that bounds the call (its
	// context argument, or its request's); HasContext is false for calls
	// that take none.
	Context    ctxflow.Origin
	HasContext bool
	// Bounds are the bounds other than the context.
	Bounds []Bound
	Stream StreamUse
	// WaitForReady: the call waits for the connection to become ready
	// (grpc.WaitForReady(true) in its options or the connection's default
	// call options) instead of failing fast while the server is down.
	WaitForReady bool
	// Schema: the call's SQL statement, in sight, changes the schema (DDL:
	// CREATE, ALTER, DROP, ...; knowledge.SchemaVerbs): a migration step,
	// bounded by whoever runs the migration, which a deadline would abort
	// halfway.
	Schema bool
}

// Unbounded reports whether nothing but its context bounds the call: every
// other bound that applies is provably absent.
func (e *Evidence) Unbounded() bool {
	for _, b := range e.Bounds {
		if b.Proof != Absent {
			return false
		}
	}
	return true
}

// Bound returns the bound from a source, if one applies.
func (e *Evidence) Bound(src BoundSource) (Bound, bool) {
	for _, b := range e.Bounds {
		if b.Source == src {
			return b, true
		}
	}
	return Bound{}, false
}

// Evidence returns the call's evidence record, computed once.
func (c *Call) Evidence() *Evidence {
	if c.ev == nil {
		c.ev = evidenceOf(c.m, c)
	}
	return c.ev
}

func proofOf(b ctxflow.Bound) Proof {
	switch b {
	case ctxflow.HasTimeout:
		return Bounded
	case ctxflow.NoTimeout:
		return Absent
	}
	return Unseen
}

func evidenceOf(m *ctxflow.Model, c *Call) *Evidence {
	e := &Evidence{Call: c, Place: c.Place}
	e.Schema = schemaChange(m, c)
	e.Context, e.HasContext = CallContext(m, c)
	stream := c.Spec.Stream
	if stream {
		e.Stream = OpenStream
		if finiteStream(m, c) {
			e.Stream = FiniteStream
		} else {
			e.Bounds = append(e.Bounds, Bound{Source: FromCall, Proof: Bounded})
		}
	}
	if c.Spec.Bounded {
		e.Bounds = append(e.Bounds, Bound{Source: FromCall, Proof: Bounded})
	}
	if c.Spec.Kind == knowledge.GRPC && c.Recv != nil {
		note := "its connection is dialled with no deadline interceptor"
		if stream {
			note = "its connection is dialled with no stream deadline interceptor"
		}
		e.Bounds = append(e.Bounds, Bound{Source: FromConnection, Proof: proofOf(m.ConnBound(c.Recv, stream)), Note: note})
		e.WaitForReady = waitsForReady(m, c)
	}
	switch c.Spec.Client {
	case knowledge.DefaultClient:
		b := Bound{Source: FromClient, Proof: Absent, Note: "http.DefaultClient has no Timeout"}
		if m.GlobalTimeout(m.Table.DefaultClient) {
			b.Proof = Bounded
		}
		e.Bounds = append(e.Bounds, b)
	case knowledge.Receiver, knowledge.Argument:
		b := Bound{Source: FromClient}
		if x := c.Client(); x != nil {
			b.Proof = proofOf(m.Client(x))
		}
		switch {
		case c.Spec.Kind == knowledge.Dial || c.Spec.Kind == knowledge.TLS:
			b.Note = "its dialer has no Timeout"
		case isVar(m, c.Client(), m.Table.DefaultClient):
			b.Note = "http.DefaultClient has no Timeout"
		default:
			b.Note = "its client has no Timeout"
		}
		e.Bounds = append(e.Bounds, b)
	}
	return e
}

// waitsForReady reports whether a gRPC call's options include
// grpc.WaitForReady(true), or its connection's default call options do
// (grpc.WithDefaultCallOptions(grpc.WaitForReady(true))).
func waitsForReady(m *ctxflow.Model, c *Call) bool {
	g := &m.Table.GRPC
	if g.WaitForReady == "" {
		return false
	}
	if readyOption(m, c.Call.Args) {
		return true
	}
	if c.Recv == nil {
		return false
	}
	for _, d := range m.GRPCDials(c.Recv) {
		for _, a := range d.Args {
			call, ok := ast.Unparen(a).(*ast.CallExpr)
			if !ok {
				continue
			}
			fn, _ := m.Callee(call)
			if fn == nil {
				continue
			}
			switch key := analysisutil.Key(fn); {
			case g.DefaultCallOptions != "" && key == g.DefaultCallOptions && readyOption(m, call.Args):
				return true
			case g.DefaultServiceConfig != "" && key == g.DefaultServiceConfig && len(call.Args) == 1 && readyConfig(m, call.Args[0]):
				return true
			}
		}
	}
	return false
}

// readyConfig reports whether a constant service config (JSON) has a
// method config with "waitForReady": true.
func readyConfig(m *ctxflow.Model, e ast.Expr) bool {
	tv, ok := m.Pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return false
	}
	var sc struct {
		MethodConfig []struct {
			WaitForReady *bool `json:"waitForReady"`
		} `json:"methodConfig"`
	}
	if json.Unmarshal([]byte(constant.StringVal(tv.Value)), &sc) != nil {
		return false
	}
	for _, mc := range sc.MethodConfig {
		if mc.WaitForReady != nil && *mc.WaitForReady {
			return true
		}
	}
	return false
}

// readyOption reports whether args include grpc.WaitForReady(true), also
// in a local slice of options passed with ... whose every definition lists
// it (opts := []grpc.CallOption{grpc.WaitForReady(true)}; c.M(ctx, r, opts...)).
func readyOption(m *ctxflow.Model, args []ast.Expr) bool {
	for _, a := range args {
		if id, ok := ast.Unparen(a).(*ast.Ident); ok {
			if v, ok := m.Pass.TypesInfo.Uses[id].(*types.Var); ok && readySlice(m, v) {
				return true
			}
			continue
		}
		call, ok := ast.Unparen(a).(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			continue
		}
		fn, _ := m.Callee(call)
		if fn == nil || analysisutil.Key(fn) != m.Table.GRPC.WaitForReady {
			continue
		}
		if tv, ok := m.Pass.TypesInfo.Types[call.Args[0]]; ok && tv.Value != nil && tv.Value.String() == "true" {
			return true
		}
	}
	return false
}

// readySlice reports whether every definition of a local slice of
// options is a literal or an append that lists grpc.WaitForReady(true).
func readySlice(m *ctxflow.Model, v *types.Var) bool {
	if _, ok := v.Type().Underlying().(*types.Slice); !ok {
		return false
	}
	defs := m.Defs(v)
	if len(defs) == 0 {
		return false
	}
	for _, d := range defs {
		var elts []ast.Expr
		switch x := ast.Unparen(d).(type) {
		case *ast.CompositeLit:
			elts = x.Elts
		case *ast.CallExpr:
			if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && id.Name == "append" && len(x.Args) > 1 {
				elts = x.Args[1:]
			}
		}
		if len(elts) == 0 || !readyOption(m, elts) {
			return false
		}
	}
	return true
}

// finiteStream reports whether the stream a call opens is read to its end
// in the function that opens it: the variable it is assigned to has a
// finishing method called (CloseAndRecv), or an error from one of its
// methods is compared with the end-of-stream error (err == io.EOF,
// errors.Is(err, io.EOF), switch err { case io.EOF: }).
func finiteStream(m *ctxflow.Model, c *Call) bool {
	if c.Decl == nil || c.Decl.Body == nil {
		return false
	}
	info := m.Pass.TypesInfo
	g := &m.Table.GRPC
	stream, _ := assignedFrom(info, c)
	if stream == nil || !m.Visible(stream) {
		return false
	}
	onStream := func(call *ast.CallExpr) (*types.Func, bool) {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil, false
		}
		id, ok := ast.Unparen(sel.X).(*ast.Ident)
		if !ok || info.Uses[id] != stream {
			return nil, false
		}
		fn, _ := info.Uses[sel.Sel].(*types.Func)
		return fn, fn != nil
	}
	// errs are the variables given an error from a method of the stream.
	errs := map[*types.Var]bool{}
	finite := false
	ast.Inspect(c.Decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if fn, ok := onStream(n); ok {
				for _, name := range g.FiniteStreamMethods {
					if fn.Name() == name {
						finite = true
					}
				}
			}
		case *ast.AssignStmt:
			if len(n.Rhs) != 1 {
				return true
			}
			call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr)
			if !ok {
				return true
			}
			if _, ok := onStream(call); !ok {
				return true
			}
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					if v, ok := info.ObjectOf(id).(*types.Var); ok && types.Identical(v.Type(), types.Universe.Lookup("error").Type()) {
						errs[v] = true
					}
				}
			}
		}
		return !finite
	})
	if finite {
		return true
	}
	if len(errs) == 0 || g.EndOfStream == "" {
		return false
	}
	isErr := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		v, _ := info.Uses[id].(*types.Var)
		return v != nil && errs[v]
	}
	isEOF := func(e ast.Expr) bool {
		var obj types.Object
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			obj = info.Uses[x.Sel]
		case *ast.Ident:
			obj = info.Uses[x]
		}
		v, ok := obj.(*types.Var)
		return ok && analysisutil.VarKey(v) == g.EndOfStream
	}
	ast.Inspect(c.Decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && (isErr(n.X) && isEOF(n.Y) || isErr(n.Y) && isEOF(n.X)) {
				finite = true
			}
		case *ast.CallExpr:
			if fn, _ := m.Callee(n); fn != nil && m.Table.ErrorMatches[analysisutil.Key(fn)] && len(n.Args) == 2 && isErr(n.Args[0]) && isEOF(n.Args[1]) {
				finite = true
			}
		case *ast.SwitchStmt:
			// switch err { case io.EOF: return nil }
			if n.Tag != nil && isErr(n.Tag) {
				for _, cl := range n.Body.List {
					for _, e := range cl.(*ast.CaseClause).List {
						if isEOF(e) {
							finite = true
						}
					}
				}
			}
		}
		return !finite
	})
	return finite
}

// isVar reports whether e is the package-level variable key.
func isVar(m *ctxflow.Model, e ast.Expr, key string) bool {
	v, ok := analysisutil.Referent(m.Pass.TypesInfo, e).(*types.Var)
	return ok && key != "" && analysisutil.VarKey(v) == key
}

func (s BoundSource) String() string {
	switch s {
	case FromCall:
		return "call"
	case FromClient:
		return "client"
	case FromConnection:
		return "connection"
	}
	return "?"
}

func (p Proof) String() string {
	switch p {
	case Bounded:
		return "bounded"
	case Absent:
		return "absent"
	}
	return "unseen"
}

// String describes the record for tests and debugging: the place, the
// context's state, each bound, and whether the call is unbounded.
func (e *Evidence) String() string {
	s := e.Place.String()
	if e.HasContext {
		s += "; context " + e.Context.State.String()
	} else {
		s += "; no context"
	}
	for _, b := range e.Bounds {
		s += "; " + b.Source.String() + " " + b.Proof.String()
	}
	switch e.Stream {
	case OpenStream:
		s += "; open stream"
	case FiniteStream:
		s += "; finite stream"
	}
	if e.WaitForReady {
		s += "; wait for ready"
	}
	if e.Unbounded() {
		s += "; unbounded"
	}
	return s
}

// schemaChange reports whether every statement a database call can be given
// begins with a schema-changing verb (knowledge.SchemaVerbs).
func schemaChange(m *ctxflow.Model, c *Call) bool {
	if c.Spec.Kind != knowledge.SQL || c.Spec.Statement == knowledge.None {
		return false
	}
	arg := c.Arg(c.Spec.Statement)
	if arg == nil {
		return false
	}
	shapes, ok := m.Shapes(arg)
	if !ok || len(shapes) == 0 {
		return false
	}
	for _, sh := range shapes {
		if !schemaVerb(sh.Prefix) {
			return false
		}
	}
	return true
}

// schemaVerb reports whether a statement's known beginning is a whole
// schema-changing verb (followed by a space, not cut within the word).
func schemaVerb(prefix string) bool {
	s := strings.TrimLeft(prefix, " \t\r\n(")
	i := strings.IndexAny(s, " \t\r\n")
	if i <= 0 {
		return false
	}
	word := strings.ToUpper(s[:i])
	for _, v := range knowledge.SchemaVerbs {
		if word == v {
			return true
		}
	}
	return false
}
