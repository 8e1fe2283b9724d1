package vetunit

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// A unit is a short-lived process: it parses and type-checks one package,
// analyses it and exits. Most units allocate less in all than the go
// command or the compiler hold at their peak, and with the runtime's
// default (a collection each time the heap doubles) they spend a fifth of
// their CPU time collecting garbage they would free anyway by exiting.
//
// So a unit starts with collection off below unitHeapLimit: no cycle runs
// until the heap reaches it. A unit that does reach it is collected there
// (the memory limit), and one whose live heap is then more than half the
// limit goes back to the runtime's default for the rest of its run, so its
// peak is what it would have been (about twice its live heap), never a
// cycle at every small step above the limit. A GOGC or GOMEMLIMIT set by
// the user is obeyed instead.
const unitHeapLimit = 256 << 20

// tuneGC applies the policy above; it reports whether it did.
func tuneGC() bool {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return false
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(unitHeapLimit)
	armGCWatch()
	return true
}

// gcSentinel is garbage from the start: its finalizer runs after the next
// collection, which is when the live heap is known.
type gcSentinel struct{ _ [16]byte }

func armGCWatch() {
	runtime.SetFinalizer(new(gcSentinel), func(*gcSentinel) {
		if liveHeap() > unitHeapLimit/2 {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			return
		}
		armGCWatch()
	})
}

// liveHeap returns the bytes of heap marked live by the last collection.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return math.MaxUint64 // unknown: take the default
	}
	return s[0].Value.Uint64()
}
