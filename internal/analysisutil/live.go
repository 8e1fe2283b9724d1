package analysisutil

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/knowledge"
)

// A value that lives on the context of the call that made it (rows, a
// transaction, a response body, a stream) stops working when that context
// is cancelled. A fix that cancels the context when the function returns
// (defer cancel()) must leave alone a call whose such value is returned or
// kept; a fix that gives the call the caller's context must leave alone
// one whose value is kept beyond the caller's request (in a field, a
// package variable, a callback).

// MayLive reports whether a value of type t may live on a context: a type
// of the table's LiveOnContext rows, a stream (a type with the methods of
// grpc.ClientStream), an interface other than error (its dynamic value may
// be either), a function or a channel (a closure or a producer may use the
// context), or a composite of this package's types holding one.
func MayLive(t types.Type, table *knowledge.Table, pkg *types.Package) bool {
	return mayLive(t, table, pkg, 0)
}

func mayLive(t types.Type, table *knowledge.Table, pkg *types.Package, depth int) bool {
	if t == nil || depth > 4 {
		return false
	}
	if table.LiveOnContext[TypeKey(t)] {
		return true
	}
	if HasMethods(t, table.GRPC.StreamMethods) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Interface:
		return !types.Identical(t, types.Universe.Lookup("error").Type())
	case *types.Signature, *types.Chan:
		return true
	case *types.Pointer:
		return mayLive(u.Elem(), table, pkg, depth+1)
	case *types.Slice:
		return mayLive(u.Elem(), table, pkg, depth+1)
	case *types.Array:
		return mayLive(u.Elem(), table, pkg, depth+1)
	case *types.Map:
		return mayLive(u.Key(), table, pkg, depth+1) || mayLive(u.Elem(), table, pkg, depth+1)
	case *types.Struct:
		if named, ok := types.Unalias(t).(*types.Named); ok && named.Obj().Pkg() != pkg {
			return false // another package's struct: its rows would say
		}
		for i := 0; i < u.NumFields(); i++ {
			if mayLive(u.Field(i).Type(), table, pkg, depth+1) {
				return true
			}
		}
	}
	return false
}

// ResultsMayLive reports whether any result of call may live on a context.
func ResultsMayLive(info *types.Info, table *knowledge.Table, pkg *types.Package, call *ast.CallExpr) bool {
	switch t := info.TypeOf(call).(type) {
	case nil:
		return false
	case *types.Tuple:
		for i := 0; i < t.Len(); i++ {
			if MayLive(t.At(i).Type(), table, pkg) {
				return true
			}
		}
		return false
	default:
		return MayLive(t, table, pkg)
	}
}

// KeptLive reports whether a value that call returns and that may live on
// its context outlives the statements of fn that consume it: it is
// returned (unless returns are allowed), stored in a field, a package
// variable, a composite literal or a channel, handed to a function that
// may keep it, or used in a function literal that may run later. stack is
// the path from the file to call; fn the innermost function around it.
// Consuming is calling the value's methods (rows.Next(), defer rows.Close(),
// tx.Commit()), reading its fields into such calls
// (io.ReadAll(resp.Body), resp.Body.Close()) or comparing it.
//
// Without allowReturn the context ends where fn returns, by a cancel
// deferred just before the call's statement: a deferred function literal
// registered before the call runs after that cancel, so a use of the
// value in it keeps the value too.
func KeptLive(info *types.Info, table *knowledge.Table, pkg *types.Package, call *ast.CallExpr, stack []ast.Node, fn ast.Node, allowReturn bool) bool {
	if !ResultsMayLive(info, table, pkg, call) {
		return false
	}
	k := &keeper{info: info, table: table, pkg: pkg, fn: fn, allowReturn: allowReturn}
	if !allowReturn {
		k.cancelAt = call.Pos()
	}
	return k.kept(call, stack, false)
}

// RequestKept reports whether the value call returns (a request) is used
// where it may outlive fn: in a function literal that may run after fn
// returns (a goroutine fn does not surely wait for), stored, or handed to
// a function that may keep it. Returning it is allowed.
func RequestKept(info *types.Info, table *knowledge.Table, pkg *types.Package, call *ast.CallExpr, stack []ast.Node, fn ast.Node) bool {
	k := &keeper{info: info, table: table, pkg: pkg, fn: fn, allowReturn: true}
	return k.kept(call, stack, true)
}

type keeper struct {
	seen        map[*types.Var]bool // variables being followed
	info        *types.Info
	table       *knowledge.Table
	pkg         *types.Package
	fn          ast.Node
	allowReturn bool
	cancelAt    token.Pos // a cancel is deferred here (0: none)
}

// kept reports whether the value of e (at the end of stack) is kept.
// holder: e is a value that may hold the live one (a call it was handed
// to), whatever its type.
func (k *keeper) kept(e ast.Expr, stack []ast.Node, holder bool) bool {
	if len(stack) < 2 {
		return true
	}
	parent := stack[len(stack)-2]
	switch p := parent.(type) {
	case *ast.ParenExpr:
		return k.kept(p, stack[:len(stack)-1], holder)
	case *ast.ExprStmt:
		return false // discarded
	case *ast.ReturnStmt:
		return !k.allowReturn
	case *ast.SelectorExpr:
		// A method called on it, or a field read from it.
		return k.selected(p, stack[:len(stack)-1], holder)
	case *ast.BinaryExpr:
		return false // compared
	case *ast.CallExpr:
		if p.Fun == e {
			return true
		}
		if startedLater(p, stack[:len(stack)-1]) {
			// go f(x): the goroutine uses x after the function returns.
			return true
		}
		// Handed to a function: kept if the function may keep it (one of
		// this package, whose body is not looked at), else held by what
		// the call returns, unless that is plain data.
		if fn, _ := Callee(k.info, p, nil); fn == nil || fn.Pkg() == k.pkg {
			if id, ok := ast.Unparen(p.Fun).(*ast.Ident); !ok || !isBuiltin(k.info, id) {
				return true
			}
		}
		if plainResults(k.info, p) {
			return false
		}
		return k.kept(p, stack[:len(stack)-1], true)
	case *ast.AssignStmt:
		for i, r := range p.Rhs {
			if r != e {
				continue
			}
			if len(p.Lhs) == len(p.Rhs) {
				return k.assigned(p.Lhs[i], holder)
			}
		}
		// v1, v2 := call(): every variable that receives a result.
		for _, lhs := range p.Lhs {
			if k.assigned(lhs, holder) {
				return true
			}
		}
		return false
	case *ast.ValueSpec:
		for _, n := range p.Names {
			if k.assigned(n, holder) {
				return true
			}
		}
		return false
	case *ast.DeferStmt, *ast.GoStmt:
		return false // the call itself; its results are dropped
	}
	return true
}

// startedLater: call (at the end of stack) is the call of a go statement,
// which runs it, receiver and arguments included, in a goroutine that may
// outlive the function. (A deferred call runs before any cancel deferred
// earlier, so it consumes in place.)
func startedLater(call *ast.CallExpr, stack []ast.Node) bool {
	if len(stack) < 2 {
		return false
	}
	g, ok := stack[len(stack)-2].(*ast.GoStmt)
	return ok && g.Call == call
}

func isBuiltin(info *types.Info, id *ast.Ident) bool {
	_, ok := info.Uses[id].(*types.Builtin)
	return ok
}

// BuiltinCall returns e as a call of the builtin function name (len, cap,
// make, close), or nil.
func BuiltinCall(info *types.Info, e ast.Expr, name string) *ast.CallExpr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	if b, ok := info.Uses[id].(*types.Builtin); !ok || b.Name() != name {
		return nil
	}
	return call
}

// plainResults: a call whose results cannot hold a value of another
// (numbers, strings, booleans, errors, byte slices).
func plainResults(info *types.Info, call *ast.CallExpr) bool {
	t := info.TypeOf(call)
	if t == nil {
		return true
	}
	var ts []types.Type
	if tup, ok := t.(*types.Tuple); ok {
		for i := 0; i < tup.Len(); i++ {
			ts = append(ts, tup.At(i).Type())
		}
	} else {
		ts = []types.Type{t}
	}
	for _, t := range ts {
		if !plain(t) {
			return false
		}
	}
	return true
}

func plain(t types.Type) bool {
	if types.Identical(t, types.Universe.Lookup("error").Type()) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return true
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return false
}

// selected: x.M(...) consumes x when the call's results do not live on
// the context (or are consumed in turn); x.F is consumed as x is.
func (k *keeper) selected(sel *ast.SelectorExpr, stack []ast.Node, holder bool) bool {
	if s, ok := k.info.Selections[sel]; ok && s.Kind() == types.MethodVal {
		if len(stack) < 2 {
			return true
		}
		call, ok := stack[len(stack)-2].(*ast.CallExpr)
		if !ok || call.Fun != ast.Expr(sel) {
			return true // a method value: kept
		}
		if startedLater(call, stack[:len(stack)-1]) {
			return true // go x.M(): the goroutine uses x after return
		}
		if holder {
			if plainResults(k.info, call) {
				return false
			}
		} else if !ResultsMayLive(k.info, k.table, k.pkg, call) {
			return false
		}
		return k.kept(call, stack[:len(stack)-1], holder)
	}
	// A field: consumed where it is used.
	if !holder && !MayLive(k.info.TypeOf(sel), k.table, k.pkg) {
		return false
	}
	return k.kept(sel, stack, holder)
}

// assigned: the value goes to lhs. A local variable of fn whose every use
// consumes the value keeps nothing; anything else keeps it.
func (k *keeper) assigned(lhs ast.Expr, holder bool) bool {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok {
		return true // a field, an element, a dereference
	}
	if id.Name == "_" {
		return false
	}
	v, ok := k.info.ObjectOf(id).(*types.Var)
	if !ok {
		return true
	}
	if !holder && !MayLive(v.Type(), k.table, k.pkg) {
		return false
	}
	body := funcBody(k.fn)
	if body == nil || v.Pos() < body.Pos() || v.Pos() >= body.End() {
		return true // a package variable, a parameter or a named result
	}
	if k.seen[v] {
		return false // followed already (v = f(v))
	}
	if k.seen == nil {
		k.seen = map[*types.Var]bool{}
	}
	k.seen[v] = true
	kept := false
	var stack []ast.Node
	ast.Inspect(body, func(m ast.Node) bool {
		if kept {
			return false
		}
		if m == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, m)
		switch m := m.(type) {
		case *ast.FuncLit:
			if !runsInPlace(stack) || k.deferredBeforeCancel(stack) {
				// A literal that may run later: any use in it keeps.
				if Mentions(k.info, m, v) {
					kept = true
				}
				stack = stack[:len(stack)-1]
				return false
			}
		case *ast.Ident:
			if k.info.Uses[m] == v && k.kept(m, stack, holder) {
				kept = true
			}
		}
		return true
	})
	return kept
}

// deferredBeforeCancel reports whether the function literal at the end of
// stack is deferred by a statement before the cancel's: it runs after it.
func (k *keeper) deferredBeforeCancel(stack []ast.Node) bool {
	if k.cancelAt == token.NoPos || len(stack) < 3 {
		return false
	}
	d, ok := stack[len(stack)-3].(*ast.DeferStmt)
	return ok && d.Pos() < k.cancelAt
}

// runsInPlace reports whether the function literal at the end of stack
// runs before the enclosing function returns: called at once, or deferred.
func runsInPlace(stack []ast.Node) bool {
	if len(stack) < 2 {
		return false
	}
	lit := stack[len(stack)-1]
	call, ok := stack[len(stack)-2].(*ast.CallExpr)
	if !ok || call.Fun != lit {
		return false
	}
	if len(stack) >= 3 {
		if _, isGo := stack[len(stack)-3].(*ast.GoStmt); isGo {
			return false
		}
	}
	return true
}

// Mentions reports whether n uses v.
func Mentions(info *types.Info, n ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

func funcBody(fn ast.Node) *ast.BlockStmt {
	switch f := fn.(type) {
	case *ast.FuncDecl:
		return f.Body
	case *ast.FuncLit:
		return f.Body
	}
	return nil
}
