package permanentretry_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/permanentretry"
)

func TestPermanentRetry(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), permanentretry.Analyzer, "permanent", "predicates", "permhelper", "svcconfig", "opretry")
}
