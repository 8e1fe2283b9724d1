package outbound_test

import (
	"go/ast"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/outbound"
)

// locality reports the place of every outbound call and of every call of
// known local work.
var locality = func() *analysis.Analyzer {
	ob := outbound.New(config.Default())
	return &analysis.Analyzer{
		Name:     "locality",
		Doc:      "reports outbound.Result.Locality for tests",
		Requires: []*analysis.Analyzer{inspect.Analyzer, ob},
		Run: func(pass *analysis.Pass) (any, error) {
			res := pass.ResultOf[ob].(*outbound.Result)
			ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
			ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
				call := n.(*ast.CallExpr)
				p := res.Locality(call)
				c := res.ByCall[call]
				if c == nil {
					c = res.LocalByCall[call]
				}
				switch {
				case c != nil:
					pass.Reportf(call.Pos(), "%s: %s", c.Name(), p)
				case p.Locality != outbound.LocalityUnknown:
					fn, _ := res.Model.Callee(call)
					pass.Reportf(call.Pos(), "%s: %s", analysisutil.Name(fn), p)
				}
			})
			return nil, nil
		},
	}
}()

func TestLocality(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), locality, "locality", "sqlgraph", "sqlmixed", "handles/open", "handles", "loopback")
}

// evidence reports the evidence record of every outbound call.
var evidence = func() *analysis.Analyzer {
	ob := outbound.New(config.Default())
	return &analysis.Analyzer{
		Name:     "evidence",
		Doc:      "reports outbound.Call.Evidence for tests",
		Requires: []*analysis.Analyzer{ob},
		Run: func(pass *analysis.Pass) (any, error) {
			res := pass.ResultOf[ob].(*outbound.Result)
			for _, c := range res.Calls {
				pass.Reportf(c.Call.Pos(), "%s: %s", c.Name(), c.Evidence())
			}
			return nil, nil
		},
	}
}()

func TestEvidence(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), evidence, "evidence")
}
