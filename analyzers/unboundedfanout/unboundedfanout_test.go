package unboundedfanout_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/unboundedfanout"
	"github.com/resilint/resilint/config"
)

func TestFanout(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unboundedfanout.Analyzer, "fanout", "bounded", "sqlitestore")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), unboundedfanout.Analyzer, "fixes")
}

// TestCustomBound declares a team's own concurrency bound by configuration.
func TestCustomBound(t *testing.T) {
	cfg := config.Default()
	cfg.Bounds = []config.BoundRule{{Package: "example.com/mybounds", Type: "Limiter", Func: "Wait"}}
	if err := cfg.Err(); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, analysistest.TestData(), unboundedfanout.New(cfg), "custom")
}
