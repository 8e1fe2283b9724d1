package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// NoReturnFact marks a function that never returns to its caller: its body
// has no return statement and ends in a call of one that does not (os.Exit, log.Fatal, the builtin
// panic, a function with this fact), or of a package variable that holds
// one and that nothing in its package assigns again (var osExit = os.Exit,
// kept replaceable for tests). A loop leaves through a call of it (`if
// time.Now().After(deadline) { exit.Fatal("timeout") }`).
type NoReturnFact struct{}

func (*NoReturnFact) AFact() {}

func (*NoReturnFact) String() string { return "noreturn" }

// noReturnFuncs finds the package's functions that never return, exports
// their facts when export is set, and remembers them (m.noRet) and the package variables
// that hold such a function (m.noRetVars) for noReturn.
func (m *model) noReturnFuncs(export bool) {
	m.noRet = map[*types.Func]bool{}
	m.noRetVars = map[*types.Var]bool{}
	assigned := map[*types.Var]bool{}
	var inits []*ast.ValueSpec
	for _, f := range m.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if v := m.pkgVar(l); v != nil {
						assigned[v] = true
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					if v := m.pkgVar(n.X); v != nil {
						assigned[v] = true
					}
				}
			}
			return true
		})
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				for _, s := range gd.Specs {
					if vs, ok := s.(*ast.ValueSpec); ok && len(vs.Names) == len(vs.Values) {
						inits = append(inits, vs)
					}
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, vs := range inits {
			for i, name := range vs.Names {
				v, _ := m.info.Defs[name].(*types.Var)
				if v == nil || m.noRetVars[v] || assigned[v] {
					continue
				}
				if fn := m.funcValue(vs.Values[i]); fn != nil && m.noReturnFunc(fn) {
					m.noRetVars[v] = true
					changed = true
				}
			}
		}
		for _, f := range m.pass.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil || len(fd.Body.List) == 0 {
					continue
				}
				fn, _ := m.info.Defs[fd.Name].(*types.Func)
				if fn == nil || m.noRet[fn] || analysisutil.Returns(fd.Body) {
					continue
				}
				if es, ok := fd.Body.List[len(fd.Body.List)-1].(*ast.ExprStmt); ok {
					if c, ok := ast.Unparen(es.X).(*ast.CallExpr); ok && m.noReturn(c) {
						m.noRet[fn] = true
						changed = true
					}
				}
			}
		}
	}
	// Only the user's own packages export the fact: the engine analyses a
	// dependency for its importers only when it imports what the knowledge
	// table names (vetunit's fast path), and the table lists the standard
	// library's (knowledge.Table.NoReturn).
	if export {
		for fn := range m.noRet {
			m.pass.ExportObjectFact(fn, &NoReturnFact{})
		}
	}
}

// pkgVar returns the package-level variable an expression names, or nil.
func (m *model) pkgVar(e ast.Expr) *types.Var {
	v, _ := analysisutil.Referent(m.info, e).(*types.Var)
	if v == nil || v.Pkg() != m.pass.Pkg || v.Parent() != m.pass.Pkg.Scope() {
		return nil
	}
	return v
}

// noReturnFunc reports whether fn never returns: the knowledge table's, the
// package's own (noReturnFuncs), or another package's NoReturnFact.
func (m *model) noReturnFunc(fn *types.Func) bool {
	if m.table.NoReturn[analysisutil.Key(fn)] {
		return true
	}
	fn = fn.Origin()
	if fn.Pkg() == m.pass.Pkg {
		return m.noRet[fn]
	}
	return fn.Pkg() != nil && m.pass.ImportObjectFact(fn, new(NoReturnFact))
}
