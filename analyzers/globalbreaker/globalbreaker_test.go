package globalbreaker_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/globalbreaker"
)

func TestShared(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), globalbreaker.Analyzer, "shared", "svc", "fix")
}

func TestSettings(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), globalbreaker.Analyzer, "settings")
}

func TestNeverTrips(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), globalbreaker.Analyzer, "nevertrips")
}
