package outbound

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// ConnRead is a read from a connection that the function dials itself,
// with no deadline set on the connection before it (issue 13, rule 2: a
// dial's timeout bounds the connect only; a server that accepts and then
// stays silent holds the read until the connection is closed).
//
// It is recorded only when every use of the connection, and of the readers
// made over it, is seen and known (knowledge.ConnTable): a connection that
// is passed to another function, stored, returned, captured by a closure
// or assigned again may get its deadline, or be closed by a watcher,
// out of sight — unknown, so no record.
type ConnRead struct {
	// Dial is the dial that made the connection, Conn its variable.
	Dial *Call
	Conn *types.Var
	// Read is the first read, and Fn what it calls.
	Read *ast.CallExpr
	Fn   *types.Func
}

// connReads returns the unbounded first read of the connection each dial
// of the package makes, keyed by the read.
func (r *Result) connReads() map[*ast.CallExpr]*ConnRead {
	out := map[*ast.CallExpr]*ConnRead{}
	for _, c := range r.Calls {
		if c.Spec.Kind != knowledge.Dial && c.Spec.Kind != knowledge.TLS {
			continue
		}
		if cr := connRead(r.Model.Pass.TypesInfo, &r.table.Conns, c); cr != nil {
			out[cr.Read] = cr
		}
	}
	return out
}

// ConnReads is connReads, computed once.
func (r *Result) ConnReads() map[*ast.CallExpr]*ConnRead {
	if r.reads == nil {
		r.reads = r.connReads()
	}
	return r.reads
}

func connRead(info *types.Info, t *knowledge.ConnTable, c *Call) *ConnRead {
	if c.Decl == nil || c.Decl.Body == nil {
		return nil
	}
	conn, def := assignedFrom(info, c)
	if conn == nil {
		return nil
	}
	w := &connWalk{info: info, t: t, dial: c, def: def, tracked: map[*types.Var]bool{conn: true}}
	var stack []ast.Node
	ast.Inspect(c.Decl.Body, func(n ast.Node) bool {
		if w.escaped {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if id, ok := n.(*ast.Ident); ok {
			if v, _ := info.Uses[id].(*types.Var); v != nil && w.tracked[v] {
				w.use(stack)
			}
		}
		return true
	})
	if w.escaped || w.read == nil {
		return nil
	}
	for _, d := range w.deadlines {
		if d < w.read.Pos() {
			return nil
		}
	}
	return &ConnRead{Dial: c, Conn: conn, Read: w.read, Fn: w.readFn}
}

// assignedFrom returns the variable the first result of call c is
// assigned to in its function (conn, err := net.Dial(...); stream, err :=
// client.Watch(ctx, ...)) and that assignment.
func assignedFrom(info *types.Info, c *Call) (*types.Var, *ast.AssignStmt) {
	var conn *types.Var
	var def *ast.AssignStmt
	ast.Inspect(c.Decl.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == ast.Expr(c.Call) && len(as.Lhs) > 0 {
			if id, ok := as.Lhs[0].(*ast.Ident); ok {
				conn, _ = info.ObjectOf(id).(*types.Var)
				def = as
			}
		}
		return conn == nil
	})
	return conn, def
}

type connWalk struct {
	info    *types.Info
	t       *knowledge.ConnTable
	dial    *Call
	def     *ast.AssignStmt
	tracked map[*types.Var]bool
	// wraps are the assignments that define a reader over the connection.
	wraps     map[*ast.AssignStmt]bool
	deadlines []token.Pos
	read      *ast.CallExpr
	readFn    *types.Func
	escaped   bool
}

// use classifies one use of the connection or of a reader over it; stack
// ends at its identifier.
func (w *connWalk) use(stack []ast.Node) {
	for _, n := range stack {
		// A closure that the dial is not in may run at any time (a
		// watcher that closes the connection when a context ends).
		if lit, ok := n.(*ast.FuncLit); ok && (w.dial.Call.Pos() < lit.Pos() || w.dial.Call.End() > lit.End()) {
			w.escaped = true
			return
		}
	}
	i := len(stack) - 1
	e := stack[i].(ast.Expr)
	for i > 0 {
		p := stack[i-1]
		switch p := p.(type) {
		case *ast.ParenExpr:
			e, i = p, i-1
			continue
		case *ast.SelectorExpr:
			// A method call on the connection or reader.
			call, ok := parentCall(stack, i-1, p)
			fn, _ := w.info.Uses[p.Sel].(*types.Func)
			if !ok || fn == nil || p.X != e {
				w.escaped = true
				return
			}
			w.called(call, fn, -1)
			return
		case *ast.CallExpr:
			fn := analysisutil.StaticCallee(w.info, p)
			arg := -1
			for j, a := range p.Args {
				if a == e {
					arg = j
				}
			}
			if fn == nil || arg < 0 {
				w.escaped = true
				return
			}
			key := analysisutil.Key(fn)
			if j, ok := w.t.Wrappers[key]; ok && j == arg {
				// A reader over the connection: followed where it is
				// assigned to a variable or read on the spot.
				if as, ok := at(stack, i-2).(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 && as.Rhs[0] == ast.Expr(p) {
					if id, ok := as.Lhs[0].(*ast.Ident); ok {
						if v, ok := w.info.ObjectOf(id).(*types.Var); ok {
							w.tracked[v] = true
							if w.wraps == nil {
								w.wraps = map[*ast.AssignStmt]bool{}
							}
							w.wraps[as] = true
							return
						}
					}
				}
				e, i = p, i-1
				continue
			}
			w.called(p, fn, arg)
			return
		case *ast.AssignStmt:
			if p == w.def || w.wraps[p] {
				return
			}
			w.escaped = true // assigned again, or assigned elsewhere
			return
		case *ast.BinaryExpr:
			if p.Op == token.EQL || p.Op == token.NEQ {
				return // conn != nil
			}
		}
		w.escaped = true
		return
	}
	w.escaped = true
}

// called records a call that takes the connection (or a reader over it) as
// its receiver (arg -1) or argument arg.
func (w *connWalk) called(call *ast.CallExpr, fn *types.Func, arg int) {
	key := analysisutil.Key(fn)
	switch {
	case arg < 0 && w.t.Deadlines[key]:
		w.deadlines = append(w.deadlines, call.Pos())
	case hasIndex(w.t.Reads, key, arg):
		if w.read == nil || call.Pos() < w.read.Pos() {
			w.read, w.readFn = call, fn
		}
	case hasIndex(w.t.Harmless, key, arg):
	default:
		w.escaped = true
	}
}

func hasIndex(m map[string]int, key string, i int) bool {
	j, ok := m[key]
	return ok && j == i
}

// parentCall returns the call whose function is sel (stack[i] is sel).
func parentCall(stack []ast.Node, i int, sel *ast.SelectorExpr) (*ast.CallExpr, bool) {
	if i == 0 {
		return nil, false
	}
	call, ok := stack[i-1].(*ast.CallExpr)
	return call, ok && ast.Unparen(call.Fun) == ast.Expr(sel)
}

func at(stack []ast.Node, i int) ast.Node {
	if i < 0 || i >= len(stack) {
		return nil
	}
	return stack[i]
}
