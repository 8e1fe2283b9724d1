package vetunit

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// restoreGC puts the test binary's collector back as the runtime set it.
func restoreGC(t *testing.T) {
	t.Cleanup(func() {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	})
}

func TestTuneGCObeysUser(t *testing.T) {
	restoreGC(t)
	t.Setenv("GOGC", "50")
	if tuneGC() {
		t.Fatal("tuneGC changed the collector although GOGC is set")
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "1GiB")
	if tuneGC() {
		t.Fatal("tuneGC changed the collector although GOMEMLIMIT is set")
	}
}

func TestTuneGCSmallThenLarge(t *testing.T) {
	restoreGC(t)
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	if !tuneGC() {
		t.Fatal("tuneGC did nothing with neither GOGC nor GOMEMLIMIT set")
	}
	if got := debug.SetMemoryLimit(-1); got != unitHeapLimit {
		t.Fatalf("memory limit %d, want %d", got, unitHeapLimit)
	}
	// A collection with a small live heap keeps collection off.
	runtime.GC()
	time.Sleep(50 * time.Millisecond)
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Fatalf("after a collection of a small heap GOGC is %d, want off (-1)", p)
	}
	// A live heap above half the limit: back to the default.
	big := make([][]byte, 0, 256)
	for i := 0; i < cap(big); i++ {
		big = append(big, make([]byte, unitHeapLimit/2/cap(big)+4096))
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		if p == 100 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("live heap above half the limit, GOGC still %d, want 100", p)
		}
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Fatalf("memory limit %d after going back to the default, want none", got)
	}
	runtime.KeepAlive(big)
}
