package globalbreaker

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

const (
	whyTrip  = "one timeout in a thousand requests should not trip it"
	whyProbe = "flooding a recovering service re-opens it"
	whyOne   = "one failed request should not trip it"
)

// checkCall checks a call's breaker settings: options with a constant
// argument, and constructors whose defaults trip on a single failure.
func (c *checker) checkCall(cs *callSite) {
	if cs.fn.Pkg() == c.pass.Pkg {
		return // the library itself
	}
	key := analysisutil.Key(cs.fn)
	if s, ok := c.table.Options[key]; ok && s.Arg >= 0 && s.Arg < len(cs.call.Args) {
		what := analysisutil.Name(cs.fn)
		var at ast.Node = cs.call
		if sel, ok := ast.Unparen(cs.call.Fun).(*ast.SelectorExpr); ok {
			// In a chain of calls, report at this one's name.
			what, at = sel.Sel.Name, span{sel.Sel.Pos(), cs.call.End()}
		}
		c.checkValue(s, cs.call.Args[s.Arg], at, what+"("+analysisutil.Format(c.pass.Fset, cs.call.Args[s.Arg])+")")
	}
	ctor, ok := c.table.Ctors[key]
	if !ok {
		return
	}
	switch {
	case ctor.Default && !ctor.Builder:
		c.rep.Report(analysis.Diagnostic{
			Pos: cs.call.Pos(), End: cs.call.End(),
			Message: fmt.Sprintf("%s opens the breaker on a single failure (the library's default): %s; set a failure threshold over a minimum number of executions (for example WithFailureRateThreshold)",
				analysisutil.Name(cs.fn), whyTrip),
		})
	case ctor.FromBuilder:
		if start := c.unconfiguredBuilder(cs.recv, 0); start != nil {
			c.rep.Report(analysis.Diagnostic{
				Pos: cs.call.Pos(), End: cs.call.End(),
				Message: fmt.Sprintf("this breaker sets no failure threshold, so it opens on a single failure (the default of %s): %s; set one over a minimum number of executions (for example WithFailureRateThreshold)",
					analysisutil.Name(start), whyTrip),
			})
		}
	}
}

// span is a range of source for reports.
type span struct{ pos, end token.Pos }

func (s span) Pos() token.Pos { return s.pos }
func (s span) End() token.Pos { return s.end }

// unconfiguredBuilder follows a builder chain back to the constructor that
// started it and returns that constructor when it trips on one failure by
// default and no call of the chain sets a failure threshold. It returns nil
// when the chain is not fully visible.
func (c *checker) unconfiguredBuilder(e ast.Expr, depth int) *types.Func {
	if depth > 32 || e == nil {
		return nil
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	fn, recv := c.flow.Callee(call)
	if fn == nil {
		return nil
	}
	key := analysisutil.Key(fn)
	if s, ok := c.table.Options[key]; ok && (s.Kind == knowledge.TripCount || s.Kind == knowledge.Threshold) {
		return nil
	}
	if ctor, ok := c.table.Ctors[key]; ok && ctor.Builder {
		if ctor.Default {
			return fn
		}
		return nil
	}
	if recv == nil {
		return nil
	}
	return c.unconfiguredBuilder(recv, depth+1)
}

// checkLiteral checks the fields of a settings literal.
func (c *checker) checkLiteral(lit *ast.CompositeLit) {
	t := c.pass.TypesInfo.TypeOf(lit)
	tk := analysisutil.TypeKey(t)
	if tk == "" || knowledge.PathOf(tk) == c.pass.Pkg.Path() {
		return
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		id, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		if s, ok := c.table.Settings[tk+"."+id.Name]; ok {
			c.checkValue(s, kv.Value, kv, id.Name)
		}
	}
}

// checkAssign checks assignments to settings fields (st.MaxRequests = 100)
// and to the libraries' default variables (hystrix.DefaultVolumeThreshold = 1).
func (c *checker) checkAssign(as *ast.AssignStmt) {
	if as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
		return
	}
	info := c.pass.TypesInfo
	for i, lhs := range as.Lhs {
		sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
		if !ok {
			continue
		}
		var key string
		if s, ok := info.Selections[sel]; ok {
			if s.Kind() != types.FieldVal {
				continue
			}
			key = analysisutil.TypeKey(s.Recv()) + "." + sel.Sel.Name
		} else if v, ok := info.Uses[sel.Sel].(*types.Var); ok {
			key = analysisutil.VarKey(v)
		}
		if s, ok := c.table.Settings[key]; ok && knowledge.PathOf(key) != c.pass.Pkg.Path() {
			c.checkValue(s, as.Rhs[i], as, sel.Sel.Name)
		}
	}
}

// checkValue judges one setting's value and reports at node.
func (c *checker) checkValue(s knowledge.Setting, value ast.Expr, node ast.Node, what string) {
	switch s.Kind {
	case knowledge.TripCount:
		v, ok := constNumber(c.pass.TypesInfo, value)
		if ok && s.BelowOneIsOne && v < 1 {
			v = 1
		}
		if !ok || v <= 0 || v > 1 {
			return
		}
		if s.Volume {
			c.rep.Report(analysis.Diagnostic{
				Pos: node.Pos(), End: node.End(),
				Message: fmt.Sprintf("%s opens the breaker on a single failure (with a minimum volume of one request, the first request of a window failing is a 100%% failure rate): %s; require a minimum number of requests, such as 20", settingText(what, value, c), whyOne),
			})
			return
		}
		c.rep.Report(analysis.Diagnostic{
			Pos: node.Pos(), End: node.End(),
			Message: fmt.Sprintf("%s opens the breaker on a single failure: %s; trip on a failure rate over a minimum number of requests", settingText(what, value, c), whyTrip),
		})
	case knowledge.Probes:
		v, ok := constNumber(c.pass.TypesInfo, value)
		if !ok || v <= float64(c.cfg.MaxHalfOpen) {
			return
		}
		c.rep.Report(analysis.Diagnostic{
			Pos: node.Pos(), End: node.End(),
			Message: fmt.Sprintf("%s lets %s probes through while the breaker is half open: %s; allow at most %d", settingText(what, value, c), analysisutil.Format(c.pass.Fset, value), whyProbe, c.cfg.MaxHalfOpen),
		})
	case knowledge.TripFunc:
		body, param := c.predicate(value)
		if body == nil {
			return
		}
		for _, sample := range c.table.Counts[analysisutil.TypeKey(param.Type())] {
			ev := &evaluator{info: c.pass.TypesInfo, decl: c.flow.Decl, counts: map[*types.Var]bool{param: true}, scenario: sample.Values, env: map[*types.Var]val{}}
			r, ok := ev.body(body)
			if !ok || r.kind != kBool || !r.b {
				continue
			}
			c.rep.Report(analysis.Diagnostic{
				Pos: node.Pos(), End: node.End(),
				Message: fmt.Sprintf("%s opens the breaker on a single failure (it is true when %s): %s; trip on a failure rate over a minimum volume, such as counts.Requests >= 20 && counts.TotalFailures*2 >= counts.Requests", what, sample.When, sample.Why),
			})
			return
		}
	}
}

func settingText(what string, value ast.Expr, c *checker) string {
	if strings.HasSuffix(what, ")") {
		return what
	}
	return what + " " + analysisutil.Format(c.pass.Fset, value)
}

// predicate returns the body of a trip predicate (a function literal or a
// function of the package) and its counts parameter.
func (c *checker) predicate(e ast.Expr) (*ast.BlockStmt, *types.Var) {
	var ft *ast.FuncType
	var body *ast.BlockStmt
	switch x := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		ft, body = x.Type, x.Body
	case *ast.Ident:
		fn, ok := c.pass.TypesInfo.Uses[x].(*types.Func)
		if !ok {
			return nil, nil
		}
		decl := c.flow.Decl(fn)
		if decl == nil || decl.Recv != nil {
			return nil, nil
		}
		ft, body = decl.Type, decl.Body
	default:
		return nil, nil
	}
	if ft.Params == nil || len(ft.Params.List) != 1 || len(ft.Params.List[0].Names) > 1 {
		return nil, nil
	}
	field := ft.Params.List[0]
	if len(field.Names) == 0 {
		// An unnamed parameter: the predicate cannot read the counts.
		return body, types.NewVar(field.Pos(), c.pass.Pkg, "_", c.pass.TypesInfo.TypeOf(field.Type))
	}
	v, ok := c.pass.TypesInfo.Defs[field.Names[0]].(*types.Var)
	if !ok {
		return nil, nil
	}
	return body, v
}

func constNumber(info *types.Info, e ast.Expr) (float64, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil {
		return 0, false
	}
	switch tv.Value.Kind() {
	case constant.Int, constant.Float:
		f, _ := constant.Float64Val(tv.Value)
		return f, true
	}
	return 0, false
}
