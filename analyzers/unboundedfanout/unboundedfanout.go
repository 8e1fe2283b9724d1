package unboundedfanout

import (
	_ "embed"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
	"github.com/resilint/resilint/passes/ctxflow"
	launchpass "github.com/resilint/resilint/passes/launch"
)

//go:embed doc.go
var docSrc string

// Doc is the analyzer's documentation, from doc.go.
var Doc = analysisutil.MustDoc(docSrc, "unboundedfanout")

// Analyzer is unboundedfanout with the default configuration.
var Analyzer = New(config.Default())

// New returns the analyzer for a configuration.
func New(cfg *config.Config) *analysis.Analyzer {
	return cfg.Memo("unboundedfanout", func() *analysis.Analyzer {
		flow := ctxflow.New(cfg)
		lp := launchpass.New(cfg)
		return &analysis.Analyzer{
			Name:     Doc.Name,
			Doc:      Doc.Text(),
			URL:      "https://github.com/resilint/resilint/blob/main/analyzers/unboundedfanout/doc.go",
			Requires: []*analysis.Analyzer{flow, lp},
			Run:      func(pass *analysis.Pass) (any, error) { return run(pass, cfg, flow, lp) },
		}
	})
}

// A launch is a goroutine started in a loop, as the fixes read it: the
// launch pass's record.
type launch struct {
	rec   *launchpass.Launch
	node  ast.Node
	call  *ast.CallExpr
	fn    ast.Expr
	args  []ast.Expr
	spec  *knowledge.Launcher
	group ast.Expr
	loops []ast.Stmt
	stack []ast.Node
	where analysisutil.Where
}

func launchOf(r *launchpass.Launch) *launch {
	return &launch{rec: r, node: r.Node, call: r.Call, fn: r.Fn, args: r.Args, spec: r.Spec, group: r.Group,
		loops: r.Loops, stack: r.Stack, where: r.Where}
}

type checker struct {
	pass    *analysis.Pass
	cfg     *config.Config
	table   *knowledge.BoundTable
	flow    *ctxflow.Model
	res     *launchpass.Result
	rep     *analysisutil.Reporter
	names   analysisutil.Names // of the variables the fixes declare
	pending []pending          // findings waiting for their fixes (see flush)
}

func run(pass *analysis.Pass, cfg *config.Config, flowA, launchA *analysis.Analyzer) (any, error) {
	res := pass.ResultOf[launchA].(*launchpass.Result)
	if len(res.Launches) == 0 {
		return nil, nil
	}
	c := &checker{pass: pass, cfg: cfg, table: &cfg.Table().Bounds, flow: pass.ResultOf[flowA].(*ctxflow.Model),
		res: res, rep: analysisutil.NewReporter(pass, cfg)}
	for _, r := range res.Launches {
		if fanout(r) && !c.rep.Skip(r.Node.Pos()) {
			c.report(launchOf(r))
		}
	}
	c.flush()
	return nil, nil
}

// fanout is the analyzer's rule over a launch record: one goroutine per
// element or iteration of data (or more constant ones than the fan-out
// limit, each its own item), every one reaching remote outbound work whose
// dependency the element does not determine, not a worker or a service,
// and no limit anywhere on the path.
func fanout(r *launchpass.Launch) bool {
	switch r.Shape {
	case launchpass.ShapeItems, launchpass.ShapeConst:
	default:
		return false
	}
	return r.Reach == launchpass.ReachRemote && !r.Varies && !r.LongLived && len(r.Limits) == 0
}

// freshGroup reports whether e makes a launcher group with no limit.
func (c *checker) freshGroup(e ast.Expr) bool { return c.res.FreshGroup(e) }

func isGlobal(v *types.Var) bool { return v.Pkg() != nil && v.Parent() == v.Pkg().Scope() }

// rootVar returns the variable an expression (v, &v, *v) starts from.
func rootVar(info *types.Info, e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, _ := info.Uses[x].(*types.Var)
			return v
		case *ast.UnaryExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}
