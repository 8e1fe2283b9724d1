package launch

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// beforeLaunch returns the statements of the innermost loop's iteration
// that run before the launch: the earlier statements of every block from
// the loop body down to the launch.
func (s *state) beforeLaunch(l *Launch) []ast.Stmt {
	return s.around(l, true)
}

func (s *state) around(l *Launch, before bool) []ast.Stmt {
	return s.aroundIn(l, l.Loops[0], before)
}

// aroundIn returns the statements of an iteration of inner that run before
// (or after) the launch.
func (s *state) aroundIn(l *Launch, inner ast.Stmt, before bool) []ast.Stmt {
	var out []ast.Stmt
	for i := len(l.Stack) - 1; i > 0; i-- {
		if l.Stack[i] == ast.Node(inner) {
			break
		}
		var list []ast.Stmt
		switch b := l.Stack[i-1].(type) {
		case *ast.BlockStmt:
			list = b.List
		case *ast.CaseClause:
			list = b.Body
		case *ast.CommClause:
			list = b.Body
		default:
			continue
		}
		seen := false
		for _, st := range list {
			if st == l.Stack[i] {
				seen = true
				continue
			}
			if seen != before {
				out = append(out, st)
			}
		}
		// A select case's communication happens before its body:
		// case pool <- struct{}{}: go work() acquires a slot first.
		if cc, ok := l.Stack[i-1].(*ast.CommClause); ok && before && cc.Comm != nil && seen {
			out = append(out, cc.Comm)
		}
	}
	return out
}

// waitedIn reports whether the goroutine is waited for in the iteration of
// loop that started it: a Wait call, or a receive from a channel the goroutine sends
// on or closes, after the launch.
func (s *state) waitedIn(l *Launch, body *ast.BlockStmt, loop ast.Stmt) bool {
	after := s.aroundIn(l, loop, false)
	signals := map[*types.Var]int{}
	// A channel handed to the goroutine is how it reports back (go fn(errc, i)).
	for _, a := range l.Args {
		if v := chanVar(s.info, a); v != nil {
			if ch, ok := v.Type().Underlying().(*types.Chan); ok && ch.Dir() != types.RecvOnly {
				signals[v] |= opSend
			}
		}
	}
	if body != nil {
		for v, op := range chanOps(s.info, body) {
			signals[v] |= op
		}
		ast.Inspect(body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if analysisutil.BuiltinCall(s.info, call, "close") != nil && len(call.Args) == 1 {
					if v := chanVar(s.info, call.Args[0]); v != nil {
						signals[v] |= opSend
					}
				}
			}
			return true
		})
	}
	for _, st := range after {
		found := false
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if fn, _ := s.flow.Callee(n); fn != nil && s.table.Waits[analysisutil.Key(fn)] {
					found = true
				}
			case *ast.UnaryExpr:
				if n.Op == token.ARROW {
					if v := chanVar(s.info, n.X); v != nil && signals[v]&opSend != 0 {
						found = true
					}
				}
			case *ast.RangeStmt:
				if v := chanVar(s.info, n.X); v != nil && signals[v]&opSend != 0 {
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
