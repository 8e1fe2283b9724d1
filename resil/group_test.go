package resil

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

func TestGroupNeverExceedsLimit(t *testing.T) {
	const limit = 4
	g := NewGroup(context.Background(), limit)
	var running, peak, ran atomic.Int64
	base := runtime.NumGoroutine()
	var peakGoroutines atomic.Int64
	for range 1000 {
		g.Go(func(context.Context) error {
			r := running.Add(1)
			for {
				p := peak.Load()
				if r <= p || peak.CompareAndSwap(p, r) {
					break
				}
			}
			if n := int64(runtime.NumGoroutine() - base); n > peakGoroutines.Load() {
				peakGoroutines.Store(n)
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
	if peakGoroutines.Load() > limit {
		t.Fatalf("the group had %d goroutines, limit %d", peakGoroutines.Load(), limit)
	}
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
