package nestedretry_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/nestedretry"
)

func TestNestedRetry(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), nestedretry.Analyzer, "nested/a", "nested/b", "nested/c", "nested/cases")
}
