package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// cfgVal is what is known of a retry configuration value.
type cfgVal struct {
	known       bool // its construction was seen
	retries     bool // it makes its helper retry
	attempts    int  // the attempts, when attemptsSet and known (0: unknown)
	attemptsSet bool
	// attemptsText spells the attempts when they are set and not a
	// constant (c.cfg.MaxRetries+1).
	attemptsText string
	unlimited    bool
	timeLimit    bool
	vary         knowledge.Variation // when varySet
	varySet      bool
	varyNode     ast.Node
	jitter       bool
	ctx          bool
}

// effective is how the wait varies, jitter included.
func (c cfgVal) effective() knowledge.Variation {
	if c.jitter && (c.vary == knowledge.Invariant || c.vary == knowledge.Grows) {
		return knowledge.Randomised
	}
	return c.vary
}

// evalConfig reads a configuration expression: a constructor or option
// call, a builder chain, a composite literal, a variable defined once.
func (m *model) evalConfig(e ast.Expr, depth int) cfgVal {
	if e == nil || depth > 16 {
		return cfgVal{}
	}
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		if !ok || v.Pkg() != m.pass.Pkg || m.x.addrTaken[v] {
			return m.typeDefault(m.info.TypeOf(e))
		}
		defs := m.x.defs[v]
		if len(defs) > 1 {
			if c, ok := m.wrapChain(v, defs, x.Pos(), depth); ok {
				return c
			}
		}
		if len(defs) != 1 || defs[0].rhs == nil {
			return m.typeDefault(v.Type())
		}
		var c cfgVal
		if defs[0].index >= 0 {
			c = m.typeDefault(v.Type())
		} else {
			c = m.evalConfig(defs[0].rhs, depth+1)
		}
		c = m.mutations(v, c, depth)
		return m.jitterOff(v, c, defs[0], x.Pos())
	case *ast.SelectorExpr:
		return m.fieldConfig(x, depth)
	case *ast.UnaryExpr:
		return m.evalConfig(x.X, depth+1)
	case *ast.CompositeLit:
		return m.literal(x)
	case *ast.CallExpr:
		fn, recv := m.callee(x)
		if fn == nil {
			return m.typeDefault(m.info.TypeOf(e))
		}
		row, ok := m.rt.Configs[analysisutil.Key(fn)]
		if !ok {
			if c, ok := m.madeConfig(fn, depth); ok {
				return c // a constructor of the module
			}
			return m.typeDefault(m.info.TypeOf(e))
		}
		var base cfgVal
		switch {
		case row.From >= 0:
			base = m.evalConfig(arg(x, row.From), depth+1)
		case row.Chain && recv != nil:
			base = m.evalConfig(recv, depth+1)
		}
		return m.apply(base, row, x, depth)
	}
	return m.typeDefault(m.info.TypeOf(e))
}

// wrapChain evaluates v at use when it is built up by wrapping itself, as
// go-retry backoffs are:
//
//	b := retry.NewExponential(100 * time.Millisecond)
//	b = retry.WithMaxRetries(3, b)
//	b = retry.WithJitterPercent(10, b)
//
// Every definition must be a statement of one block, in order before the
// use, and every one after the first a configuring call that wraps v
// itself; otherwise ok is false.
func (m *model) wrapChain(v *types.Var, defs []vdef, use token.Pos, depth int) (cfgVal, bool) {
	var block *ast.BlockStmt
	for i, d := range defs {
		if d.rhs == nil || d.index >= 0 || d.stmt == nil || d.stmt.End() > use || (i > 0 && d.pos < defs[i-1].pos) {
			return cfgVal{}, false
		}
		if i == 0 && d.op != token.DEFINE && d.op != token.ASSIGN {
			return cfgVal{}, false
		}
		b := m.blockOf(d.stmt)
		if b == nil || (block != nil && b != block) {
			return cfgVal{}, false
		}
		block = b
		if i == 0 {
			continue
		}
		call, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
		if !ok || d.op != token.ASSIGN {
			return cfgVal{}, false
		}
		fn, _ := m.callee(call)
		if fn == nil {
			return cfgVal{}, false
		}
		row, ok := m.rt.Configs[analysisutil.Key(fn)]
		if !ok || row.From < 0 {
			return cfgVal{}, false
		}
		if id, ok := ast.Unparen(arg(call, row.From)).(*ast.Ident); !ok || m.info.Uses[id] != v {
			return cfgVal{}, false
		}
	}
	c := m.evalConfig(defs[0].rhs, depth+1)
	for _, d := range defs[1:] {
		call := ast.Unparen(d.rhs).(*ast.CallExpr)
		fn, _ := m.callee(call)
		c = m.apply(c, m.rt.Configs[analysisutil.Key(fn)], call, depth)
	}
	return c, true
}

// fieldConfig evaluates a configuration held in a field of a struct of the
// package (c.rc for &Client{rc: retryablehttp.NewClient()}): when the
// package gives the field one value, in a literal or an assignment, and
// sets its count field nowhere else, the field is that value.
func (m *model) fieldConfig(x *ast.SelectorExpr, depth int) cfgVal {
	s, ok := m.info.Selections[x]
	if !ok || s.Kind() != types.FieldVal {
		return m.typeDefault(m.info.TypeOf(x))
	}
	f, _ := s.Obj().(*types.Var)
	if f == nil || f.Pkg() != m.pass.Pkg || m.x == nil {
		return m.typeDefault(m.info.TypeOf(x))
	}
	defs := append([]ast.Expr(nil), m.literalValues(f)...)
	for _, d := range m.x.fields[f] {
		if d.op != token.ASSIGN {
			defs = append(defs, nil)
			continue
		}
		defs = append(defs, d.rhs)
	}
	if len(defs) != 1 || defs[0] == nil {
		return m.typeDefault(f.Type())
	}
	c := m.evalConfig(defs[0], depth+1)
	// The count set through the field elsewhere (c.rc.RetryMax = 2): not
	// this value.
	if t, ok := m.rt.ConfigTypes[analysisutil.TypeKey(f.Type())]; ok && t.CountField != "" {
		var local *types.Var
		if id, ok := ast.Unparen(defs[0]).(*ast.Ident); ok {
			local, _ = m.info.Uses[id].(*types.Var)
		}
		if st := structOf(f.Type()); st != nil {
			for i := 0; i < st.NumFields(); i++ {
				if cf := st.Field(i); cf.Name() == t.CountField {
					for _, d := range m.x.fields[cf] {
						if d.root != nil && d.root != local && holds(d.root.Type(), f) {
							c.attemptsSet, c.attempts = false, 0 // x.rc.RetryMax = n
						}
					}
				}
			}
		}
	}
	return c
}

// holds reports whether t (or what it points to) is a struct with field f.
func holds(t types.Type, f *types.Var) bool {
	st := structOf(t)
	if st == nil {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i) == f {
			return true
		}
	}
	return false
}

// literalValues returns the values the package's struct literals give f
// (nil for a literal that lists its values without keys).
func (m *model) literalValues(f *types.Var) []ast.Expr {
	if m.fieldLits == nil {
		m.fieldLits = map[*types.Var][]ast.Expr{}
		ins := m.pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		ins.Preorder([]ast.Node{(*ast.CompositeLit)(nil)}, func(n ast.Node) {
			cl := n.(*ast.CompositeLit)
			st := structOf(m.info.TypeOf(cl))
			if st == nil {
				return
			}
			for _, el := range cl.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					// Unkeyed: every field gets a value we do not map.
					for i := 0; i < st.NumFields(); i++ {
						m.fieldLits[st.Field(i)] = append(m.fieldLits[st.Field(i)], nil)
					}
					return
				}
				if id, ok := kv.Key.(*ast.Ident); ok {
					if fv, ok := m.info.Uses[id].(*types.Var); ok && fv.IsField() {
						m.fieldLits[fv] = append(m.fieldLits[fv], kv.Value)
					}
				}
			}
		})
	}
	return m.fieldLits[f]
}

// apply applies a configuration row's effect, at call, to base.
func (m *model) apply(c cfgVal, row knowledge.RetryConfig, call *ast.CallExpr, depth int) cfgVal {
	if row.Policies >= 0 {
		for i := row.Policies; i < len(call.Args); i++ {
			p := m.evalConfig(call.Args[i], depth+1)
			if p.retries {
				ctx := c.ctx
				c = p
				c.ctx = c.ctx || ctx
			}
		}
		c.known = true
	}
	if row.Retries {
		c.retries, c.known = true, true
	}
	if row.Attempts > 0 {
		c.attempts, c.attemptsSet, c.unlimited = row.Attempts, true, false
	}
	if row.Count >= 0 {
		c.attemptsSet, c.unlimited, c.attempts = true, false, 0
		c.attemptsText = boundText(arg(call, row.Count), row.Plus)
		if n, ok := m.constInt(arg(call, row.Count)); ok {
			switch {
			case n == 0 && row.ZeroUnlimited, n < 0 && row.NegUnlimited:
				c.unlimited = true
			case n >= 0:
				c.attempts = int(n) + row.Plus
			}
		}
	}
	if row.Unlimited {
		c.unlimited, c.attempts, c.attemptsSet = true, 0, true
	}
	if row.TimeLimit {
		c.timeLimit = true
	}
	if row.ZeroNoTimeLimit >= 0 {
		if n, ok := m.constInt(arg(call, row.ZeroNoTimeLimit)); ok && n == 0 {
			c.timeLimit = false
		} else {
			c.timeLimit = true
		}
	}
	switch {
	case row.UnknownDelay:
		c.vary, c.varyNode, c.varySet = knowledge.VaryUnknown, nil, true
	case row.Delay != 0:
		c.vary, c.varyNode, c.varySet = row.Delay, call, true
	case row.DelayArg >= 0:
		c.vary, c.varyNode, c.varySet = m.delayFunc(arg(call, row.DelayArg), 0), call, true
	}
	if row.ZeroNoJitter >= 0 {
		if f, ok := m.constFloat(arg(call, row.ZeroNoJitter)); ok && f == 0 {
			c.vary, c.varyNode, c.varySet = knowledge.Grows, call, true
		}
	}
	if row.Jitter {
		c.jitter = true
	}
	if row.CtxRecv || row.Ctx >= 0 && !m.neverEnds(arg(call, row.Ctx)) {
		c.ctx = true // a context that can end: context.Background() cannot
	}
	if row.Opts >= 0 && !call.Ellipsis.IsValid() {
		for i := row.Opts; i < len(call.Args); i++ {
			c = m.option(c, call.Args[i], depth)
		}
	}
	return c
}

// option applies one option argument (retry.Attempts(3),
// backoff.WithMaxTries(2)) to c.
func (m *model) option(c cfgVal, opt ast.Expr, depth int) cfgVal {
	call, ok := ast.Unparen(opt).(*ast.CallExpr)
	if !ok {
		return c
	}
	fn, _ := m.callee(call)
	if fn == nil {
		return c
	}
	row, ok := m.rt.Configs[analysisutil.Key(fn)]
	if !ok {
		return c
	}
	if row.From >= 0 {
		// An option carrying a whole configuration (WithBackOff(b)).
		inner := m.evalConfig(arg(call, row.From), depth+1)
		if inner.varySet {
			c.vary, c.varyNode, c.varySet = inner.vary, inner.varyNode, true
		}
		if inner.attemptsSet {
			c.attempts, c.attemptsSet, c.unlimited = inner.attempts, true, inner.unlimited
		}
		c.jitter = c.jitter || inner.jitter
		c.ctx = c.ctx || inner.ctx
		c.known = c.known || inner.known
		row.From = knowledge.None
	}
	return m.apply(c, row, call, depth)
}

// mutations applies the configuring method calls made on a variable as
// statements of their own (r.SetJitter(0.2)) and the count fields set on
// it (c.RetryMax = 2).
func (m *model) mutations(v *types.Var, c cfgVal, depth int) cfgVal {
	for _, call := range m.x.methodCalls[v] {
		fn, _ := m.callee(call)
		if fn == nil {
			continue
		}
		if row, ok := m.rt.Configs[analysisutil.Key(fn)]; ok && row.Chain {
			c = m.apply(c, row, call, depth)
		}
	}
	if t, ok := m.rt.ConfigTypes[analysisutil.TypeKey(v.Type())]; ok && t.CountField != "" {
		st := structOf(v.Type())
		if st != nil {
			for i := 0; i < st.NumFields(); i++ {
				f := st.Field(i)
				if f.Name() != t.CountField {
					continue
				}
				for _, d := range m.x.fields[f] {
					if d.root != v {
						continue
					}
					c.attemptsSet, c.attempts = true, 0
					c.attemptsText = boundText(d.rhs, t.Plus)
					if n, ok := m.constInt(d.rhs); ok && d.rhs != nil {
						c.attempts = int(n) + t.Plus
					}
				}
			}
		}
		if c.attemptsSet && c.attempts == 1 {
			c.retries = false
		}
	}
	if t, ok := m.rt.ConfigTypes[analysisutil.TypeKey(v.Type())]; ok && t.DelayField != "" {
		// rc.Backoff = retryablehttp.LinearJitterBackoff, or a function
		// returning one constant: the one assignment through v decides.
		if st := structOf(v.Type()); st != nil {
			var sets []fdef
			for i := 0; i < st.NumFields(); i++ {
				if f := st.Field(i); f.Name() == t.DelayField {
					for _, d := range m.x.fields[f] {
						if d.root == v {
							sets = append(sets, d)
						}
					}
				}
			}
			if len(sets) == 1 && sets[0].rhs != nil {
				if vary := m.delayFunc(sets[0].rhs, depth+1); vary != knowledge.VaryUnknown {
					c.vary, c.varySet, c.varyNode = vary, true, sets[0].rhs
				}
			}
		}
	}
	return c
}

// jitterOff applies an assignment that turns the jitter of a
// configuration off (b.RandomizationFactor = 0) to c, the value of v at
// use: when it is the only assignment to the type's jitter field through
// v, a constant zero, and a statement of the block v is defined in,
// between the definition and the use, so that it surely runs first.
func (m *model) jitterOff(v *types.Var, c cfgVal, def vdef, use token.Pos) cfgVal {
	t, ok := m.rt.ConfigTypes[analysisutil.TypeKey(v.Type())]
	if !ok || t.JitterField == "" || t.Delay == 0 || !c.known || def.stmt == nil {
		return c
	}
	st := structOf(v.Type())
	if st == nil {
		return c
	}
	var fdefs []fdef
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Name() == t.JitterField {
			for _, d := range m.x.fields[f] {
				if d.root == v {
					fdefs = append(fdefs, d)
				}
			}
		}
	}
	if len(fdefs) != 1 {
		return c
	}
	d := fdefs[0]
	if d.stmt == nil || d.op != token.ASSIGN || d.pos < def.pos || d.stmt.End() > use {
		return c
	}
	if sel, ok := ast.Unparen(d.lhs).(*ast.SelectorExpr); !ok || m.x.varOf(sel.X) != v {
		return c // x.b.RandomizationFactor: not v's own field
	}
	if f, ok := m.constFloat(d.rhs); !ok || f != 0 {
		return c
	}
	if b := m.blockOf(def.stmt); b == nil || m.blockOf(d.stmt) != b {
		return c
	}
	c.vary, c.varyNode, c.varySet = t.Delay, d.stmt, true
	return c
}

// blockOf returns the block a statement is a statement of, or nil when it
// is not directly in one (an if's init, a case clause).
func (m *model) blockOf(stmt ast.Node) *ast.BlockStmt {
	ins := m.pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	cur, ok := ins.Root().FindNode(stmt)
	if !ok {
		return nil
	}
	b, _ := cur.Parent().Node().(*ast.BlockStmt)
	return b
}

func structOf(t types.Type) *types.Struct {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	st, _ := types.Unalias(t).Underlying().(*types.Struct)
	return st
}

// literal reads a composite literal of a configuration type
// (&retryablehttp.Client{RetryMax: 2}).
func (m *model) literal(cl *ast.CompositeLit) cfgVal {
	t, ok := m.rt.ConfigTypes[analysisutil.TypeKey(m.info.TypeOf(cl))]
	if !ok {
		return cfgVal{}
	}
	c := cfgVal{known: true, retries: t.Retries}
	if t.Delay != 0 {
		c.vary, c.varySet, c.varyNode = t.Delay, true, cl
		for _, el := range cl.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok && t.JitterField != "" && id.Name == t.JitterField {
					if f, ok := m.constFloat(kv.Value); !ok || f != 0 {
						c.vary, c.varyNode = knowledge.Randomised, nil
					}
				}
			}
		}
	}
	if t.CountField == "" {
		return c
	}
	c.attemptsSet, c.attempts = true, t.Plus
	for _, el := range cl.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Name == t.CountField {
			if n, ok := m.constInt(kv.Value); ok {
				c.attempts = int(n) + t.Plus
			} else {
				c.attempts, c.attemptsText = 0, boundText(kv.Value, t.Plus)
			}
		}
	}
	if c.attempts == 1 {
		c.retries = false
	}
	return c
}

// typeDefault is what the type of a configuration built out of sight says.
func (m *model) typeDefault(t types.Type) cfgVal {
	if t == nil {
		return cfgVal{}
	}
	if rt, ok := m.rt.ConfigTypes[analysisutil.TypeKey(t)]; ok {
		c := cfgVal{retries: rt.Retries}
		if rt.Delay != 0 && !rt.LiteralOnly {
			c.vary, c.varySet = rt.Delay, true
		}
		return c
	}
	return cfgVal{}
}

// delayFunc classifies a delay strategy (retry.FixedDelay,
// retry.CombineDelay(retry.BackOffDelay, retry.RandomDelay)).
func (m *model) delayFunc(e ast.Expr, depth int) knowledge.Variation {
	if e == nil || depth > 8 {
		return knowledge.VaryUnknown
	}
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok {
		fn, _ := m.callee(call)
		if fn == nil || !m.combine[analysisutil.Key(fn)] {
			return knowledge.VaryUnknown
		}
		var r knowledge.Variation
		for i, a := range call.Args {
			v := m.delayFunc(a, depth+1)
			if i == 0 {
				r = v
				continue
			}
			r = combineDelays(r, v)
		}
		return r
	}
	if lit := m.funcLitOf(e); lit != nil {
		if m.returnsOneConst(lit.Body) {
			return knowledge.Invariant
		}
		return knowledge.VaryUnknown
	}
	var obj types.Object
	switch x := e.(type) {
	case *ast.Ident:
		obj = m.info.Uses[x]
	case *ast.SelectorExpr:
		obj = m.info.Uses[x.Sel]
	}
	if fn, ok := obj.(*types.Func); ok {
		if v, ok := m.rt.DelayFuncs[analysisutil.Key(fn)]; ok {
			return v
		}
		if decl := m.x.decls[fn]; decl != nil && decl.Body != nil && m.returnsOneConst(decl.Body) {
			return knowledge.Invariant
		}
	}
	return knowledge.VaryUnknown
}

// returnsOneConst reports whether every return of a function body returns
// the same constant (a delay function returning 2 * time.Second: a fixed
// delay whatever the attempt).
func (m *model) returnsOneConst(body *ast.BlockStmt) bool {
	var val constant.Value
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) != 1 {
				ok = false
				return false
			}
			tv, has := m.info.Types[n.Results[0]]
			if !has || tv.Value == nil || val != nil && !constant.Compare(val, token.EQL, tv.Value) {
				ok = false
				return false
			}
			val = tv.Value
		}
		return true
	})
	return ok && val != nil
}

// combineDelays is how a sum of two strategies varies.
func combineDelays(a, b knowledge.Variation) knowledge.Variation {
	switch {
	case a == knowledge.Randomised || b == knowledge.Randomised:
		return knowledge.Randomised
	case a == knowledge.VaryUnknown || b == knowledge.VaryUnknown:
		return knowledge.VaryUnknown
	case a == knowledge.Grows || b == knowledge.Grows:
		return knowledge.Grows
	}
	return knowledge.Invariant
}

func (m *model) constFloat(e ast.Expr) (float64, bool) {
	if e == nil {
		return 0, false
	}
	tv, ok := m.info.Types[e]
	if !ok || tv.Value == nil {
		return 0, false
	}
	f, _ := constant.Float64Val(constant.ToFloat(tv.Value))
	return f, true
}

// helperCall records a call to a retry helper, or the construction of a
// retry configuration that is reported where it is built.
func (m *model) helperCall(call *ast.CallExpr, fnode ast.Node, decl *ast.FuncDecl) {
	fn, recv := m.callee(call)
	if fn == nil {
		return
	}
	key := analysisutil.Key(fn)
	if row, ok := m.rt.Helpers[key]; ok {
		c := cfgVal{}
		if row.Recv && recv != nil {
			c = m.evalConfig(recv, 0)
		}
		if row.Policy >= 0 {
			c = m.evalConfig(arg(call, row.Policy), 0)
			if !c.known && !c.retries {
				c.retries = true // a policy built out of sight: the helper still retries
			}
		}
		if row.Unlimited && !c.attemptsSet {
			c.unlimited = true
		}
		if row.TimeLimit {
			c.timeLimit = true // until an option removes it
		}
		if row.Opts >= 0 && !call.Ellipsis.IsValid() {
			for i := row.Opts; i < len(call.Args); i++ {
				if row.NeedsPolicy {
					p := m.evalConfig(call.Args[i], 0)
					if p.retries {
						c = p
					}
					continue
				}
				c = m.option(c, call.Args[i], 0)
			}
		}
		if row.NeedsPolicy && !c.retries {
			return
		}
		if (row.Recv && !row.NeedsPolicy) && !c.retries && c.known {
			return // retryablehttp with RetryMax 0
		}
		h := &Helper{Call: call, Fn: fn, Row: row, Site: true, Func: fnode, Decl: decl}
		h.Attempts = c.attempts
		if !c.attemptsSet {
			h.Attempts = row.Attempts
		} else if h.Attempts == 0 {
			h.AttemptsText = c.attemptsText
		}
		if h.Attempts == 1 {
			return // one attempt: no retry
		}
		h.Delay, h.DelayNode = c.effective(), c.varyNode
		if !c.varySet {
			h.Delay, h.DelayNode = row.Delay, nil
			if row.ChosenDelay {
				h.DelayNode = call // the helper itself waits so (retry.Constant(ctx, d, f))
			}
		}
		ctx := c.ctx || row.Ctx >= 0 && !m.neverEnds(arg(call, row.Ctx))
		h.Unlimited = c.unlimited && !c.timeLimit && !ctx
		h.Ops = m.ops(call, row)
		m.helpers = append(m.helpers, h)
		s := &site{helper: h, decl: decl, fn: fnode, attempts: h.Attempts, bound: h.AttemptsText, via: row.Lib, resil: row.Resil}
		if len(h.Ops) == 0 && fn.Pkg() != nil {
			// retryablehttp's Do: the helper retries an operation of its
			// own, so its failures are its own.
			s.closed = fn.Pkg().Path()
		}
		if row.Resil && row.Ctx >= 0 {
			s.ctxArg = arg(call, row.Ctx)
		}
		m.addSite(s)
		return
	}
	if row, ok := m.rt.Configs[key]; ok && row.Site {
		var c cfgVal
		if v := m.x.assigned[call]; v != nil && !m.x.addrTaken[v] {
			c = m.mutations(v, m.evalConfig(call, 0), 0)
		} else {
			c = m.evalConfig(call, 0)
		}
		if !c.retries {
			return
		}
		h := &Helper{Call: call, Fn: fn, Func: fnode, Decl: decl}
		h.Attempts = c.attempts
		h.Delay, h.DelayNode = c.effective(), c.varyNode
		h.Unlimited = c.unlimited && !c.timeLimit && !c.ctx
		m.helpers = append(m.helpers, h)
	}
}

// ops returns the operations a helper call retries.
func (m *model) ops(call *ast.CallExpr, row knowledge.RetryHelper) []ast.Expr {
	if row.Op >= 0 {
		if a := arg(call, row.Op); a != nil {
			return []ast.Expr{a}
		}
		return nil
	}
	var out []ast.Expr
	for _, a := range call.Args {
		if _, ok := types.Unalias(m.info.TypeOf(a)).Underlying().(*types.Signature); ok {
			out = append(out, a)
		}
	}
	return out
}
