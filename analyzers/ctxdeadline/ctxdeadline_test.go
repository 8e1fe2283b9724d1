package ctxdeadline_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/ctxdeadline"
)

func TestCtxdeadline(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), ctxdeadline.Analyzer,
		"basic", "helpers", "usefwd", "generic", "alias", "grpcuse", "harness", "e2esuite", "svc/e2e", "svc/attest", "rhttp", "redisuse", "grpcfield", "local", "bounds", "reqhelpers", "rawconn", "linked", "sqlname", "grpcopts", "schema")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), ctxdeadline.Analyzer, "fixes")
}

// A module whose path has no dot (module svc) is the user's code, not the
// standard library: its packages export what their functions return.
func TestDotlessModule(t *testing.T) {
	analysistest.Run(t, filepath.Join(analysistest.TestData(), "dotless"), ctxdeadline.Analyzer, "./...")
}

// Rule 1: a database handle of unknown origin is on an embedded engine when
// the module's go.mod (go 1.17 or later: the whole build list) requires an
// embedded engine's driver and no driver of a database server.
func TestModuleSQLDrivers(t *testing.T) {
	for _, m := range []string{"sqlmod-embedded", "sqlmod-server", "sqlmod-old"} {
		t.Run(m, func(t *testing.T) {
			analysistest.Run(t, filepath.Join(analysistest.TestData(), m), ctxdeadline.Analyzer, "./migrations")
		})
	}
}
