package sleepretry_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/sleepretry"
)

func TestSleepRetry(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), sleepretry.Analyzer, "loops", "helpers", "itercross")
}

func TestSleepRetryFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), sleepretry.Analyzer, "fixes")
}

// TestNoResil: in a module that does not require resil, no fix imports it.
func TestNoResil(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, filepath.Join(analysistest.TestData(), "plain"), sleepretry.Analyzer, "plainretry")
}
