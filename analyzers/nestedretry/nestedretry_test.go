package nestedretry_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/nestedretry"
	"github.com/resilint/resilint/config"
)

func TestNestedRetry(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), nestedretry.Analyzer, "nested/a", "nested/b", "nested/c", "nested/cases", "nested/param", "nested/retryx", "nested/ownhelper", "nested/v5use", "nested/classes", "nested/cfgmake")
}

// A team's own retry helper from the configuration is a retry layer.
func TestConfiguredHelper(t *testing.T) {
	cfg := config.Default()
	cfg.RetryHelpers = []config.RetryRule{{Package: "nested/own", Func: "Do", Attempts: 4}}
	if err := cfg.Err(); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, analysistest.TestData(), nestedretry.New(cfg), "nested/usecfg")
}
