package launch

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/outbound"
)

// reach fills what the goroutines of a launch reach: the remote outbound
// work of the function they run, its values written in the enclosing
// function declaration, and whether the element determines its target.
func (s *state) reach(l *Launch) {
	owner := l.Where.Decl
	var work []Work
	known := true
	switch {
	case l.Spec == nil && s.deps.Res.ByCall[l.Call] != nil && s.evidence(s.deps.Res.ByCall[l.Call]):
		// go http.Get(u), go s.hc.Do(req): the goroutine is the call.
		oc := s.deps.Res.ByCall[l.Call]
		d := s.deps.OutboundDep(oc, owner)
		work = []Work{{Call: d.Call, Kind: d.Kind, Target: d.Target, Client: d.Client, Named: named(oc), Limit: s.connCap(oc),
			roots: s.identityRoots(oc)}}
	case s.literal(l.Fn) != nil:
		scope := ast.Node(s.literal(l.Fn))
		if len(l.Loops) > 0 {
			scope = l.Loops[len(l.Loops)-1]
		}
		work = s.works(s.literal(l.Fn).Body, owner, scope, true)
		// Work reached only where a condition on the element holds
		// (if len(doc) == 0 { alert(ctx, id) }) is not work every
		// goroutine does: no evidence of one call per element.
		kept := work[:0]
		for _, w := range work {
			if !s.perElement(l, w.guards, 0) {
				kept = append(kept, w)
			}
		}
		work = kept
	default:
		fn := s.funcOf(l.Fn)
		if fn == nil || abstract(fn) {
			known = false
			break
		}
		if s.deps.Res.Locality(l.Call).Locality == outbound.Local {
			break // go cli.ContainerStats(ctx, id): a local daemon
		}
		var recv ast.Expr
		if sel, ok := ast.Unparen(l.Fn).(*ast.SelectorExpr); ok {
			if sl, ok := s.info.Selections[sel]; ok {
				if sl.Kind() != types.MethodVal {
					known = false // a method expression: (*T).m(t, ...)
					break
				}
				recv = sel.X
			}
		}
		if f := s.fact(fn); f != nil {
			for _, w := range f.Work {
				w.Target = s.deps.Subst(w.Target, fn, recv, l.Args, owner)
				w.Client = s.deps.Subst(w.Client, fn, recv, l.Args, owner)
				w.roots = map[*types.Var]bool{}
				s.argRoots(w.On, fn, recv, l.Args, w.roots)
				w.Via = append([]string{analysisutil.Name(fn)}, w.Via...)
				if len(w.Via) > maxVia {
					w.Via = w.Via[:maxVia]
				}
				work = append(work, w)
			}
		}
	}
	switch {
	case !known:
		l.Reach = ReachUnknown
	case len(work) == 0:
		l.Reach = ReachNone
	default:
		l.Reach, l.Work = ReachRemote, work
	}
	for _, w := range work {
		if s.perElement(l, w.roots, 0) {
			l.Varies = true
		}
	}
}

// perElement reports whether roots hold a variable made per iteration of
// the launch's loops (a range or counting variable, a variable declared in
// the loop body): the element determines the dependency. A parameter of
// the launched literal stands for its argument at the go statement.
func (s *state) perElement(l *Launch, roots map[*types.Var]bool, depth int) bool {
	if len(l.Loops) == 0 || depth > 2 {
		return false
	}
	outer := l.Loops[len(l.Loops)-1]
	lit := s.literal(l.Fn)
	for v := range roots {
		if fn, idx, ok := s.flow.IsParam(v); ok && lit != nil && fn == ast.Node(lit) {
			if idx < 0 || idx >= len(l.Args) {
				return true
			}
			arg := map[*types.Var]bool{}
			s.hostRoots(l.Args[idx], arg, 0)
			if s.perElement(l, arg, depth+1) {
				return true
			}
			continue
		}
		if v.Pos() >= outer.Pos() && v.Pos() < outer.End() {
			return true
		}
	}
	return false
}

// abstract reports whether fn is an interface method: what runs is out of
// sight.
func abstract(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	return types.IsInterface(sig.Recv().Type())
}

// collectLimits records every limit on a launch's path.
func (s *state) collectLimits(l *Launch) {
	fset := s.pass.Fset
	if len(l.Loops) > 0 {
		if s.limited(l) {
			l.Limits = append(l.Limits, Limit{Kind: GroupLimit, Text: analysisutil.Format(fset, l.Group) + "." + l.Spec.Limit})
		}
		if s.semaphore(l, l.Body) {
			l.Limits = append(l.Limits, Limit{Kind: SlotLimit, Text: "a slot taken per goroutine"})
		}
		if s.acceptLoop(l.Loops) {
			l.Limits = append(l.Limits, Limit{Kind: ServerLoop, Text: "an accept loop"})
		}
	}
	// A limit on the path bounds the goroutines only when one guards every
	// remote call they reach, on every path: a call reached without one
	// (a fast path that skips the semaphore) is fan-out still.
	for _, w := range l.Work {
		if w.Limit == "" {
			return
		}
	}
	seen := map[string]bool{}
	for _, w := range l.Work {
		if !seen[w.Limit] {
			seen[w.Limit] = true
			l.Limits = append(l.Limits, Limit{Kind: PathLimit, Text: w.Limit})
		}
	}
}

// acceptLoop reports whether one of the loops accepts connections: a
// server's accept loop, out of scope.
func (s *state) acceptLoop(lps []ast.Stmt) bool {
	for _, lp := range lps {
		found := false
		ast.Inspect(lp, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit, *ast.GoStmt:
				return false
			case *ast.CallExpr:
				if fn, _ := s.flow.Callee(n); fn != nil && s.table.Accepts[analysisutil.Key(fn)] {
					found = true
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
