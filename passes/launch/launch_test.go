package launch_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/passes/launch"
)

// TestFacts checks the WorkFacts the pass exports: the remote work a
// function reaches, its dependency written in the function's parameters,
// the limits that hold around it, and whether the function loops until it
// is stopped.
func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), launch.New(config.Default()), "reach")
}
