package fan

import (
	"context"
	"errors"
	"os"
	"testing"

	"example.com/behavemod/probe"
)

// limit is resilint's default -fanout-fix-limit. With RESILINT_FIXED set
// (the end-to-end test sets it after resilint -fix), the shapes the fixes
// bound must be observed bounded; before, they run one goroutine per item.
const limit = 16

var fixed = os.Getenv("RESILINT_FIXED") != ""

func items(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func bounded(t *testing.T, p *probe.Probe, max int) {
	t.Helper()
	switch {
	case fixed && p.Peak() > max:
		t.Errorf("peak %d goroutines at once, want at most %d after the fix", p.Peak(), max)
	case !fixed:
		t.Logf("peak %d goroutines at once (unbounded)", p.Peak())
	}
}

func TestFanIn(t *testing.T) {
	p := &probe.Probe{}
	n, err := FanIn(context.Background(), p, items(64))
	if n != 64 || err != nil {
		t.Fatalf("FanIn = %d, %v; want 64, nil", n, err)
	}
	bounded(t, p, limit)
}

func TestBuffered(t *testing.T) {
	p := &probe.Probe{}
	if n := Buffered(context.Background(), p, items(64)); n != 64 {
		t.Fatalf("Buffered = %d, want 64", n)
	}
	bounded(t, p, limit)
}

func TestCounted(t *testing.T) {
	p := &probe.Probe{}
	n, err := Counted(context.Background(), p, items(64))
	if n != 64 || err != nil {
		t.Fatalf("Counted = %d, %v; want 64, nil", n, err)
	}
	bounded(t, p, limit)
}

func TestMutex(t *testing.T) {
	p := &probe.Probe{}
	if errs := Mutex(context.Background(), p, items(64)); len(errs) != 0 || p.Calls() != 64 {
		t.Fatalf("Mutex = %v after %d calls; want no errors after 64", errs, p.Calls())
	}
	bounded(t, p, limit)
}

// An already-cancelled caller still gets the context's error for every
// item: no item is skipped, none turns into a silent success.
func TestEachCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := &probe.Probe{}
	errs := Each(ctx, p, items(40))
	for i, err := range errs {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("item %d: error %v, want context.Canceled", i, err)
		}
	}
	if p.Calls() != 40 {
		t.Errorf("%d calls, want 40: items were skipped", p.Calls())
	}
}

func TestEach(t *testing.T) {
	p := &probe.Probe{}
	for i, err := range Each(context.Background(), p, items(64)) {
		if err != nil {
			t.Errorf("item %d: %v", i, err)
		}
	}
	bounded(t, p, limit)
}

func TestGroup(t *testing.T) {
	p := &probe.Probe{}
	if err := Group(context.Background(), p, items(64)); err != nil {
		t.Fatal(err)
	}
	bounded(t, p, limit)
	// Wait's error is the first failure, as before.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Group(ctx, &probe.Probe{}, items(20)); !errors.Is(err, context.Canceled) {
		t.Errorf("Group on a cancelled context = %v, want context.Canceled", err)
	}
}

// Nested groups: the bound of the nest is the product of the limits.
func TestNested(t *testing.T) {
	outer, inner := &probe.Probe{}, &probe.Probe{}
	batches := make([][]int, 32)
	for i := range batches {
		batches[i] = items(24)
	}
	if err := Nested(context.Background(), outer, inner, batches); err != nil {
		t.Fatal(err)
	}
	if inner.Calls() != 32*24 {
		t.Fatalf("%d calls, want %d", inner.Calls(), 32*24)
	}
	bounded(t, outer, limit)
	bounded(t, inner, limit*limit)
}

func TestCollector(t *testing.T) {
	p := &probe.Probe{}
	n, err := Collector(context.Background(), p, items(64))
	if n != 64 || err != nil {
		t.Fatalf("Collector = %d, %v; want 64, nil", n, err)
	}
	bounded(t, p, limit)
}

// Shapes a limit would deadlock: they must still complete (no fix).
func TestFedAfter(t *testing.T) {
	if n := FedAfter(context.Background(), &probe.Probe{}, items(64)); n != 64 {
		t.Fatalf("FedAfter = %d, want 64", n)
	}
}

func TestStartSignal(t *testing.T) {
	if err := StartSignal(context.Background(), &probe.Probe{}, items(64)); err != nil {
		t.Fatal(err)
	}
}
