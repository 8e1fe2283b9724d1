package ctxdeadline_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/ctxdeadline"
)

func TestBasic(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), ctxdeadline.Analyzer, "basic")
}
