package retryloop_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/passes/retryloop"
)

// describe reports what the model says about each retry loop and helper
// call, so that tests can check it with // want comments.
func describe(cfg *config.Config) *analysis.Analyzer {
	rl := retryloop.New(cfg)
	return &analysis.Analyzer{
		Name:       "describe",
		Doc:        "reports the retry model of each loop and helper call (test only)",
		Requires:   []*analysis.Analyzer{rl},
		ResultType: reflect.TypeFor[bool](),
		Run: func(pass *analysis.Pass) (any, error) {
			res := pass.ResultOf[rl].(*retryloop.Result)
			for _, L := range res.Loops {
				var sleeps []string
				for _, s := range L.Sleeps {
					w := s.Vary.String()
					if s.CtxAware {
						w += "+ctx"
					}
					sleeps = append(sleeps, w)
				}
				bound := map[retryloop.Bound]string{retryloop.NoBound: "none", retryloop.VarBound: "var", retryloop.ConstBound: fmt.Sprint(L.Attempts)}[L.Bound]
				msg := fmt.Sprintf("loop attempts=%s exit=%v remote=%v sleeps=[%s]", bound, L.Exit, L.Remote, strings.Join(sleeps, " "))
				if len(L.Statuses) > 0 {
					msg += fmt.Sprintf(" statuses=%v", L.Statuses)
				}
				if len(L.Codes) > 0 {
					msg += fmt.Sprintf(" codes=%v", L.Codes)
				}
				if L.Predicate {
					msg += " predicate"
				}
				var bounds []string
				for _, b := range L.Bounds {
					bounds = append(bounds, b.Kind.String())
				}
				msg += " bounds=[" + strings.Join(bounds, " ") + "]"
				pass.Reportf(L.Stmt.Pos(), "%s", msg)
			}
			for _, h := range res.Helpers {
				pass.Reportf(h.Call.Pos(), "helper site=%v attempts=%d unlimited=%v delay=%s", h.Site, h.Attempts, h.Unlimited, h.Delay)
			}
			return true, nil
		},
	}
}

func TestModel(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), describe(config.Default()), "model")
}

func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retryloop.New(config.Default()), "facts")
}

// TestFactsAnyOrder: the facts do not depend on the order the model asks
// about the package's functions (a map's order, so each run differs).
// Before, an answer cut short by a depth limit inside one question was
// kept for the next: F2–F4 lost their RunsFact in some runs (and a
// sleepretry finding in a public module came and went between runs).
func TestFactsAnyOrder(t *testing.T) {
	for range 20 {
		analysistest.Run(t, analysistest.TestData(), retryloop.New(config.Default()), "runs")
		if t.Failed() {
			return
		}
	}
}
