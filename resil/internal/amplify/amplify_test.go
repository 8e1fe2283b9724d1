package amplify

import (
	"context"
	"os"
	"testing"

	"github.com/resilint/resilint/resil/internal/leaktest"
)

func TestMain(m *testing.M) { os.Exit(leaktest.Main(m)) }

// TestAmplification reproduces the seed's table: naive loops multiply
// (3, 9, 27, 81), resil.Retry with the context passed down does not (3 at
// every depth). Counted at the bottom server.
func TestAmplification(t *testing.T) {
	leaktest.Check(t)
	want := map[Mode][]int{Naive: {3, 9, 27, 81}, Resil: {3, 3, 3, 3}}
	for mode, counts := range want {
		for i, w := range counts {
			got, err := Count(context.Background(), i+1, mode)
			if err != nil {
				t.Fatal(err)
			}
			if got != w {
				t.Errorf("%v, depth %d: bottom server saw %d requests, want %d", mode, i+1, got, w)
			}
		}
	}
	if _, err := Count(context.Background(), 0, Naive); err == nil {
		t.Error("depth 0 accepted")
	}
}
