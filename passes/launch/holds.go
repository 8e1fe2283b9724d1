package launch

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/resilint/resilint/internal/analysisutil"
)

// LimitFact is exported for a function that takes a limit shared by its
// callers and returns still holding it (Holds: a rate limiter's wait, a
// token taken from a channel its receiver holds, a semaphore given back
// elsewhere), or that runs some of its function parameters under such a
// limit (Runs, the parameters' indexes, under Limit): a pacer's
// Call(func() error), a client's throttle before its request.
type LimitFact struct {
	Holds string
	Runs  []int
	Limit string
}

func (*LimitFact) AFact() {}

func (f *LimitFact) String() string {
	var parts []string
	if f.Holds != "" {
		parts = append(parts, "holds "+f.Holds)
	}
	if len(f.Runs) > 0 {
		rs := make([]string, len(f.Runs))
		for i, r := range f.Runs {
			rs[i] = "param" + strconv.Itoa(r)
		}
		parts = append(parts, "runs "+strings.Join(rs, ",")+" under "+f.Limit)
	}
	return strings.Join(parts, "; ")
}

// limitFact returns the LimitFact of fn: computed for this package's
// functions, imported for others; nil when it has none.
func (s *state) limitFact(fn *types.Func) *LimitFact {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if fn.Pkg() != s.pass.Pkg {
		f := new(LimitFact)
		if fn.Pkg() != nil && s.pass.ImportObjectFact(fn, f) {
			return f
		}
		return nil
	}
	if f, ok := s.limitMemo[fn]; ok {
		return f
	}
	s.limitMemo[fn] = nil // a recursive call: none
	var f *LimitFact
	if decl := s.decl(fn); decl != nil && decl.Body != nil && s.mayLimit(decl) {
		f = s.computeLimit(decl)
	}
	s.limitMemo[fn] = f
	return f
}

// mayLimit reports whether a function can take a limit or run a function
// parameter under one: it takes one itself (a row of Acquires, a token
// received from a channel), calls a function that holds one, or has
// function parameters and calls a function that runs its own under one. A
// cheap test, without the variable index, before computeLimit.
func (s *state) mayLimit(decl *ast.FuncDecl) bool {
	hasFuncs := len(s.funcParams(decl)) > 0
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ExprStmt:
			if u, ok := ast.Unparen(n.X).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				found = true
			}
		case *ast.CallExpr:
			fn, _ := analysisutil.Callee(s.info, n, nil)
			if fn == nil {
				break
			}
			if s.table.Acquires[analysisutil.Key(fn)] {
				found = true
			} else if lf := s.limitFact(fn); lf != nil && (lf.Holds != "" || hasFuncs && len(lf.Runs) > 0) {
				found = true
			}
		}
		return !found
	})
	return found
}

func (s *state) computeLimit(decl *ast.FuncDecl) *LimitFact {
	acqs := s.acquisitions(decl.Body, decl)
	f := &LimitFact{}
	// A limit taken and not given back at this function's own level (a
	// defer, a later statement) is held on return.
	// A function that reaches remote work itself is a client, not a
	// throttle: its callers get its work's limits through its WorkFact.
	for _, a := range acqs {
		if a.fn != nil {
			continue // in a function literal (nil: the body's own function)
		}
		if !s.givenBack(a, decl.Body) {
			if fn, ok := s.info.Defs[decl.Name].(*types.Func); ok && s.fact(fn) == nil {
				f.Holds = a.text
			}
			break
		}
	}
	// Function parameters called, or handed on, under a limit.
	params := map[*types.Var]int{}
	for v, idx := range s.funcParams(decl) {
		params[v] = idx
	}
	if len(params) > 0 {
		walk(decl.Body, func(n ast.Node, stack []ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			lim := s.limitAt(acqs, call, stack)
			if lim != "" {
				if idx, ok := params[s.paramVar(call.Fun)]; ok {
					f.add(idx, lim)
				}
				for _, a := range call.Args {
					if idx, ok := params[s.paramVar(a)]; ok {
						f.add(idx, lim)
					}
				}
				return
			}
			fn, _ := s.flow.Callee(call)
			if inner := s.limitFact(fn); inner != nil {
				for _, j := range inner.Runs {
					if j < len(call.Args) {
						if idx, ok := params[s.paramVar(call.Args[j])]; ok {
							f.add(idx, inner.Limit)
						}
					}
				}
			}
		})
	}
	if f.Holds == "" && len(f.Runs) == 0 {
		return nil
	}
	slices.Sort(f.Runs)
	return f
}

func (f *LimitFact) add(idx int, limit string) {
	if !slices.Contains(f.Runs, idx) {
		f.Runs = append(f.Runs, idx)
	}
	if f.Limit == "" {
		f.Limit = limit
	}
}

// givenBack reports whether a limit taken in body is given back by a
// statement of the same function: a release, a deferred one.
func (s *state) givenBack(a acq, body *ast.BlockStmt) bool {
	if a.key == "" {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			if s.releases(a, &ast.ExprStmt{X: n.Call}) {
				found = true
			}
			if lit, ok := n.Call.Fun.(*ast.FuncLit); ok {
				for _, st := range lit.Body.List {
					if s.releases(a, st) {
						found = true
					}
				}
			}
			return false
		case ast.Stmt:
			if s.releases(a, n) {
				found = true
			}
		}
		return !found
	})
	return found
}

// funcParams returns the parameters of function type of decl, by index.
func (s *state) funcParams(decl *ast.FuncDecl) map[*types.Var]int {
	out := map[*types.Var]int{}
	i := 0
	for _, f := range decl.Type.Params.List {
		for _, name := range f.Names {
			if v, ok := s.info.Defs[name].(*types.Var); ok {
				if _, isFunc := v.Type().Underlying().(*types.Signature); isFunc {
					out[v] = i
				}
			}
			i++
		}
		if len(f.Names) == 0 {
			i++
		}
	}
	return out
}

// paramVar returns the variable e names, when it is a plain identifier.
func (s *state) paramVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := s.info.Uses[id].(*types.Var)
	return v
}

// runLimit returns the limit under which a node runs because a function
// literal around it (within the body being read) is handed to a function
// that runs that argument under a limit (pacer.Call(func() error {...})).
func (s *state) runLimit(stack []ast.Node) string {
	for i := len(stack) - 2; i > 0; i-- {
		lit, ok := stack[i].(*ast.FuncLit)
		if !ok {
			continue
		}
		call, ok := stack[i-1].(*ast.CallExpr)
		if !ok {
			continue
		}
		fn, _ := s.flow.Callee(call)
		if fn != nil {
			if _, launcher := s.table.Launchers[analysisutil.Key(fn)]; launcher {
				// A group's Go runs the literal in a goroutine of its own,
				// under the group's limit if it has one (its own launch
				// record says): one per goroutine of the enclosing launch,
				// never a limit shared by all of them.
				continue
			}
		}
		lf := s.limitFact(fn)
		if lf == nil {
			continue
		}
		for _, j := range lf.Runs {
			if j < len(call.Args) && call.Args[j] == ast.Expr(lit) {
				return lf.Limit
			}
		}
	}
	return ""
}

// decl returns the declaration of a function of this package, without the
// variable index (which the first reader builds).
func (s *state) decl(fn *types.Func) *ast.FuncDecl {
	if s.decls == nil {
		s.decls = map[*types.Func]*ast.FuncDecl{}
		for _, file := range s.pass.Files {
			for _, d := range file.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if f, ok := s.info.Defs[fd.Name].(*types.Func); ok {
						s.decls[f] = fd
					}
				}
			}
		}
	}
	return s.decls[fn]
}

// exportLimits exports the LimitFacts and ValidFacts of the package's
// functions.
func (s *state) exportLimits() {
	for _, file := range s.pass.Files {
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fn, ok := s.info.Defs[fd.Name].(*types.Func); ok {
				if f := s.limitFact(fn); f != nil {
					s.pass.ExportObjectFact(fn, f)
				}
				if caps := s.validCaps(fn); len(caps) > 0 {
					s.pass.ExportObjectFact(fn, &ValidFact{Caps: caps})
				}
			}
		}
	}
}
