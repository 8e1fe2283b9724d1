package ctxflow

import (
	"go/ast"
	"go/types"
)

// LaterFact is exported for a function that keeps one of its function
// parameters to run after it has returned: it stores it (in a field, a
// map, a slice, a package-level variable, or sends it on a channel: a
// registered callback), runs it in a goroutine it starts (go f()), or hands
// it on to a function that does. Code in a literal passed there runs when
// the caller's context may be long gone.
type LaterFact struct {
	Params []int
}

func (*LaterFact) AFact() {}

func (f *LaterFact) String() string {
	s := "runs later"
	for _, p := range f.Params {
		s += " #" + itoa(p)
	}
	return s
}

// RunsLater reports whether fn keeps its parameter i, a function, to run
// after it has returned (LaterFact).
func (m *Model) RunsLater(fn *types.Func, i int) bool {
	f := m.laterFact(fn)
	if f == nil {
		return false
	}
	for _, p := range f.Params {
		if p == i {
			return true
		}
	}
	return false
}

// exportLaterFacts runs for relevant packages and for the user's own code
// whatever it imports: the function that registers a callback is often in
// a package that knows nothing of contexts or clients.
func (m *Model) exportLaterFacts() {
	for _, file := range m.Pass.Files {
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !funcParams(fd) {
				continue
			}
			if fn, ok := m.info.Defs[fd.Name].(*types.Func); ok {
				if f := m.laterFact(fn); f != nil {
					m.Pass.ExportObjectFact(fn, f)
				}
			}
		}
	}
}

func funcParams(fd *ast.FuncDecl) bool {
	for _, f := range fd.Type.Params.List {
		if _, ok := f.Type.(*ast.FuncType); ok {
			return true
		}
		if _, ok := f.Type.(*ast.Ident); ok {
			return true // a named function type, perhaps
		}
		if _, ok := f.Type.(*ast.SelectorExpr); ok {
			return true
		}
	}
	return false
}

func (m *Model) laterFact(fn *types.Func) *LaterFact {
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return nil
	}
	if fn.Pkg() != m.Pass.Pkg {
		f := new(LaterFact)
		if m.Pass.ImportObjectFact(fn, f) {
			return f
		}
		return nil
	}
	m.laterMu.Lock()
	defer m.laterMu.Unlock()
	return m.laterLocked(fn)
}

func (m *Model) laterLocked(fn *types.Func) *LaterFact {
	if f, ok := m.laterMemo[fn]; ok {
		return f
	}
	if m.laterBusy[fn] {
		return nil
	}
	m.laterBusy[fn] = true
	f := m.computeLater(fn)
	delete(m.laterBusy, fn)
	m.laterMemo[fn] = f
	return f
}

func (m *Model) computeLater(fn *types.Func) *LaterFact {
	decl := m.Decl(fn)
	if decl == nil || decl.Body == nil {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	var out []int
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		if _, ok := p.Type().Underlying().(*types.Signature); !ok {
			continue
		}
		if stores(m.info, decl.Body, p) || m.spawns(decl.Body, p) {
			out = append(out, i)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return &LaterFact{Params: out}
}

// spawns reports whether body runs v in a goroutine (go v(), or a go
// statement whose function literal calls v) or hands v to a function that
// keeps it to run later.
func (m *Model) spawns(body *ast.BlockStmt, v *types.Var) bool {
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && m.info.Uses[id] == v
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.GoStmt:
			if is(n.Call.Fun) {
				found = true
				return false
			}
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
				ast.Inspect(lit.Body, func(x ast.Node) bool {
					if c, ok := x.(*ast.CallExpr); ok && is(c.Fun) {
						found = true
					}
					return !found
				})
			}
		case *ast.CallExpr:
			for j, a := range n.Args {
				if !is(a) {
					continue
				}
				callee, _ := m.Callee(n)
				if callee == nil || callee.Pkg() == nil {
					continue
				}
				var f *LaterFact
				if callee.Origin().Pkg() == m.Pass.Pkg {
					f = m.laterLocked(callee.Origin())
				} else {
					f = m.laterFact(callee)
				}
				if f != nil {
					for _, p := range f.Params {
						if p == j {
							found = true
						}
					}
				}
			}
		}
		return !found
	})
	return found
}

// stores reports whether body keeps v beyond the call: assigns it (or a
// value appended with it) to something other than a local variable, or
// sends it on a channel.
func stores(info *types.Info, body *ast.BlockStmt, v *types.Var) bool {
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == v
	}
	holds := func(e ast.Expr) bool {
		if is(e) {
			return true
		}
		if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
				if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "append" {
					for _, a := range call.Args[1:] {
						if is(a) {
							return true
						}
					}
				}
			}
		}
		if lit, ok := ast.Unparen(e).(*ast.CompositeLit); ok {
			for _, el := range lit.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					el = kv.Value
				}
				if is(el) {
					return true
				}
			}
		}
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, r := range n.Rhs {
				if i >= len(n.Lhs) || !holds(r) {
					continue
				}
				if id, ok := ast.Unparen(n.Lhs[i]).(*ast.Ident); ok {
					if lv, ok := info.ObjectOf(id).(*types.Var); ok && lv.Parent() != nil && lv.Parent() != lv.Pkg().Scope() {
						continue // a local variable
					}
				}
				found = true
			}
		case *ast.SendStmt:
			if holds(n.Value) {
				found = true
			}
		}
		return !found
	})
	return found
}
