package resil

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestGroupNeverExceedsLimit(t *testing.T) {
	const limit = 4
	g := NewGroup(context.Background(), limit)
	var running, peak, ran atomic.Int64
	var peakWorkers atomic.Int64
	for i := range 1000 {
		g.Go(func(context.Context) error {
			r := running.Add(1)
			for {
				p := peak.Load()
				if r <= p || peak.CompareAndSwap(p, r) {
					break
				}
			}
			// Count the group's goroutines themselves, now and then: a
			// process-wide count (runtime.NumGoroutine) also sees other
			// tests' goroutines on their way out.
			if i%50 == 0 {
				if n := int64(groupWorkers()); n > peakWorkers.Load() {
					peakWorkers.Store(n)
				}
			}
			runtime.Gosched()
			running.Add(-1)
			ran.Add(1)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if peak.Load() > limit || ran.Load() != 1000 {
		t.Fatalf("peak %d (limit %d), ran %d", peak.Load(), limit, ran.Load())
	}
	if p := peakWorkers.Load(); p > limit || p < 1 {
		t.Fatalf("the group had %d goroutines, limit %d", p, limit)
	}
}

// groupWorkers counts the goroutines running a Group's worker loop, from a
// dump of every goroutine's stack.
func groupWorkers() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := 0
	for _, stack := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(stack, "resil.(*Group).work(") {
			count++
		}
	}
	return count
}

func TestGroupStopsAfterFirstError(t *testing.T) {
	g := NewGroup(context.Background(), 1)
	var ran []int
	first := errors.New("item 3 failed")
	for i := range 10 {
		g.Go(func(ctx context.Context) error {
			ran = append(ran, i) // limit 1: no data race
			switch {
			case i == 3:
				return first
			case i > 3:
				return errors.New("later error")
			}
			return nil
		})
	}
	if err := g.Wait(); err != first {
		t.Fatalf("Wait = %v, want the first error", err)
	}
	if len(ran) != 4 {
		t.Fatalf("ran %v: nothing may start after the first error", ran)
	}
}

func TestGroupContextCancelledByFailure(t *testing.T) {
	g := NewGroup(context.Background(), 2)
	cancelled := make(chan error, 1)
	started := make(chan struct{})
	g.Go(func(ctx context.Context) error {
		close(started)
		<-ctx.Done()
		cancelled <- context.Cause(ctx)
		return ctx.Err()
	})
	g.Go(func(context.Context) error { <-started; return errBoom })
	if err := g.Wait(); err != errBoom {
		t.Fatalf("Wait = %v", err)
	}
	if c := <-cancelled; c != errBoom {
		t.Fatalf("sibling saw cause %v, want the failure", c)
	}
}

func TestGroupGoRespectsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	g := NewGroup(ctx, 1)
	release := make(chan struct{})
	g.Go(func(context.Context) error { <-release; return nil })
	returned := make(chan struct{})
	go func() {
		g.Go(func(context.Context) error { t.Error("ran after cancel"); return nil })
		close(returned)
	}()
	time.Sleep(5 * time.Millisecond) // let the second Go block on the full group
	cancel()
	select {
	case <-returned:
	case <-time.After(5 * time.Second):
		t.Fatal("Go kept blocking after the context was cancelled")
	}
	close(release)
	if err := g.Wait(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait = %v, want the cancellation (work was skipped)", err)
	}
}

func TestGroupCleanRun(t *testing.T) {
	g := NewGroup(context.Background(), 0) // counts as 1
	n := 0
	for range 5 {
		g.Go(func(context.Context) error { n++; return nil })
	}
	if err := g.Wait(); err != nil || n != 5 {
		t.Fatalf("err=%v n=%d", err, n)
	}
	g2 := NewGroup(context.Background(), 2)
	g2.Go(nil)
	if err := g2.Wait(); err != ErrNilOperation {
		t.Fatalf("nil fn: %v", err)
	}
}

func TestForEach(t *testing.T) {
	items := make([]int, 100)
	for i := range items {
		items[i] = i
	}
	var sum atomic.Int64
	if err := ForEach(context.Background(), items, 8, func(_ context.Context, v int) error {
		sum.Add(int64(v))
		return nil
	}); err != nil || sum.Load() != 4950 {
		t.Fatalf("err=%v sum=%d", err, sum.Load())
	}
	var calls atomic.Int64
	err := ForEach(context.Background(), items, 1, func(_ context.Context, v int) error {
		calls.Add(1)
		if v == 10 {
			return errBoom
		}
		return nil
	})
	if err != errBoom || calls.Load() != 11 {
		t.Fatalf("err=%v calls=%d, want errBoom after 11 calls", err, calls.Load())
	}
	if err := ForEach[int](context.Background(), nil, 4, nil); err != ErrNilOperation {
		t.Fatalf("nil fn: %v", err)
	}
}
