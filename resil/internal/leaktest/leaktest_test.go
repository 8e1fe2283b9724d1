package leaktest

import (
	"testing"
	"time"
)

// TestDetectsLeak proves the check can fail: a goroutine blocked forever is
// reported, one that exits in time is not.
func TestDetectsLeak(t *testing.T) {
	before := snapshot()
	stop := make(chan struct{})
	go func() { <-stop }()
	if leaked := waitForWithin(before, 50*time.Millisecond); len(leaked) != 1 {
		t.Fatalf("blocked goroutine: got %d leaks, want 1", len(leaked))
	}
	close(stop)
	if leaked := waitFor(before); len(leaked) != 0 {
		t.Fatalf("after release: got %d leaks, want 0:\n%v", len(leaked), leaked)
	}
}

// waitForWithin is waitFor with a short grace period, so the failing case
// does not take the full settle time.
func waitForWithin(before map[string]bool, d time.Duration) []string {
	time.Sleep(d)
	var leaked []string
	for id, stack := range goroutines() {
		if !before[id] && !isIgnored(stack) {
			leaked = append(leaked, stack)
		}
	}
	return leaked
}
