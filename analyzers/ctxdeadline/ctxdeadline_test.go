package ctxdeadline_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/ctxdeadline"
)

func TestCtxdeadline(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), ctxdeadline.Analyzer,
		"basic", "helpers", "usefwd", "generic", "alias", "grpcuse", "harness", "svc/e2e", "svc/attest", "rhttp", "redisuse", "grpcfield", "local", "bounds", "reqhelpers", "rawconn", "linked")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), ctxdeadline.Analyzer, "fixes")
}
