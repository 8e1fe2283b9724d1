package launch

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// limited reports whether a launcher's group has a limit, or might have one
// set out of sight.
func (s *state) limited(l *Launch) bool {
	if l.Spec == nil {
		return false
	}
	if l.Spec.Limit == "" {
		return false
	}
	return s.groupLimited(l.Group, l, 0)
}

func (s *state) groupLimited(g ast.Expr, l *Launch, depth int) bool {
	if depth > 4 {
		return true
	}
	info := s.info
	g = ast.Unparen(g)
	switch x := g.(type) {
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		if !ok {
			return true
		}
		if _, _, isParam := s.flow.IsParam(v); isParam {
			return true // a group from the caller: unknown limit
		}
		if isGlobal(v) {
			return s.limitedAnywhere(v)
		}
		if s.limitedBefore(v, l) {
			return true
		}
		if !s.flow.Visible(v) {
			return true
		}
		defs := s.flow.DefsOf(v)
		if len(defs) != 1 {
			return true
		}
		d := defs[0]
		if d.Zero {
			return false // var g errgroup.Group
		}
		if d.Rhs == nil {
			return true
		}
		return s.originLimited(d.Rhs, d.Index, l, depth)
	case *ast.SelectorExpr:
		sel, ok := info.Selections[x]
		if !ok || sel.Kind() != types.FieldVal {
			return true
		}
		return s.fieldLimited(sel.Obj().(*types.Var))
	case *ast.UnaryExpr, *ast.StarExpr:
		var inner ast.Expr
		if u, ok := x.(*ast.UnaryExpr); ok {
			inner = u.X
		} else {
			inner = x.(*ast.StarExpr).X
		}
		return s.groupLimited(inner, l, depth+1)
	case *ast.CallExpr:
		return s.originLimited(x, -1, l, depth)
	}
	return true
}

// originLimited judges the expression a group comes from: a known
// constructor (errgroup.WithContext, new(errgroup.Group), &errgroup.Group{})
// has no limit unless a limit call is chained; a helper of the package is
// limited when it limits what it returns; anything else is unknown.
func (s *state) originLimited(e ast.Expr, index int, l *Launch, depth int) bool {
	info := s.info
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return false
	case *ast.UnaryExpr:
		if _, ok := ast.Unparen(x.X).(*ast.CompositeLit); ok && x.Op == token.AND {
			return false
		}
		return true
	case *ast.Ident, *ast.SelectorExpr:
		if index < 0 {
			return s.groupLimited(x, l, depth+1)
		}
		return true
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
			if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "new" {
				return false
			}
		}
		fn, recv := s.flow.Callee(x)
		if fn == nil {
			return true
		}
		key := analysisutil.Key(fn)
		if _, ok := s.table.Limits[key]; ok {
			return true // pool.New().WithMaxGoroutines(8)
		}
		if _, ok := s.table.GroupCtors[key]; ok {
			return false // errgroup.WithContext
		}
		if recv != nil && isChainOf(s.table, fn) {
			return s.originLimited(recv, -1, l, depth+1)
		}
		if d := s.flow.Decl(fn); d != nil && d.Body != nil {
			return s.helperLimits(d)
		}
		if s.flow.UnlimitedGroup(fn) {
			return false // another package's helper: return errgroup.WithContext(ctx)
		}
		if isPoolCtor(fn) {
			return false
		}
		return true
	}
	return true
}

// isChainOf reports whether fn is a method that returns its receiver's
// group configured (conc's WithErrors, WithContext, ...): any method of a
// launcher's group type that returns a group type.
func isChainOf(t *knowledge.BoundTable, fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || sig.Results().Len() != 1 {
		return false
	}
	return t.GroupType(analysisutil.TypeKey(sig.Results().At(0).Type()))
}

// isPoolCtor reports whether fn is a function (not a method) that returns a
// launcher's group: a constructor (pool.New()).
func isPoolCtor(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() == nil && sig.Params().Len() == 0 && sig.Results().Len() == 1
}

// helperLimits reports whether a helper of the package limits the group it
// returns (a limit call on any group in its body, on the path to the
// return), or when that cannot be told (then unknown: limited).
func (s *state) helperLimits(d *ast.FuncDecl) bool {
	for _, lc := range s.limits {
		if lc.call.Pos() >= d.Body.Pos() && lc.call.End() <= d.Body.End() && lc.where.Block == d.Body {
			return true
		}
	}
	// A helper that returns a fresh group without a limit.
	fresh := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) >= 1 {
			switch x := ast.Unparen(r.Results[0]).(type) {
			case *ast.CallExpr:
				if fn, _ := s.flow.Callee(x); fn != nil {
					if _, ok := s.table.GroupCtors[analysisutil.Key(fn)]; ok {
						fresh = true
					}
				}
			case *ast.UnaryExpr:
				if _, ok := ast.Unparen(x.X).(*ast.CompositeLit); ok {
					fresh = true
				}
			}
		}
		return true
	})
	return !fresh
}

// limitedBefore reports whether a limit is set on the local group v before
// the loops of l, in any branch: a limit call before the outermost loop in
// the same function; or v is handed to a function that may set one (a
// helper of the package that limits its parameter, or any function out of
// sight).
func (s *state) limitedBefore(v *types.Var, l *Launch) bool {
	outer := l.Loops[len(l.Loops)-1]
	for _, lc := range s.limits {
		if rootVar(s.info, lc.recv) != v {
			continue
		}
		if lc.call.Pos() < outer.Pos() && lc.where.Func == l.Where.Func {
			return true
		}
	}
	// The group's address handed to a call before the loop.
	handed := false
	fnBody := funcBody(l.Where.Func)
	if fnBody == nil {
		return false
	}
	ast.Inspect(fnBody, func(n ast.Node) bool {
		if handed {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || call.Pos() >= outer.Pos() {
			return true
		}
		for _, a := range call.Args {
			if rootVar(s.info, a) == v {
				handed = true
			}
		}
		return true
	})
	return handed
}

func funcBody(n ast.Node) *ast.BlockStmt {
	switch f := n.(type) {
	case *ast.FuncDecl:
		return f.Body
	case *ast.FuncLit:
		return f.Body
	}
	return nil
}

// rootVar returns the variable an expression (v, &v, v.f) starts from.
func rootVar(info *types.Info, e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, _ := info.Uses[x].(*types.Var)
			return v
		case *ast.UnaryExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// limitedAnywhere reports whether a package-level group has a limit call
// anywhere in the package.
func (s *state) limitedAnywhere(v *types.Var) bool {
	for _, lc := range s.limits {
		if rootVar(s.info, lc.recv) == v {
			return true
		}
	}
	return v.Pkg() != s.pass.Pkg
}

// fieldLimited reports whether a group held in a struct field has a limit
// somewhere in the package, or is set from something out of sight.
func (s *state) fieldLimited(f *types.Var) bool {
	info := s.info
	for _, lc := range s.limits {
		if sel, ok := ast.Unparen(lc.recv).(*ast.SelectorExpr); ok {
			if s, ok := info.Selections[sel]; ok && s.Obj() == f {
				return true
			}
		}
	}
	if f.Pkg() != s.pass.Pkg {
		return true
	}
	// Assigned somewhere (a literal or an assignment): from what?
	limited := false
	for _, file := range s.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			if limited {
				return false
			}
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && info.Uses[id] == f {
					if !s.freshGroup(n.Value) {
						limited = true
					}
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
					if !ok || i >= len(n.Rhs) {
						continue
					}
					if sl, ok := info.Selections[sel]; ok && sl.Obj() == f && !s.freshGroup(n.Rhs[i]) {
						limited = true
					}
				}
			}
			return true
		})
	}
	return limited
}

// freshGroup reports whether e makes a group with no limit.
func (s *state) freshGroup(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		_, ok := ast.Unparen(x.X).(*ast.CompositeLit)
		return ok
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
			if b, ok := s.info.Uses[id].(*types.Builtin); ok && b.Name() == "new" {
				return true
			}
		}
		if fn, _ := s.flow.Callee(x); fn != nil {
			if _, ok := s.table.GroupCtors[analysisutil.Key(fn)]; ok {
				return true
			}
		}
	}
	return false
}

func isGlobal(v *types.Var) bool { return v.Pkg() != nil && v.Parent() == v.Pkg().Scope() }

// semaphore reports whether each goroutine holds a slot of a bound: a
// buffered channel filled before the launch (in the loop body) or at the
// start of the goroutine and drained in it, or an acquire call.
func (s *state) semaphore(l *Launch, body *ast.BlockStmt) bool {
	if l.Spec == nil && s.acquires(l.Call) {
		return true // go bulkhead.Do(ctx, work)
	}
	before := s.beforeLaunch(l)
	for i, st := range before {
		if s.acquires(st) && !s.releasedIn(before[i:]) {
			return true
		}
	}
	if body != nil && s.acquiresFirst(body) {
		return true
	}
	if body == nil {
		return false
	}
	inBody := chanOps(s.info, body)
	outer := l.Loops[len(l.Loops)-1]
	for _, st := range before {
		for ch, ops := range chanOps(s.info, st) {
			if ch.Pos() >= outer.Pos() && ch.Pos() < outer.End() {
				continue // a channel made per iteration
			}
			if bo := inBody[ch]; bo != 0 && (ops&^bo) != 0 {
				return true // acquired before, released inside
			}
		}
	}
	for ch, ops := range inBody {
		if ops == opSend|opRecv && (ch.Pos() < outer.Pos() || ch.Pos() >= outer.End()) && s.buffered(ch) &&
			s.sendsFirst(body, ch) {
			return true // acquired and released inside
		}
	}
	return false
}

// sendsFirst reports whether the goroutine body takes a slot of ch (sends,
// or receives from a pool of tokens) before its remote work: a slot taken
// after the calls (mu <- struct{}{}; res[id] = err; <-mu) is a lock
// around bookkeeping, not a bound on the calls. Deferred calls are not
// work.
func (s *state) sendsFirst(body *ast.BlockStmt, ch *types.Var) bool {
	info := s.info
	send, work := token.NoPos, token.NoPos
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.DeferStmt, *ast.FuncLit:
			return false
		case *ast.SendStmt:
			if v := chanVar(info, n.Chan); v == ch && !send.IsValid() {
				send = n.Pos()
			}
		case *ast.UnaryExpr:
			// A pool of tokens filled beforehand is taken by a receive.
			if v := chanVar(info, n.X); n.Op == token.ARROW && v == ch && !send.IsValid() {
				send = n.Pos()
			}
		case *ast.CallExpr:
			if s.remoteCall(n) && (!work.IsValid() || n.Pos() < work) {
				work = n.Pos()
			}
		}
		return true
	})
	return send.IsValid() && (!work.IsValid() || send < work)
}

// remoteCall reports whether a call is remote outbound work, or calls a
// function that reaches some.
func (s *state) remoteCall(call *ast.CallExpr) bool {
	if s.deps.Res.ByCall[call] != nil {
		return true
	}
	fn, _ := s.flow.Callee(call)
	f := s.fact(fn)
	return f != nil && len(f.Work) > 0
}

// buffered reports whether a channel variable is made with a capacity.
func (s *state) buffered(v *types.Var) bool {
	if !s.flow.Visible(v) {
		return true // a field or a parameter: trust the pattern
	}
	for _, d := range s.flow.DefsOf(v) {
		call, ok := ast.Unparen(d.Rhs).(*ast.CallExpr)
		if !ok || len(call.Args) < 2 {
			return false
		}
		if n, ok := analysisutil.ConstInt(s.info, call.Args[1]); ok && n == 0 {
			return false
		}
	}
	return true
}

const (
	opSend = 1 << iota
	opRecv
)

// chanOps returns, per channel variable, the operations n performs on it
// (outside function literals other than deferred ones).
func chanOps(info *types.Info, n ast.Node) map[*types.Var]int {
	out := map[*types.Var]int{}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.DeferStmt:
			if lit, ok := n.Call.Fun.(*ast.FuncLit); ok {
				ast.Inspect(lit.Body, visit)
				return false
			}
		case *ast.FuncLit:
			return false
		case *ast.SendStmt:
			if v := chanVar(info, n.Chan); v != nil {
				out[v] |= opSend
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				if v := chanVar(info, n.X); v != nil {
					out[v] |= opRecv
				}
			}
		}
		return true
	}
	ast.Inspect(n, visit)
	return out
}

func chanVar(info *types.Info, e ast.Expr) *types.Var {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, _ := info.Uses[x].(*types.Var)
		return v
	case *ast.SelectorExpr:
		if s, ok := info.Selections[x]; ok && s.Kind() == types.FieldVal {
			v, _ := s.Obj().(*types.Var)
			return v
		}
	}
	return nil
}

// acquires reports whether n calls an acquire of a concurrency bound.
func (s *state) acquires(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if fn, _ := s.flow.Callee(n); fn != nil && s.table.Acquires[analysisutil.Key(fn)] {
				found = true
			}
		}
		return !found
	})
	return found
}

// acquiresFirst reports whether the goroutine body acquires a slot of a
// bound before its first remote work: an acquire after the fetch (b, err
// := fetch(ctx, id); sem.Acquire(ctx, 1); write(b)) limits only what
// follows it, not the calls to the dependency.
func (s *state) acquiresFirst(body *ast.BlockStmt) bool {
	acquire, remote := token.NoPos, token.NoPos
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			fn, _ := s.flow.Callee(n)
			if fn != nil && s.table.Acquires[analysisutil.Key(fn)] {
				if !acquire.IsValid() {
					acquire = n.Pos()
				}
				return true
			}
			if oc := s.deps.Res.ByCall[n]; oc != nil && s.evidence(oc) || fn != nil && s.fact(fn) != nil {
				if !remote.IsValid() {
					remote = n.Pos()
				}
			}
		}
		return true
	})
	return acquire.IsValid() && (!remote.IsValid() || acquire < remote)
}

// releasedIn reports whether statements give a slot back outside any
// function literal or defer (sem.Acquire(ctx, 1); sem.Release(1); go ...:
// the slot is free again before the goroutine starts).
func (s *state) releasedIn(stmts []ast.Stmt) bool {
	found := false
	for _, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit, *ast.DeferStmt:
				return false
			case *ast.CallExpr:
				if fn, _ := s.flow.Callee(n); fn != nil && s.table.Releases[analysisutil.Key(fn)] {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// beforeLaunch returns the statements of the innermost loop's iteration
// that run before the launch: the earlier statements of every block from
