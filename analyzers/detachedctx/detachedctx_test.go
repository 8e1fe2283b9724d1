package detachedctx_test

import (
	"testing"
	"time"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/detachedctx"
	"github.com/resilint/resilint/config"
)

func TestDetachedctx(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), detachedctx.Analyzer, "detached", "budget", "rediscache", "othersvc", "local", "deliberate", "senders", "linked", "github.com/minio/minio-go/v7")
}

func TestConfiguredBudget(t *testing.T) {
	cfg := config.Default()
	cfg.RequestBudget = config.Duration(5 * time.Second)
	cfg.BudgetEverywhere = true
	analysistest.Run(t, analysistest.TestData(), detachedctx.New(cfg), "budgetall")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), detachedctx.Analyzer, "fixes", "keepimport")
}
