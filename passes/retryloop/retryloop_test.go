package retryloop_test

import (
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

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
	analysistest.Run(t, analysistest.TestData(), retryloop.New(config.Default()), "facts", "cycles")
}

// TestFactsAnyOrder: the facts do not depend on the order the model asks
// about the package's functions (a map's order, so each run differs).
// Before, an answer cut short by a depth limit inside one question was
// kept for the next: F2–F4 lost their RunsFact in some runs (and a
// sleepretry finding in a public module came and went between runs).
// analysistest checks the facts of one run against the // want comments;
// 20 more runs on the same loaded packages (loading from source is most
// of a run's cost) must export exactly those facts.
func TestFactsAnyOrder(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), retryloop.New(config.Default()), "runs")
	if t.Failed() || len(results) != 1 {
		return
	}
	want := factStrings(results[0].Facts)
	dir, err := filepath.Abs(analysistest.TestData())
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax | packages.NeedModule,
		Dir:  dir,
		Env:  append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, "runs")
	if err != nil || len(pkgs) != 1 || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("loading runs: %v", err)
	}
	for i := range 20 {
		g, err := checker.Analyze([]*analysis.Analyzer{retryloop.New(config.Default())}, pkgs, nil)
		if err != nil {
			t.Fatal(err)
		}
		facts := map[types.Object][]analysis.Fact{}
		for _, act := range g.Roots {
			for _, f := range act.AllObjectFacts() {
				if f.Object.Pkg() == act.Package.Types {
					facts[f.Object] = append(facts[f.Object], f.Fact)
				}
			}
		}
		if got := factStrings(facts); !reflect.DeepEqual(got, want) {
			t.Fatalf("run %d exported\n%s\nwant (as in the checked run)\n%s", i+1, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// factStrings lists object facts as "object: fact", sorted.
func factStrings(facts map[types.Object][]analysis.Fact) []string {
	var out []string
	for obj, fs := range facts {
		if obj == nil {
			continue // package facts
		}
		for _, f := range fs {
			out = append(out, obj.Name()+": "+fmt.Sprint(f))
		}
	}
	sort.Strings(out)
	return out
}
