package launch

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/loops"
)

// Issue 13, rule 5: a collection validated before the loop is of small
// size. The length check that rejects large input may be done by a
// validating function or method called before the loop (if err :=
// validate(req); err != nil { return err }), or by a constructor or an
// Init method that validates the field the loop ranges over.

// A validCap says that a function fails — returns a non-nil error, false,
// or for a function that answers whether its input is too large, true
// (Kind) — when the length of one of its parameters (Param; -1 the
// receiver), or of a chain of fields on it (Fields), exceeds N.
type validCap struct {
	Param  int
	Fields []string
	N      int64
	Kind   failKind
}

// failKind says how a function reports a failure.
type failKind uint8

const (
	failErr   failKind = iota // a non-nil error, its last result
	failFalse                 // false, its only result (ok(ids))
	failTrue                  // true, its only result (tooMany(ids))
)

// validCaps returns the caps a function checks before it can succeed:
// guards (if len(p.IDs) > 10 { return errTooMany }, also as the cases of a
// switch) among its first statements, before anything that may return
// success, and the caps of validators it calls the same way or returns the
// result of. Those of another package come from its ValidFact.
func (s *state) validCaps(fn *types.Func) []validCap {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if fn.Pkg() != s.pass.Pkg {
		f := new(ValidFact)
		if fn.Pkg() != nil && s.pass.ImportObjectFact(fn, f) {
			return f.Caps
		}
		return nil
	}
	if s.valid == nil {
		s.valid = map[*types.Func][]validCap{}
	}
	if caps, ok := s.valid[fn]; ok {
		return caps
	}
	s.valid[fn] = nil // recursion
	fd := s.decl(fn)
	if fd == nil || fd.Body == nil {
		return nil
	}
	res := fn.Signature().Results()
	var caps []validCap
	switch {
	case res.Len() > 0 && isError(res.At(res.Len()-1).Type()):
		caps = s.guardCaps(fn, fd, failErr)
	case res.Len() == 1 && isBool(res.At(0).Type()):
		caps = append(s.guardCaps(fn, fd, failFalse), s.guardCaps(fn, fd, failTrue)...)
	}
	s.valid[fn] = caps
	return caps
}

// guardCaps returns the caps fd checks, failing as kind says.
func (s *state) guardCaps(fn *types.Func, fd *ast.FuncDecl, kind failKind) []validCap {
	sig := fn.Signature()
	res := sig.Results()
	param := func(v *types.Var) (int, bool) {
		if sig.Recv() != nil && sig.Recv() == v {
			return -1, true
		}
		for i := range sig.Params().Len() {
			if sig.Params().At(i) == v {
				return i, true
			}
		}
		return 0, false
	}
	// add turns a path on a parameter into a cap.
	add := func(caps []validCap, p varPath, extra []string, n int64) []validCap {
		i, ok := param(p.root)
		if !ok {
			return caps
		}
		return append(caps, validCap{Param: i, Fields: append(p.names(), extra...), N: n, Kind: kind})
	}
	fails := func(b *ast.BlockStmt) bool { return failing(s.info, b, kind) }
	var caps []validCap
	list := fd.Body.List
	for j, st := range list {
		if ifs, ok := st.(*ast.IfStmt); ok && ifs.Else == nil && fails(ifs.Body) {
			for _, d := range disjuncts(ifs.Cond) {
				if p, n, ok := s.lenAbove(d); ok {
					caps = add(caps, p, nil, n)
				}
			}
			if call, want := s.failCall(list, j, fails); call != nil {
				caps = s.mapCaps(caps, call, want, add)
			}
			continue
		}
		if sw, ok := st.(*ast.SwitchStmt); ok && sw.Init == nil && sw.Tag == nil {
			// switch { case len(ids) > 10: return errTooMany }: the cases
			// are tried in order, up to the first that does not fail.
			for _, c := range sw.Body.List {
				cc := c.(*ast.CaseClause)
				if cc.List == nil {
					continue // default: only when no case matched
				}
				if !fails(&ast.BlockStmt{List: cc.Body}) {
					break
				}
				for _, e := range cc.List {
					for _, d := range disjuncts(e) {
						if p, n, ok := s.lenAbove(d); ok {
							caps = add(caps, p, nil, n)
						}
					}
				}
			}
			if s.succeeds(sw, fails) {
				break
			}
			continue
		}
		if r, ok := st.(*ast.ReturnStmt); ok && len(r.Results) == res.Len() {
			// return validate(x): the callee's failure is this one's.
			last := ast.Unparen(r.Results[len(r.Results)-1])
			if call, ok := last.(*ast.CallExpr); ok {
				caps = s.mapCaps(caps, call, kind, add)
			}
			if u, ok := last.(*ast.UnaryExpr); ok && u.Op == token.NOT && kind != failErr {
				// return !tooMany(ids): false when tooMany is true.
				if call, ok := ast.Unparen(u.X).(*ast.CallExpr); ok {
					caps = s.mapCaps(caps, call, failFalse+failTrue-kind, add)
				}
			}
			switch kind {
			case failFalse:
				// return len(ids) <= 10 && ...: false when longer.
				for _, c := range conjuncts(last) {
					if p, n, ok := s.lenAbove(negate(c)); ok {
						caps = add(caps, p, nil, n)
					}
				}
			case failTrue:
				// return len(ids) > 10 || ...: true when longer.
				for _, d := range disjuncts(last) {
					if p, n, ok := s.lenAbove(d); ok {
						caps = add(caps, p, nil, n)
					}
				}
			}
			break
		}
		if analysisutil.Returns(st) {
			break
		}
	}
	return caps
}

// succeeds reports whether a case of a switch may return without failing.
func (s *state) succeeds(sw *ast.SwitchStmt, fails func(*ast.BlockStmt) bool) bool {
	for _, c := range sw.Body.List {
		cc := c.(*ast.CaseClause)
		b := &ast.BlockStmt{List: cc.Body}
		if !fails(b) && analysisutil.Returns(b) {
			return true
		}
	}
	return false
}

// ValidFact is exported for a function that fails (a non-nil error, a
// false or a true answer) when the length of one of its parameters, or of
// a field of one, exceeds a constant: a validator other packages call
// before their loops.
type ValidFact struct {
	Caps []validCap
}

func (*ValidFact) AFact() {}

func (f *ValidFact) String() string {
	var parts []string
	for _, c := range f.Caps {
		on := "param" + strconv.Itoa(c.Param)
		if c.Param < 0 {
			on = "recv"
		}
		for _, name := range c.Fields {
			on += "." + name
		}
		fail := [...]string{"error", "false", "true"}[c.Kind]
		parts = append(parts, fmt.Sprintf("len(%s) > %d: %s", on, c.N, fail))
	}
	return "valid " + strings.Join(parts, ", ")
}

// mapCaps adds the caps of the validator a call runs, read on the call's
// arguments: those it fails on as kind says.
func (s *state) mapCaps(caps []validCap, call *ast.CallExpr, kind failKind, add func([]validCap, varPath, []string, int64) []validCap) []validCap {
	for _, c := range s.callCaps(call, kind) {
		caps = add(caps, c.path, c.extra, c.n)
	}
	return caps
}

type argCap struct {
	path  varPath
	extra []string
	n     int64
}

// callCaps returns, for a call of a validator, the argument paths whose
// length it checks, failing as kind says.
func (s *state) callCaps(call *ast.CallExpr, kind failKind) []argCap {
	fn, _ := analysisutil.Callee(s.info, call, nil)
	var out []argCap
	for _, c := range s.validCaps(fn) {
		if c.Kind != kind {
			continue
		}
		var arg ast.Expr
		switch {
		case c.Param < 0:
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || s.info.Selections[sel] == nil {
				continue
			}
			arg = sel.X
		case c.Param < len(call.Args):
			arg = call.Args[c.Param]
		default:
			continue
		}
		if u, ok := ast.Unparen(arg).(*ast.UnaryExpr); ok && u.Op == token.AND {
			arg = u.X
		}
		if p, ok := pathOf(s.info, arg); ok {
			out = append(out, argCap{path: p, extra: c.Fields, n: c.N})
		}
	}
	return out
}

// failCall returns the validator call whose failure the statement list[j]
// handles with a block that leaves, and how that call fails there: if err
// := V(x); err != nil { ... }, if V(x) != nil { ... }, if !V(x) { ... },
// if V(x) == false { ... }, if tooMany(x) { ... }, or err := V(x)
// followed by if err != nil { ... }.
func (s *state) failCall(list []ast.Stmt, j int, leave func(*ast.BlockStmt) bool) (*ast.CallExpr, failKind) {
	ifs, ok := list[j].(*ast.IfStmt)
	if !ok || ifs.Else != nil || !leave(ifs.Body) {
		return nil, 0
	}
	// The value tested: a call, or a variable assigned a call in the
	// if's init or the statement before.
	tested, kind := s.testedValue(ifs.Cond)
	if tested == nil {
		return nil, 0
	}
	if call, ok := tested.(*ast.CallExpr); ok {
		return call, kind
	}
	id, ok := tested.(*ast.Ident)
	if !ok {
		return nil, 0
	}
	assigned := func(st ast.Stmt) *ast.CallExpr {
		as, ok := st.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return nil
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok {
			return nil
		}
		last, ok := as.Lhs[len(as.Lhs)-1].(*ast.Ident)
		if !ok || s.info.ObjectOf(last) != s.info.ObjectOf(id) {
			return nil
		}
		return call
	}
	var call *ast.CallExpr
	if ifs.Init != nil {
		call = assigned(ifs.Init)
	} else if j > 0 {
		call = assigned(list[j-1])
	}
	if call == nil {
		return nil, 0
	}
	return call, kind
}

// testedValue reads the condition of an if whose body handles a failure:
// the value tested and how it fails (err != nil; !ok, ok == false, ok !=
// true; tooMany, tooMany == true, tooMany != false).
func (s *state) testedValue(cond ast.Expr) (ast.Expr, failKind) {
	switch c := ast.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		if c.Op != token.NEQ && c.Op != token.EQL {
			return nil, 0
		}
		if c.Op == token.NEQ && isNil(s.info, c.Y) {
			return ast.Unparen(c.X), failErr
		}
		tv, ok := s.info.Types[c.Y]
		if !ok || tv.Value == nil || !isBool(tv.Type) {
			return nil, 0
		}
		isTrue := tv.Value.String() == "true"
		if (c.Op == token.EQL) == isTrue {
			return ast.Unparen(c.X), failTrue
		}
		return ast.Unparen(c.X), failFalse
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			return ast.Unparen(c.X), failFalse
		}
	case *ast.CallExpr, *ast.Ident:
		if t := s.info.TypeOf(c); t != nil && isBool(t) {
			return c, failTrue
		}
	}
	return nil, 0
}

// validStmt reads list[j] as the handled failure of a validator that caps
// the length of v.
func (s *state) validStmt(list []ast.Stmt, j int, v varPath) (int64, bool) {
	call, kind := s.failCall(list, j, func(b *ast.BlockStmt) bool { return leaves(s.info, b) })
	if call == nil {
		return 0, false
	}
	best, found := int64(0), false
	for _, c := range s.callCaps(call, kind) {
		if c.path.root == v.root && slices.Equal(append(c.path.names(), c.extra...), v.names()) && (!found || c.n < best) {
			best, found = c.n, true
		}
	}
	return best, found
}

// fieldCap returns a constant the length of the field v ends in cannot
// exceed: a method of the field's type validates it on its receiver (an
// Init or Validate, whatever its name), or every value the package stores
// in the field (in a constructor) is capped before it is stored.
func (s *state) fieldCap(v varPath) (int64, bool) {
	if len(v.fields) == 0 {
		return 0, false
	}
	f, ok := v.fields[len(v.fields)-1].(*types.Var)
	if !ok || f.Pkg() != s.pass.Pkg {
		return 0, false
	}
	if s.fieldCaps == nil {
		s.fieldCaps = map[*types.Var]fieldCapOf{}
	}
	if c, ok := s.fieldCaps[f]; ok {
		return c.n, c.ok
	}
	s.fieldCaps[f] = fieldCapOf{}
	n, ok := s.computeFieldCap(f)
	s.fieldCaps[f] = fieldCapOf{n, ok}
	return n, ok
}

type fieldCapOf struct {
	n  int64
	ok bool
}

func (s *state) computeFieldCap(f *types.Var) (int64, bool) {
	info := s.info
	best, found := int64(0), false
	// A method validating the field on its receiver.
	for _, file := range s.pass.Files {
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil {
				continue
			}
			fn, ok := info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			recv := fn.Signature().Recv()
			for _, c := range s.validCaps(fn) {
				if c.Param != -1 || len(c.Fields) != 1 || c.Fields[0] != f.Name() {
					continue
				}
				if obj, _, _ := types.LookupFieldOrMethod(recv.Type(), true, s.pass.Pkg, f.Name()); obj == f && (!found || c.N < best) {
					best, found = c.N, true
				}
			}
		}
	}
	if found {
		return best, true
	}
	// Every store into the field capped before it.
	stores, all := 0, true
	for _, file := range s.pass.Files {
		var stack []ast.Node
		ast.Inspect(file, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			if !all {
				return false
			}
			var val ast.Expr
			switch n := n.(type) {
			case *ast.CompositeLit:
				st, ok := info.TypeOf(n).Underlying().(*types.Struct)
				if !ok || !hasField(st, f) {
					return true
				}
				for _, e := range n.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						all = false // unkeyed: positional stores
						return false
					}
					if k, ok := kv.Key.(*ast.Ident); ok && info.Uses[k] == f {
						val = kv.Value
					}
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && info.Uses[sel.Sel] == f {
						if len(n.Lhs) != len(n.Rhs) {
							all = false
							return false
						}
						val = n.Rhs[i]
					}
				}
			case *ast.UnaryExpr:
				if sel, ok := ast.Unparen(n.X).(*ast.SelectorExpr); ok && n.Op == token.AND && info.Uses[sel.Sel] == f {
					all = false
					return false
				}
			}
			if val == nil {
				return true
			}
			stores++
			m, ok := s.valueCap(stack, val)
			if !ok {
				all = false
				return false
			}
			if m > best {
				best = m
			}
			return true
		})
	}
	return best, all && stores > 0
}

// valueCap returns a constant the length of a value stored at the end of
// stack cannot exceed: nil, a literal, or a variable capped before the
// statement that stores it.
func (s *state) valueCap(stack []ast.Node, val ast.Expr) (int64, bool) {
	if isNil(s.info, val) {
		return 0, true
	}
	if n, ok := loops.LiteralLen(s.info, val); ok {
		return n, true
	}
	p, ok := pathOf(s.info, val)
	if !ok || len(p.fields) > 0 {
		return 0, false
	}
	n, ok, _ := s.capBefore(stack, len(stack)-1, p)
	return n, ok
}

func hasField(st *types.Struct, f *types.Var) bool {
	for i := range st.NumFields() {
		if st.Field(i) == f {
			return true
		}
	}
	return false
}

// names returns the field names of a path.
func (p varPath) names() []string {
	out := make([]string, len(p.fields))
	for i, f := range p.fields {
		out[i] = f.Name()
	}
	return out
}

// lenAbove reads len(p) > n, len(p) >= n+1, n < len(p).
func (s *state) lenAbove(e ast.Expr) (varPath, int64, bool) {
	if e == nil {
		return varPath{}, 0, false
	}
	be, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok {
		return varPath{}, 0, false
	}
	x, y, op := be.X, be.Y, be.Op
	switch op {
	case token.LSS:
		x, y, op = y, x, token.GTR
	case token.LEQ:
		x, y, op = y, x, token.GEQ
	}
	if !isLen(s.info, x) {
		return varPath{}, 0, false
	}
	n, ok := analysisutil.ConstInt(s.info, y)
	if !ok {
		return varPath{}, 0, false
	}
	p, ok := pathOf(s.info, ast.Unparen(x).(*ast.CallExpr).Args[0])
	if !ok {
		return varPath{}, 0, false
	}
	switch op {
	case token.GTR:
		return p, n, true
	case token.GEQ:
		return p, n - 1, true
	}
	return varPath{}, 0, false
}

// conjuncts splits a && b && c.
func conjuncts(e ast.Expr) []ast.Expr {
	if be, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && be.Op == token.LAND {
		return append(conjuncts(be.X), conjuncts(be.Y)...)
	}
	return []ast.Expr{e}
}

// negate turns len(p) <= n into len(p) > n (and < into >=), else nil.
func negate(e ast.Expr) ast.Expr {
	be, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok {
		return nil
	}
	ops := map[token.Token]token.Token{token.LEQ: token.GTR, token.LSS: token.GEQ, token.GTR: token.LEQ, token.GEQ: token.LSS}
	op, ok := ops[be.Op]
	if !ok {
		return nil
	}
	return &ast.BinaryExpr{X: be.X, Op: op, Y: be.Y}
}

// disjuncts splits a || b || c.
func disjuncts(e ast.Expr) []ast.Expr {
	if be, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && be.Op == token.LOR {
		return append(disjuncts(be.X), disjuncts(be.Y)...)
	}
	return []ast.Expr{e}
}

// failing reports whether a block ends in a failure: a panic, or a return
// whose last result is not nil (an error) or is the bool kind fails with.
func failing(info *types.Info, b *ast.BlockStmt, kind failKind) bool {
	if b == nil || len(b.List) == 0 {
		return false
	}
	switch last := b.List[len(b.List)-1].(type) {
	case *ast.ExprStmt:
		return analysisutil.BuiltinCall(info, last.X, "panic") != nil
	case *ast.ReturnStmt:
		if len(last.Results) == 0 {
			return false
		}
		r := last.Results[len(last.Results)-1]
		switch kind {
		case failFalse, failTrue:
			tv, ok := info.Types[r]
			return ok && tv.Value != nil && tv.Value.String() == strconv.FormatBool(kind == failTrue)
		}
		return !isNil(info, r)
	}
	return false
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}
