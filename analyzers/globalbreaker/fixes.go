package globalbreaker

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/deps"
)

// perDependencyFix replaces the shared breaker at a guarded call with the
// runtime package's per-dependency breaker: cb.Execute(f) →
// resil.BreakerFor("name").Execute(f). Only for calls whose method has the
// shape of the runtime breaker's, whose operation reaches one dependency
// with a name.
func (c *checker) perDependencyFix(g *guarded, name string) []analysis.SuggestedFix {
	if !g.direct || g.guard.Resil == "" || g.site.recv == nil || name == "" || g.ref.ctor != nil {
		return nil
	}
	if !oneDependency(c.m, g.sites) {
		return nil
	}
	rt := c.table.Runtime
	file := analysisutil.FileOf(c.pass, g.site.call.Pos())
	if file == nil {
		return nil
	}
	// Only where the module resolves resil and its resil has the
	// function (the finding's advice names it anyway).
	if !analysisutil.Declares(c.pass, rt.Path, rt.Func) {
		return nil
	}
	pkg, imports, ok := analysisutil.PackageName(c.pass, file, g.site.call.Pos(), rt.Path, rt.Name)
	if !ok {
		return nil
	}
	recv := g.site.recv
	if !c.registryDefaults(recv) {
		return nil
	}
	if !c.usedElsewhere(file, recv) {
		return nil
	}
	newRecv := pkg + "." + rt.Func + "(" + strconv.Quote(name) + ")"
	edits := append([]analysis.TextEdit{{Pos: recv.Pos(), End: recv.End(), NewText: []byte(newRecv)}}, imports...)
	return []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("Use the per-dependency breaker %s", newRecv),
		TextEdits: edits,
	}}
}

// registryDefaults reports whether every value the receiver can hold is
// the runtime registry's breaker with default settings, rt.Func("name")
// with no options. Only then is the replacement the same breaker under
// another name: a breaker of another library (gobreaker's ReadyToTrip,
// Timeout, OnStateChange, its ErrOpenState that callers test for) or one
// given options would lose its settings and its errors, which is more than
// the per-dependency split the finding asks for.
func (c *checker) registryDefaults(recv ast.Expr) bool {
	srcs, ok := c.flow.Sources(recv)
	if !ok || len(srcs) == 0 {
		return false
	}
	rt := c.table.Runtime
	for _, src := range srcs {
		call, ok := ast.Unparen(src).(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
			return false
		}
		fn, _ := c.flow.Callee(call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != rt.Path || fn.Name() != rt.Func {
			return false
		}
		if c.configuredElsewhere(call.Args[0]) {
			return false
		}
	}
	return true
}

// configuredElsewhere reports whether another call of the registry in the
// package may give the breaker named name its options (the first caller's
// options win): rt.Func(name, opts...) with the same constant name, or
// with options and a name that is not a constant. Splitting the breaker
// into per-dependency ones would drop those settings (a fallback, a
// threshold).
func (c *checker) configuredElsewhere(name ast.Expr) bool {
	tv, ok := c.pass.TypesInfo.Types[name]
	if !ok || tv.Value == nil {
		return true
	}
	rt := c.table.Runtime
	found := false
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || found || len(call.Args) < 2 && !call.Ellipsis.IsValid() {
				return !found
			}
			fn, _ := c.flow.Callee(call)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != rt.Path || fn.Name() != rt.Func {
				return true
			}
			other, ok := c.pass.TypesInfo.Types[call.Args[0]]
			if !ok || other.Value == nil || constant.Compare(other.Value, token.EQL, tv.Value) {
				found = true
			}
			return !found
		})
	}
	return found
}

// oneDependency reports whether every known dependency of an operation is
// the same one.
func oneDependency(m *deps.Model, sites []deps.Site) bool {
	var first *deps.Site
	for i := range sites {
		if !sites[i].Known() {
			continue
		}
		if first == nil {
			first = &sites[i]
			continue
		}
		if m.Name(*first) != m.Name(sites[i]) || m.Different(*first, sites[i]) {
			return false
		}
	}
	return first != nil
}

// usedElsewhere reports whether the variables and imports the receiver
// expression refers to stay used once it is replaced: a local variable has
// another use, an import another use outside the receivers of guarded
// calls (which other fixes may replace too). Else the fix would leave
// "declared and not used" or an unused import.
func (c *checker) usedElsewhere(file *ast.File, recv ast.Expr) bool {
	info := c.pass.TypesInfo
	var objs []types.Object
	ast.Inspect(recv, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		switch obj := info.Uses[id].(type) {
		case *types.PkgName:
			objs = append(objs, obj)
		case *types.Var:
			if !obj.IsField() && obj.Parent() != c.pass.Pkg.Scope() {
				objs = append(objs, obj)
			}
		}
		return true
	})
	// Receivers of guarded calls in the file.
	var receivers []ast.Expr
	ast.Inspect(file, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fn, r := analysisutil.Callee(info, call, nil); fn != nil && r != nil {
				if _, guarded := c.table.Guards[analysisutil.Key(fn)]; guarded {
					receivers = append(receivers, r)
				}
			}
		}
		return true
	})
	inReceiver := func(id *ast.Ident, all bool) bool {
		if !all {
			return recv.Pos() <= id.Pos() && id.End() <= recv.End()
		}
		for _, r := range receivers {
			if r.Pos() <= id.Pos() && id.End() <= r.End() {
				return true
			}
		}
		return false
	}
	for _, obj := range objs {
		_, isPkg := obj.(*types.PkgName)
		found := false
		ast.Inspect(file, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && info.Uses[id] == obj && !inReceiver(id, isPkg) {
				found = true
			}
			return !found
		})
		if !found {
			return false
		}
	}
	return true
}
