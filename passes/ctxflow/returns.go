package ctxflow

import (
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// ShapeFact is exported for an exported function whose string result has
// known shapes that do not depend on its arguments (an address the package
// chose: srv.Addr() returning its own listener's ln.Addr().String()).
type ShapeFact struct {
	Shapes []Shape
}

func (*ShapeFact) AFact() {}

func (f *ShapeFact) String() string {
	s := "shapes"
	for _, sh := range f.Shapes {
		s += " " + sh.Prefix
		if !sh.Whole {
			s += "…"
		}
	}
	return s
}

// returnShapes returns the shapes of the string a call of fn gives: for a
// function of this package, the shapes of what every return gives (its
// parameters read through its callers' arguments, as Shapes reads them);
// for another package's, its ShapeFact. Interface methods and function
// values are out of sight.
func (m *Model) returnShapes(fn *types.Func, seen map[*types.Var]bool, depth int) ([]Shape, bool) {
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return nil, false
	}
	if fn.Pkg() != m.Pass.Pkg {
		f := new(ShapeFact)
		if m.Pass.ImportObjectFact(fn, f) {
			return f.Shapes, true
		}
		return nil, false
	}
	d := m.decls[fn]
	sig := fn.Type().(*types.Signature)
	if d == nil || d.Body == nil || sig.Results().Len() == 0 {
		return nil, false
	}
	res := sig.Results().At(0)
	if b, ok := res.Type().(*types.Basic); !ok || b.Info()&types.IsString == 0 || seen[res] {
		return nil, false // not a string, or a recursive call
	}
	results, ok := analysisutil.FirstResults(m.info, d.Body)
	if !ok || len(results) == 0 {
		return nil, false
	}
	seen[res] = true // the walk is in fn: its result var marks it busy
	defer delete(seen, res)
	var out []Shape
	for _, r := range results {
		s, ok := m.shapes(r, seen, depth+1)
		if !ok {
			return nil, false
		}
		out = append(out, s...)
	}
	if len(out) == 0 || len(out) > maxShapes {
		return nil, false
	}
	return out, true
}

// exportShapeFacts exports the ShapeFacts of the package's functions that
// return a string.
func (m *Model) exportShapeFacts() {
	for fn := range m.decls {
		if sig := fn.Type().(*types.Signature); sig.Results().Len() > 0 {
			m.exportShapeFact(fn)
		}
	}
}

// exportShapeFact exports the ShapeFact of an exported function whose
// every result shape begins with something known.
func (m *Model) exportShapeFact(fn *types.Func) {
	if !fn.Exported() {
		return
	}
	shapes, ok := m.returnShapes(fn, map[*types.Var]bool{}, 0)
	if !ok {
		return
	}
	for _, s := range shapes {
		if s.Prefix == "" {
			return
		}
	}
	m.Pass.ExportObjectFact(fn, &ShapeFact{Shapes: shapes})
}
