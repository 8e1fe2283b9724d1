package unboundedfanout_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/unboundedfanout"
)

func TestFanout(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unboundedfanout.Analyzer, "fanout", "bounded")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), unboundedfanout.Analyzer, "fixes")
}
