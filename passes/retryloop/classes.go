package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/resilint/resilint/internal/analysisutil"
)

// The failures a retry layer retries (issue 13, rule 4: "a library retry
// that never fires for that failure is not a layer"). A layer whose exits
// return every error but some at once retries only those: a sentinel
// (errors.Is(err, errTransient), err == io.EOF), an error type
// (errors.As(err, &tempErr)), some HTTP statuses or gRPC codes. Two layers
// multiply only for a failure both retry: when one retries every failure,
// or both retry the same class. Layers whose classes are disjoint do not
// multiply; a layer whose retry condition cannot be read (a predicate of
// its own, shouldRetry(err)) cannot be related to a layer that retries
// only some failures: no proven product.

// A class key spells a failure class: "is:path.name" for a sentinel error
// variable, "as:type" for an error type errors.As looks for, "status:503",
// "code:Unavailable".

// layerClass is what a layer retries: every failure (all), the failures of
// some classes (on), or something that cannot be related (unknown).
type layerClass struct {
	on      []string
	unknown bool
}

func (c layerClass) all() bool { return len(c.on) == 0 && !c.unknown }

// meet is the failures both classes retry; ok is false when no failure is
// proven to be retried by both (disjoint, or one cannot be related to a
// class the other names).
func meet(a, b layerClass) (layerClass, bool) {
	switch {
	case a.all():
		return b, true
	case b.all():
		return a, true
	case a.unknown || b.unknown:
		return layerClass{}, false
	}
	var on []string
	for _, k := range a.on {
		if containsStr(b.on, k) {
			on = append(on, k)
		}
	}
	return layerClass{on: on}, len(on) > 0
}

func (l Layer) class() layerClass { return layerClass{on: l.On, unknown: l.OnUnknown} }

// related returns the longest prefix of a chain of layers (outer first,
// after the layer outer) every layer of which retries a failure the layers
// before it retry too: beyond it, nothing is proven to multiply.
//
// A layer that is Closed gives up with failures of its own library: when
// every failure retried so far is a sentinel of the user's module (own),
// the layer's failures are not among them, and it does not multiply.
func related(outer layerClass, chain []Layer, own func(key string) bool) []Layer {
	c := outer
	for i, l := range chain {
		if l.Closed != "" && len(c.on) > 0 && !c.unknown && allOwn(c.on, l.Closed, own) {
			return chain[:i]
		}
		next, ok := meet(c, l.class())
		if !ok {
			return chain[:i]
		}
		c = next
	}
	return chain
}

// allOwn reports whether every class key is a sentinel of the user's
// module (own), declared outside the library lib.
func allOwn(keys []string, lib string, own func(key string) bool) bool {
	for _, k := range keys {
		path, ok := strings.CutPrefix(k, "is:")
		if !ok || strings.HasPrefix(path, lib+".") || strings.HasPrefix(path, lib+"/") || !own(k) {
			return false
		}
	}
	return true
}

// ownSentinel reports whether a class key "is:path.name" names a sentinel
// declared in the analysed package's module (in this package, when the
// module is not known).
func (m *model) ownSentinel(key string) bool {
	path, ok := strings.CutPrefix(key, "is:")
	if !ok {
		return false
	}
	if i := strings.LastIndex(path, "."); i >= 0 {
		path = path[:i]
	} else {
		return false
	}
	if mod := m.pass.Module; mod != nil && mod.Path != "" && mod.Path != "std" {
		return path == mod.Path || strings.HasPrefix(path, mod.Path+"/")
	}
	return path == m.pass.Pkg.Path()
}

// errClassKey returns the class key of the target of errors.Is (or of a
// comparison err == target): a package-level error variable; of errors.As
// (as: the pointer's element type).
func (m *model) errClassKey(as bool, target ast.Expr) string {
	if as {
		u, ok := ast.Unparen(target).(*ast.UnaryExpr)
		if !ok || u.Op != token.AND {
			return ""
		}
		t := m.info.TypeOf(u.X)
		if t == nil {
			return ""
		}
		return "as:" + types.TypeString(t, nil)
	}
	v, ok := analysisutil.Referent(m.info, target).(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || !types.Identical(v.Type(), errorType) &&
		!types.Implements(v.Type(), errorIface) {
		return ""
	}
	return "is:" + v.Pkg().Path() + "." + v.Name()
}

// classCond decides a test of the call's error against a class (errors.Is,
// errors.As) in a walk that assumes the error is of class w.a.class (""
// for a class the loop names nowhere).
func (w *walker) classCond(fnKey string, call *ast.CallExpr, st pstate) (tri, bool) {
	if !w.a.classWalk || !st.active || st.err != yes || len(call.Args) != 2 || !w.isErr(call.Args[0]) {
		return unk, false
	}
	k := w.m.errClassKey(fnKey == "errors.As", call.Args[1])
	if k == "" {
		return unk, false
	}
	if k == w.a.class {
		return yes, true
	}
	return no, true
}

// classCompare decides err == target, err != target in a class walk.
func (w *walker) classCompare(e *ast.BinaryExpr, st pstate) (tri, bool) {
	if !w.a.classWalk || !st.active || st.err != yes || e.Op != token.EQL && e.Op != token.NEQ {
		return unk, false
	}
	for _, p := range [][2]ast.Expr{{e.X, e.Y}, {e.Y, e.X}} {
		if !w.isErr(p[0]) {
			continue
		}
		k := w.m.errClassKey(false, p[1])
		if k == "" {
			continue
		}
		r := no
		if k == w.a.class {
			r = yes
		}
		if e.Op == token.NEQ {
			r = r.not()
		}
		return r, true
	}
	return unk, false
}

// classKeys returns the error classes a body tests an error against, in it
// and in the one-statement predicates of the package it calls
// (isTransient(err)), sorted.
func (m *model) classKeys(body ast.Node, depth int) []string {
	set := map[string]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			fn, _ := m.callee(x)
			if fn == nil {
				return true
			}
			switch k := analysisutil.Key(fn); k {
			case "errors.Is", "errors.As":
				if len(x.Args) == 2 {
					if key := m.errClassKey(k == "errors.As", x.Args[1]); key != "" {
						set[key] = true
					}
				}
				return true
			}
			if depth < 2 && fn.Pkg() == m.pass.Pkg {
				if d := m.x.decls[fn.Origin()]; d != nil && d.Body != nil && len(d.Body.List) <= 3 {
					for _, k := range m.classKeys(d.Body, depth+1) {
						set[k] = true
					}
				}
			}
		case *ast.BinaryExpr:
			if x.Op == token.EQL || x.Op == token.NEQ {
				for _, e := range []ast.Expr{x.X, x.Y} {
					if t := m.info.TypeOf(e); t != nil && types.Identical(t, errorType) {
						if key := m.errClassKey(false, e); key != "" {
							set[key] = true
						}
					}
				}
			}
		case *ast.CaseClause:
			for _, e := range x.List {
				if t := m.info.TypeOf(e); t != nil && types.Identical(t, errorType) {
					if key := m.errClassKey(false, e); key != "" {
						set[key] = true
					}
				}
			}
		}
		return true
	})
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// loopClass returns the failures a retry loop retries, over its retried
// calls: every error when an error of a class the loop names nowhere goes
// round (past no undecided test of the error); else the classes, statuses
// and codes that go round; unknown when a condition the walk cannot decide
// sends errors round.
func (m *model) loopClass(L *Loop, li *loopInfo) layerClass {
	set := map[string]bool{}
	unknown := false
	goesRound := func(a assume, call *ast.CallExpr) (round, blind bool) {
		w := m.newWalker(L, li, call, a, false)
		w.run()
		for _, st := range w.round {
			if st.classBlind {
				blind = true
			} else {
				round = true
			}
		}
		return round, blind
	}
	keys := m.classKeys(L.Body, 0)
	for _, call := range L.Retried {
		if li.codes {
			all := true
			for c, name := range m.rt.CodeNames {
				if c == 0 {
					continue
				}
				r, b := goesRound(assume{err: yes, code: c, classWalk: true}, call)
				if r {
					set["code:"+name] = true
				} else {
					all = false
				}
				unknown = unknown || b && !r
			}
			if all {
				return layerClass{}
			}
			continue
		}
		r, b := goesRound(assume{err: yes, code: -1, classWalk: true}, call)
		if r {
			return layerClass{} // any error goes round
		}
		for _, k := range keys {
			kr, kb := goesRound(assume{err: yes, code: -1, classWalk: true, class: k}, call)
			if kr {
				set[k] = true
			}
			b = b || kb && !kr
		}
		if b && len(set) == 0 {
			unknown = true
		}
	}
	for _, s := range L.Statuses {
		set["status:"+itoa(s)] = true
	}
	for _, c := range L.Codes {
		set["code:"+c] = true
	}
	if unknown || len(set) == 0 {
		// A condition the walk cannot decide sends errors round, or
		// nothing read says what goes round.
		return layerClass{unknown: true}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return layerClass{on: out}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// readsOwnErr reports whether e reads the call's error (or the call),
// directly or through variables the loop body defines from it, not what
// other calls returned.
func (w *walker) readsOwnErr(e ast.Node, depth int) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if n == w.call {
			found = true
		}
		if id, ok := n.(*ast.Ident); ok {
			if x, ok := w.subst[w.m.info.Uses[id]]; ok {
				saved := w.subst
				w.subst = nil
				found = w.readsOwnErr(x, depth+1)
				w.subst = saved
				return !found
			}
			v, isVar := w.m.info.Uses[id].(*types.Var)
			switch {
			case !isVar:
			case w.errV[v]:
				found = true
			case depth < 6 && !w.resV[v]:
				if rhs := w.loopDef(id); rhs != nil && w.readsOwnErr(rhs, depth+1) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// helperClasses gives a library helper call handed a retry predicate in its
// arguments (retry.Do(op, retry.RetryIf(func(err error) bool { return
// errors.Is(err, errTransient) }))) the failures the predicate retries.
func (m *model) helperClasses() {
	for _, s := range m.sites {
		if s.helper == nil || s.own != nil {
			continue
		}
		for _, ps := range m.predSites {
			if !within(ps.site.Pos(), s.helper.Call) {
				continue
			}
			fnode, sig, body := m.predicateFunc(ps.expr, 0)
			if fnode == nil || sig == nil || body == nil {
				s.class = layerClass{unknown: true}
				break
			}
			s.class = m.predicateClass(fnode, sig, body)
			break
		}
	}
}

// predicateClass returns the failures a retry predicate retries (its true
// results), as loopClass does for a loop.
func (m *model) predicateClass(fnode ast.Node, sig *types.Signature, body *ast.BlockStmt) layerClass {
	unknown := layerClass{unknown: true}
	if sig.Results().Len() == 0 {
		return unknown
	}
	if b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return unknown
	}
	errV := map[*types.Var]bool{}
	for i := 0; i < sig.Params().Len(); i++ {
		if v := sig.Params().At(i); types.Identical(v.Type(), errorType) {
			errV[v] = true
		}
	}
	if len(errV) == 0 {
		return unknown
	}
	L := &Loop{Body: body, Func: fnode}
	li := &loopInfo{body: body}
	m.scan(li)
	walk := func(class string) (round, blind bool) {
		w := &walker{m: m, L: L, li: li, call: &ast.CallExpr{Fun: &ast.Ident{Name: "_"}},
			a: assume{err: yes, code: -1, classWalk: true, class: class}, errV: errV, resV: map[*types.Var]bool{},
			argV: map[*types.Var]bool{}, predResults: sig.Results().Len()}
		w.runPredicate()
		for _, st := range w.round {
			if st.classBlind || st.blind {
				blind = true
			} else {
				round = true
			}
		}
		return round, blind
	}
	if r, _ := walk(""); r {
		return layerClass{}
	}
	var on []string
	for _, k := range m.classKeys(body, 0) {
		if r, _ := walk(k); r {
			on = append(on, k)
		}
	}
	if len(on) == 0 {
		return unknown
	}
	return layerClass{on: on}
}
