// Package leaktest checks that tests leave no goroutine behind, without
// external dependencies: it compares the goroutines alive before and after
// (by ID, from a full stack dump), waiting a little for ones that are
// already on their way out.
package leaktest

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// settle is how long a check waits for new goroutines to exit. Generous:
// on a loaded CI machine a goroutine that has been told to stop may take a
// while to be scheduled; a real leak never exits.
const settle = 10 * time.Second

// ignored are goroutines the runtime or the testing package start on their
// own, which are not leaks of the code under test.
var ignored = []string{
	"os/signal.signal_recv",
	"runtime.ensureSigM",
	"testing.(*T).Parallel",
	"testing.runFuzzing",
	"runtime.ReadTrace",
	"testing.(*M).startAlarm",
	"testing.tRunner.func1", // waiting for subtests
	"runtime.runfinq",
}

// Check records the goroutines alive now and, when t's test ends, fails it
// if goroutines started since are still alive after a grace period. Tests
// that call Check must not call t.Parallel.
func Check(t testing.TB) {
	t.Helper()
	before := snapshot()
	t.Cleanup(func() {
		if leaked := waitFor(before); len(leaked) > 0 {
			t.Errorf("leaktest: %d goroutine(s) left behind:\n\n%s", len(leaked), strings.Join(leaked, "\n\n"))
		}
	})
}

// Main runs the tests and then checks that no goroutine started during the
// run is still alive. Use it from TestMain: os.Exit(leaktest.Main(m)).
func Main(m *testing.M) int {
	before := snapshot()
	code := m.Run()
	if leaked := waitFor(before); len(leaked) > 0 {
		fmt.Fprintf(os.Stderr, "leaktest: %d goroutine(s) left behind after the tests:\n\n%s\n", len(leaked), strings.Join(leaked, "\n\n"))
		if code == 0 {
			code = 1
		}
	}
	return code
}

// waitFor polls until every goroutine not in before has exited, or the
// grace period ends, and returns the stacks of those still alive.
func waitFor(before map[string]bool) []string {
	deadline := time.Now().Add(settle)
	for {
		var leaked []string
		for id, stack := range goroutines() {
			if !before[id] && !isIgnored(stack) {
				leaked = append(leaked, stack)
			}
		}
		if len(leaked) == 0 || time.Now().After(deadline) {
			return leaked
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func snapshot() map[string]bool {
	ids := map[string]bool{}
	for id := range goroutines() {
		ids[id] = true
	}
	return ids
}

// goroutines returns the stack of every goroutine, keyed by its ID.
func goroutines() map[string]string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	out := map[string]string{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		// "goroutine 7 [chan receive]:\n..."
		head, _, _ := strings.Cut(g, "\n")
		f := strings.Fields(head)
		if len(f) < 2 || f[0] != "goroutine" {
			continue
		}
		out[f[1]] = g
	}
	return out
}

func isIgnored(stack string) bool {
	for _, s := range ignored {
		if strings.Contains(stack, s) {
			return true
		}
	}
	return false
}
