package loops_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/resilint/resilint/passes/loops"
)

func TestOf(t *testing.T) {
	const src = `package p

func f(n int, xs []int, m map[string]int, ch chan int, seq func(func(int) bool), ok func() bool) {
	for i := 0; i < 8; i++ {}         // const 8
	for i := 1; i <= 4; i++ {}        // const 4
	for range 3 {}                    // const 3
	for _, s := range []string{"a", "b"} { _ = s } // const 2
	var arr [5]int
	for range arr {}                  // const 5
	for i := 0; i < n; i++ {}         // count
	for i := range n { _ = i }        // count
	for _, x := range xs { _ = x }    // elements
	for k := range m { _ = k }        // elements
	for v := range ch { _ = v }       // elements (chan)
	for v := range seq { _ = v }      // elements (func)
	for {}                            // forever
	for ok() {}                       // forever
	const chunk = 25
	for i := 0; i < 100; i += chunk {} // const 4
	for i := 0; i < 101; i += chunk {} // const 5
	for i := 0; i < len(xs); i += chunk {} // count, step 25
	for i := 0; i < n; i += n {}      // forever (the step is not constant)
	for i := 0; i < n; i -= 1 {}      // forever
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	type want struct {
		kind loops.Kind
		n    int64
	}
	wants := []want{
		{loops.Const, 8}, {loops.Const, 4}, {loops.Const, 3}, {loops.Const, 2}, {loops.Const, 5},
		{loops.Count, 0}, {loops.Count, 0},
		{loops.Elements, 0}, {loops.Elements, 0}, {loops.Elements, 0}, {loops.Elements, 0},
		{loops.Forever, 0}, {loops.Forever, 0},
		{loops.Const, 4}, {loops.Const, 5}, {loops.Count, 0}, {loops.Forever, 0}, {loops.Forever, 0},
	}
	var got []loops.Trip
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			got = append(got, loops.Of(info, n.(ast.Stmt)))
		}
		return true
	})
	if len(got) != len(wants) {
		t.Fatalf("got %d loops, want %d", len(got), len(wants))
	}
	for i, w := range wants {
		if got[i].Kind != w.kind || (w.kind == loops.Const && got[i].N != w.n) {
			t.Errorf("loop %d: got %v %d, want %v %d", i, got[i].Kind, got[i].N, w.kind, w.n)
		}
	}
	if got[15].Step != 25 || got[5].Step != 1 {
		t.Errorf("steps: got %d and %d, want 25 and 1", got[15].Step, got[5].Step)
	}
	if !got[9].Chan || !got[10].Func {
		t.Errorf("channel and iterator loops not marked: %+v %+v", got[9], got[10])
	}
}

// TestTypeParams: a range over a type parameter whose type set is one
// slice, map or channel type is a loop over its elements (issue 13, rule
// 10).
func TestTypeParams(t *testing.T) {
	const src = `package p

func f[S ~[]E, M ~map[K]E, C ~chan E, K comparable, E any](s S, m M, c C) {
	for _, e := range s { _ = e } // elements
	for k := range m { _ = k }    // elements
	for e := range c { _ = e }    // elements (chan)
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	var got []loops.Trip
	ast.Inspect(f, func(n ast.Node) bool {
		if n, ok := n.(*ast.RangeStmt); ok {
			got = append(got, loops.Of(info, n))
		}
		return true
	})
	wants := []loops.Kind{loops.Elements, loops.Elements, loops.Elements}
	if len(got) != len(wants) {
		t.Fatalf("got %d loops, want %d", len(got), len(wants))
	}
	for i, w := range wants {
		if got[i].Kind != w {
			t.Errorf("loop %d: got %v, want %v", i, got[i].Kind, w)
		}
	}
	if !got[2].Chan {
		t.Errorf("channel loop not marked: %+v", got[2])
	}
}
