package sleepretry_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/sleepretry"
)

func TestSleepRetry(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), sleepretry.Analyzer, "loops", "helpers")
}

func TestSleepRetryFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), sleepretry.Analyzer, "fixes")
}
