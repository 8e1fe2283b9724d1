package globalbreaker_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/globalbreaker"
	"github.com/resilint/resilint/config"
)

func TestShared(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), globalbreaker.Analyzer, "shared", "svc", "fix", "fixlocal")
}

// TestAcrossPackages calls helpers of other packages that run their
// function argument through a breaker (facts on the helpers).
func TestAcrossPackages(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), globalbreaker.Analyzer, "guard", "guardvia", "warm")
}

func TestSettings(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), globalbreaker.Analyzer, "settings")
}

func TestNeverTrips(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), globalbreaker.Analyzer, "nevertrips")
}

// TestCustomBreaker declares a team's own breaker type by configuration.
func TestCustomBreaker(t *testing.T) {
	cfg := config.Default()
	cfg.Breakers = []config.BreakerRule{{Package: "example.com/mybreaker", Type: "*Breaker", Methods: []string{"Call", "Begin"}}}
	if err := cfg.Err(); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, analysistest.TestData(), globalbreaker.New(cfg), "custom")
}

// TestNoResil: in a module that does not require resil, no fix imports it.
func TestNoResil(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, filepath.Join(analysistest.TestData(), "plain"), globalbreaker.Analyzer, "plainbreaker")
}
