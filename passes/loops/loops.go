// Package loops is resilint's loop trip-count model: how many times a for
// or range loop runs its body, as far as the syntax and the types tell. It
// is a plain library (no analysis pass): analyzers call [Of] on the loops
// they care about.
package loops

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// Kind classifies a loop's trip count.
type Kind uint8

const (
	// Unknown: the loop's shape is not understood.
	Unknown Kind = iota
	// Const: the loop runs N times, a constant (for range 4, for i := 0;
	// i < 8; i++, a range over an array or a literal of N elements).
	Const
	// Count: the loop counts an index up to a bound that is not constant
	// (for i := 0; i < n; i++, for range n).
	Count
	// Elements: the loop runs once per element of a collection: a slice,
	// map, string, channel or iterator function.
	Elements
	// Forever: the loop has no condition, or a condition that is not a
	// count (for { ... }, for scanner.Scan()).
	Forever
)

func (k Kind) String() string {
	switch k {
	case Const:
		return "const"
	case Count:
		return "count"
	case Elements:
		return "elements"
	case Forever:
		return "forever"
	}
	return "unknown"
}

// Trip is what is known about a loop's trip count.
type Trip struct {
	Kind Kind
	// N is the trip count of a Const loop.
	N int64
	// Bound is the bound of a Count loop (n in i < n).
	Bound ast.Expr
	// Step is what a counting for loop adds to its index each iteration
	// (1 for i++; 50 for i += batchSize with a constant batchSize); 0 for
	// other loops.
	Step int64
	// Collection is what an Elements loop ranges over.
	Collection ast.Expr
	// Chan: the collection is a channel (one iteration per value received);
	// Func: an iterator function.
	Chan, Func bool
	// Capped: N is a cap the loop's length cannot exceed (set by clients
	// that read guards before the loop), not an exact trip count.
	Capped bool
	// Index is the counting variable of a Count or Const loop, or the key
	// variable of a range loop; Value the value variable of a range loop.
	// Either may be nil.
	Index, Value *types.Var
}

// Of returns the trip count of a *ast.ForStmt or *ast.RangeStmt.
func Of(info *types.Info, loop ast.Stmt) Trip {
	switch l := loop.(type) {
	case *ast.RangeStmt:
		return ofRange(info, l)
	case *ast.ForStmt:
		return ofFor(info, l)
	}
	return Trip{}
}

func varOf(info *types.Info, e ast.Expr) *types.Var {
	id, ok := e.(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	v, _ := info.ObjectOf(id).(*types.Var)
	return v
}

func ofRange(info *types.Info, l *ast.RangeStmt) Trip {
	t := Trip{Index: varOf(info, l.Key), Value: varOf(info, l.Value)}
	tv, ok := info.Types[l.X]
	if !ok || tv.Type == nil {
		return t
	}
	if tv.Value != nil && tv.Value.Kind() == constant.Int {
		if n, ok := constant.Int64Val(tv.Value); ok {
			t.Kind, t.N = Const, n
			return t
		}
	}
	switch u := coreType(tv.Type).(type) {
	case *types.Basic:
		if u.Info()&types.IsInteger != 0 {
			t.Kind, t.Bound = Count, l.X
			return t
		}
		if u.Info()&types.IsString != 0 {
			t.Kind, t.Collection = Elements, l.X
		}
		return t
	case *types.Array:
		t.Kind, t.N = Const, u.Len()
		return t
	case *types.Pointer:
		if a, ok := u.Elem().Underlying().(*types.Array); ok {
			t.Kind, t.N = Const, a.Len()
		}
		return t
	case *types.Slice, *types.Map:
		if n, ok := LiteralLen(info, l.X); ok {
			t.Kind, t.N = Const, n
			return t
		}
		t.Kind, t.Collection = Elements, l.X
	case *types.Chan:
		t.Kind, t.Collection, t.Chan = Elements, l.X, true
	case *types.Signature:
		t.Kind, t.Collection, t.Func = Elements, l.X, true
	}
	return t
}

// coreType returns the underlying type of t; for a type parameter whose
// type set has one underlying type (S ~[]E, M ~map[K]V), that type.
func coreType(t types.Type) types.Type {
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok {
		return t.Underlying()
	}
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var core types.Type
	for i := 0; i < iface.NumEmbeddeds(); i++ {
		var terms []types.Type
		switch e := iface.EmbeddedType(i).(type) {
		case *types.Union:
			for j := 0; j < e.Len(); j++ {
				terms = append(terms, e.Term(j).Type())
			}
		default:
			if types.IsInterface(e) {
				continue // a method set, not a type term
			}
			terms = append(terms, e)
		}
		for _, term := range terms {
			u := term.Underlying()
			if core == nil {
				core = u
			} else if !types.Identical(core, u) {
				return nil
			}
		}
	}
	return core
}

// LiteralLen returns the number of elements of a slice or map composite
// literal; not for a slice literal with indexed elements ([]T{9: x}), whose
// length is not the number of elements.
func LiteralLen(info *types.Info, e ast.Expr) (int64, bool) {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return 0, false
	}
	switch info.TypeOf(lit).Underlying().(type) {
	case *types.Slice:
		for _, e := range lit.Elts {
			if _, keyed := e.(*ast.KeyValueExpr); keyed {
				return 0, false
			}
		}
	case *types.Map:
	default:
		return 0, false
	}
	return int64(len(lit.Elts)), true
}

func ofFor(info *types.Info, l *ast.ForStmt) Trip {
	if l.Cond == nil {
		return Trip{Kind: Forever}
	}
	// i := a; i < b; i++ (or i <= b, b > i, i += k with a constant k > 0).
	cond, ok := ast.Unparen(l.Cond).(*ast.BinaryExpr)
	if !ok {
		return Trip{Kind: Forever}
	}
	idx, bound, inclusive, ok := counting(info, cond)
	step := int64(0)
	if ok {
		step = increments(info, l.Post, idx)
	}
	if step == 0 {
		return Trip{Kind: Forever}
	}
	t := Trip{Index: idx, Bound: bound, Step: step}
	start, ok := initial(info, l.Init, idx)
	b, bok := analysisutil.ConstInt(info, bound)
	if ok && bok {
		n := b - start
		if inclusive {
			n++
		}
		if n < 0 {
			n = 0
		}
		t.Kind, t.N = Const, (n+step-1)/step
		return t
	}
	t.Kind = Count
	return t
}

// counting matches i < b, i <= b, b > i, b >= i and returns i and b.
func counting(info *types.Info, c *ast.BinaryExpr) (*types.Var, ast.Expr, bool, bool) {
	switch c.Op {
	case token.LSS, token.LEQ:
		if v := varOf(info, ast.Unparen(c.X)); v != nil {
			return v, c.Y, c.Op == token.LEQ, true
		}
	case token.GTR, token.GEQ:
		if v := varOf(info, ast.Unparen(c.Y)); v != nil {
			return v, c.X, c.Op == token.GEQ, true
		}
	}
	return nil, nil, false, false
}

// increments returns the constant step a loop's post statement adds to v
// (i++, i += 1, i += batchSize with batchSize a constant), or 0.
func increments(info *types.Info, post ast.Stmt, v *types.Var) int64 {
	switch p := post.(type) {
	case *ast.IncDecStmt:
		if p.Tok == token.INC && varOf(info, p.X) == v {
			return 1
		}
	case *ast.AssignStmt:
		if p.Tok == token.ADD_ASSIGN && len(p.Lhs) == 1 && varOf(info, p.Lhs[0]) == v {
			if n, ok := analysisutil.ConstInt(info, p.Rhs[0]); ok && n > 0 {
				return n
			}
		}
	}
	return 0
}

// initial returns the constant start value of v in a loop's init.
func initial(info *types.Info, init ast.Stmt, v *types.Var) (int64, bool) {
	as, ok := init.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || varOf(info, as.Lhs[0]) != v {
		return 0, false
	}
	return analysisutil.ConstInt(info, as.Rhs[0])
}
