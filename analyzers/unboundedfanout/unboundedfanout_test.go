package unboundedfanout_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/unboundedfanout"
	"github.com/resilint/resilint/config"
)

func TestFanout(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unboundedfanout.Analyzer, "fanout", "bounded", "sqlitestore", "ownpanic")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), unboundedfanout.Analyzer, "fixes")
}

// TestCustomBound declares a team's own concurrency bound by configuration.
func TestCustomBound(t *testing.T) {
	cfg := config.Default()
	cfg.Bounds = []config.BoundRule{{Package: "example.com/mybounds", Type: "Limiter", Func: "Wait"}}
	if err := cfg.Err(); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, analysistest.TestData(), unboundedfanout.New(cfg), "custom")
}

// TestFixesWithoutResil: in a module that does not require resil, the fix
// must not import it.
func TestFixesWithoutResil(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, filepath.Join(analysistest.TestData(), "plain"), unboundedfanout.Analyzer, "plain")
}

// TestFixesOldErrgroup: an errgroup without SetLimit gets a semaphore.
func TestFixesOldErrgroup(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, filepath.Join(analysistest.TestData(), "oldsync"), unboundedfanout.Analyzer, "oldsync")
}

// TestFixMessages: the fixes of a nest of fan-outs state the bound of the
// whole nest; those of a module without resil name it.
func TestFixMessages(t *testing.T) {
	results := analysistest.Run(t, filepath.Join(analysistest.TestData(), "plain"), unboundedfanout.Analyzer, "plain")
	want := map[int]string{
		15: "resil.NewGroup does it with cancellation, once the module requires github.com/resilint/resilint/resil",
		37: "each of them starts goroutines in a loop of its own: with those limited to 16 too, the nest runs up to 16×16 = 256 at once",
		42: "per goroutine of the enclosing loop's launches: with those limited to 16 too, the nest runs up to 16×16 = 256 at once",
	}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			line := r.Pass.Fset.Position(d.Pos).Line
			w, ok := want[line]
			if !ok {
				continue
			}
			delete(want, line)
			if len(d.SuggestedFixes) == 0 || !strings.Contains(d.SuggestedFixes[0].Message, w) {
				t.Errorf("line %d: fix %v, want a message with %q", line, d.SuggestedFixes, w)
			}
		}
	}
	for line := range want {
		t.Errorf("line %d: no finding", line)
	}
}
