package detachedctx

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
)

// Helpers that run only once the caller's context is done (issue 13, rule
// 6). A fresh context written inline after <-ctx.Done() is deliberate
// (afterDone, deliberate); so it is in a function of the package whose
// every call is in such a place, or in another such function: its caller
// has no budget left to give it. Only functions whose callers are all in
// sight count: unexported, never used as a value, and, for a method, no
// interface of the package has a method of its name.

// site is one call of a function of the package.
type site struct {
	in *types.Func // the declared function the call is in (nil: none)
	ok bool        // the call is after the caller's context is done, or deliberate
}

// afterDoneFuncs returns the package's functions that run only once their
// caller's context is done.
func (c *checker) afterDoneFuncs(ins *inspector.Inspector) map[*types.Func]bool {
	info := c.pass.TypesInfo
	sites := map[*types.Func][]site{}
	called := map[*ast.Ident]bool{}
	anyOK := false
	ins.WithStack([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		call := n.(*ast.CallExpr)
		var id *ast.Ident
		switch f := ast.Unparen(call.Fun).(type) {
		case *ast.Ident:
			id = f
		case *ast.SelectorExpr:
			id = f.Sel
		}
		fn, _ := info.Uses[id].(*types.Func)
		if id == nil || fn == nil || fn.Pkg() != c.pass.Pkg || fn.Exported() {
			return true
		}
		called[id] = true
		var encl ast.Node
		var in *types.Func
		for i := len(stack) - 1; i >= 0; i-- {
			switch d := stack[i].(type) {
			case *ast.FuncLit:
				if encl == nil {
					encl = d
				}
				continue
			case *ast.FuncDecl:
				if encl == nil {
					encl = d
				}
				in, _ = info.Defs[d.Name].(*types.Func)
			default:
				continue
			}
			break
		}
		fn = fn.Origin()
		s := site{in: in, ok: c.afterDone(stack) || encl != nil && c.deliberate(stack, encl)}
		anyOK = anyOK || s.ok
		sites[fn] = append(sites[fn], s)
		return true
	})
	if !anyOK {
		return nil // no call after done: no such helper (most packages)
	}
	// Uses other than calls: the function's callers are out of sight.
	escaped := map[*types.Func]bool{}
	for id, obj := range info.Uses {
		if fn, ok := obj.(*types.Func); ok && !called[id] {
			escaped[fn.Origin()] = true
		}
	}
	ifaceMethods := c.interfaceMethodNames()
	only := map[*types.Func]bool{}
	for changed := true; changed; {
		changed = false
		for fn, list := range sites {
			if only[fn] || escaped[fn] {
				continue
			}
			if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && ifaceMethods[fn.Name()] {
				continue
			}
			all := true
			for _, s := range list {
				if !s.ok && (s.in == nil || !only[s.in.Origin()]) {
					all = false
					break
				}
			}
			if all {
				only[fn] = true
				changed = true
			}
		}
	}
	return only
}

// interfaceMethodNames returns the names of the methods of the interface
// types the package declares or spells.
func (c *checker) interfaceMethodNames() map[string]bool {
	names := map[string]bool{}
	add := func(t types.Type) {
		if it, ok := t.Underlying().(*types.Interface); ok {
			for m := range it.Methods() {
				names[m.Name()] = true
			}
		}
	}
	for _, obj := range c.pass.TypesInfo.Defs {
		if tn, ok := obj.(*types.TypeName); ok {
			add(tn.Type())
		}
	}
	for _, tv := range c.pass.TypesInfo.Types {
		if tv.IsType() {
			add(tv.Type) // an interface literal spelled in the package
		}
	}
	return names
}
