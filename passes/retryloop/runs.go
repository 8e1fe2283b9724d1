package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// Restart loops are no retry loops (issue 13, rule 3): for { err :=
// c.watchStream(ctx); log(err); time.Sleep(d) } restarts a component that
// runs until its stream ends, it does not re-issue one operation. A call
// runs a component when it serves (a serving call of the knowledge table:
// (*http.Server).ListenAndServe, (*grpc.Server).Serve) or calls a function
// whose body loops over a stream: a range over a channel, or an endless
// loop that receives from a channel other than a timer's or a context's.
// RunsFact carries it across packages.

// RunsFact is exported for a function that runs until its stream or server
// ends.
type RunsFact struct{}

func (*RunsFact) AFact() {}

func (*RunsFact) String() string { return "runs until its stream ends" }

// runs reports whether a call runs a component until it ends.
func (m *model) runs(call *ast.CallExpr) bool {
	fn, _ := m.callee(call)
	return fn != nil && m.funcRuns(fn, 0)
}

func (m *model) funcRuns(fn *types.Func, depth int) bool {
	fn = fn.Origin()
	if m.rt.Serves[analysisutil.Key(fn)] {
		return true
	}
	if _, ok := m.rt.Helpers[analysisutil.Key(fn)]; ok {
		// A retry helper of the table loops until its operation succeeds
		// or its attempts run out, waiting on timers of its own (retry-go
		// waits on an interface's After): it retries, it runs nothing.
		return false
	}
	if fn.Pkg() == nil || depth > 4 {
		return false
	}
	if fn.Pkg() != m.pass.Pkg {
		return m.pass.ImportObjectFact(fn, new(RunsFact))
	}
	// Calls are followed four deep. The answer depends on the depth it is
	// asked at, so it is kept per depth: kept per function, an answer cut
	// short deep in one question would be the answer to the next, and the
	// facts would depend on the order functions are asked about (a map's).
	// Each call goes one deeper, so recursion ends without a guard.
	key := runsKey{fn, depth}
	if r, ok := m.runsMemo[key]; ok {
		return r
	}
	d := m.x.decls[fn]
	r := d != nil && d.Body != nil && m.bodyRuns(d.Body, depth)
	m.runsMemo[key] = r
	return r
}

// runsKey is a function asked about at a depth.
type runsKey struct {
	fn    *types.Func
	depth int
}

// bodyRuns reports whether a function body, outside function literals and
// goroutines, loops over a stream or calls something that runs.
func (m *model) bodyRuns(body *ast.BlockStmt, depth int) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt:
			return false
		case *ast.RangeStmt:
			if _, ok := types.Unalias(m.info.TypeOf(n.X)).Underlying().(*types.Chan); ok {
				found = true
			}
		case *ast.ForStmt:
			if n.Cond == nil && (m.receivesStream(body, n.Body) || m.consumes(n)) {
				found = true
			}
		case *ast.CallExpr:
			if fn, _ := m.callee(n); fn != nil && m.funcRuns(fn, depth+1) {
				found = true
			}
		}
		return !found
	})
	return found
}

// receivesStream reports whether a loop body receives from a stream: a
// channel that is neither a timer's nor a context's Done, nor one the
// function makes itself (results of its own goroutines, fanned in: a
// parallel dial's).
func (m *model) receivesStream(fbody, body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			if n.Op != token.ARROW {
				return true
			}
			if k, _ := m.timerOf(n.X); k != 0 {
				return true
			}
			if c, ok := ast.Unparen(n.X).(*ast.CallExpr); ok {
				if _, recv := m.callee(c); recv != nil && analysisutil.IsContext(m.info.TypeOf(recv)) {
					return true // <-ctx.Done()
				}
			}
			if v := m.x.varOf(n.X); v != nil && within(v.Pos(), fbody) && m.madeHere(v) {
				return true
			}
			found = true
		}
		return true
	})
	return found
}

// exportRuns exports the RunsFact of the package's exported functions that
// run.
func (m *model) exportRuns() {
	for fn, decl := range m.x.decls {
		if fn.Exported() && decl.Body != nil && m.funcRuns(fn, 0) {
			m.pass.ExportObjectFact(fn, &RunsFact{})
		}
	}
}

// madeHere reports whether every definition of a channel variable makes it
// (make(chan T)).
func (m *model) madeHere(v *types.Var) bool {
	ds := m.x.defs[v]
	for _, d := range ds {
		c, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := ast.Unparen(c.Fun).(*ast.Ident)
		if !ok {
			return false
		}
		if m.info.Uses[id] != types.Universe.Lookup("make") {
			return false
		}
	}
	return len(ds) > 0
}

// consumes reports whether an endless loop consumes a stream: it makes a
// call that, when it succeeds, the loop handles and calls again, and that,
// when it fails, ends the loop, and it never waits between two calls (for { msg, err := stream.Recv(); if err !=
// nil { return err }; handle(msg) }).
func (m *model) consumes(fs *ast.ForStmt) bool {
	li := &loopInfo{stmt: fs, body: fs.Body}
	m.scan(li)
	if len(li.sleepCalls) > 0 || len(li.timerCalls) > 0 {
		return false // it waits between calls: a retry or a poll, no consumer
	}
	L := &Loop{Stmt: fs, Body: fs.Body}
	for _, c := range li.calls {
		ok := m.newWalker(L, li, c, assume{err: no, status: 200, code: 0}, false)
		if !ok.observed() {
			continue
		}
		ok.run()
		if len(ok.round) == 0 || len(ok.exit) > 0 {
			continue
		}
		bad := m.newWalker(L, li, c, assume{err: yes, code: -1}, false)
		bad.run()
		if len(bad.exit) > 0 && len(bad.round) == 0 {
			return true
		}
	}
	return false
}
