package ctxflow

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// UnlimitedGroupFact is exported for a function that returns a new
// concurrency group with no limit (return errgroup.WithContext(ctx), and
// no SetLimit in its body): goroutines its callers start in it are not
// bounded by it.
type UnlimitedGroupFact struct{}

func (*UnlimitedGroupFact) AFact() {}

func (*UnlimitedGroupFact) String() string { return "unlimited group" }

// UnlimitedGroup reports whether fn, a function of another package, returns
// a new group with no limit.
func (m *Model) UnlimitedGroup(fn *types.Func) bool {
	return fn.Pkg() != m.Pass.Pkg && m.Pass.ImportObjectFact(fn.Origin(), new(UnlimitedGroupFact))
}

// returnsUnlimitedGroup reports whether a function of this package returns
// a group a known constructor makes (errgroup.WithContext), directly or
// through a variable given it once, and calls no limit in its body.
func (m *Model) returnsUnlimitedGroup(fn *types.Func) bool {
	decl := m.decls[fn.Origin()]
	if decl == nil || decl.Body == nil {
		return false
	}
	b := &m.Table.Bounds
	// Only a function returning a group type is worth reading (every
	// exported function is asked): a type whose methods start goroutines.
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Results().Len() == 0 {
		return false
	}
	if !b.GroupType(analysisutil.TypeKey(sig.Results().At(0).Type())) {
		return false
	}
	ctor := func(e ast.Expr) bool {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			v, _ := m.info.Uses[id].(*types.Var)
			if v == nil || len(m.defs[v]) != 1 || m.addrTaken[v] {
				return false
			}
			e = m.defs[v][0].rhs
		}
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		f, _ := m.Callee(call)
		if f == nil {
			return false
		}
		_, ok = b.GroupCtors[analysisutil.Key(f)]
		return ok
	}
	returns, ok := 0, true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if f, _ := m.Callee(n); f != nil {
				if _, limit := b.Limits[analysisutil.Key(f)]; limit {
					ok = false
				}
			}
		case *ast.ReturnStmt:
			returns++
			if len(n.Results) == 0 || !ctor(n.Results[0]) {
				ok = false
			}
		}
		return ok
	})
	return ok && returns > 0
}
