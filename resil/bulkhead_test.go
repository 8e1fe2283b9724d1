package resil

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestBulkheadNeverExceedsLimit: 10,000 goroutines through a bulkhead of 8
// with room for all of them to queue; at no moment do more than 8 run.
func TestBulkheadNeverExceedsLimit(t *testing.T) {
	const limit, n = 8, 10000
	b := NewBulkhead(limit, n)
	var running, peak, done atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			err := b.Do(context.Background(), func(context.Context) error {
				r := running.Add(1)
				for {
					p := peak.Load()
					if r <= p || peak.CompareAndSwap(p, r) {
						break
					}
				}
				runtime.Gosched() // let others try to get in while we hold the slot
				running.Add(-1)
				done.Add(1)
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	close(start)
	wg.Wait()
	if p := peak.Load(); p > limit || p < 1 {
		t.Fatalf("peak concurrency %d, limit %d", p, limit)
	}
	if done.Load() != n || b.InFlight() != 0 || b.Waiting() != 0 {
		t.Fatalf("done=%d inflight=%d waiting=%d", done.Load(), b.InFlight(), b.Waiting())
	}
}

func TestBulkheadRejectsBeyondQueue(t *testing.T) {
	b := NewBulkhead(2, 0)
	r1, _ := b.Acquire(context.Background())
	r2, _ := b.Acquire(context.Background())
	start := time.Now()
	release, err := b.Acquire(context.Background())
	if err != ErrBulkheadFull || time.Since(start) > time.Second {
		t.Fatalf("queue 0, all busy: err=%v", err)
	}
	release() // a no-op on error, safe to defer
	if b.InFlight() != 2 {
		t.Fatalf("releasing a failed Acquire freed a slot: inflight=%d", b.InFlight())
	}
	r1()
	r1() // extra release: must not free r2's slot
	if b.InFlight() != 1 {
		t.Fatalf("double release: inflight=%d", b.InFlight())
	}
	r2()
}

func TestBulkheadQueueWaitsAndRespectsContext(t *testing.T) {
	b := NewBulkhead(1, 1)
	hold, _ := b.Acquire(context.Background())

	// One waiter fits in the queue; a second is rejected at once.
	cause := errors.New("client went away")
	ctx, cancel := context.WithCancelCause(context.Background())
	waitErr := make(chan error)
	go func() {
		_, err := b.Acquire(ctx)
		waitErr <- err
	}()
	for b.Waiting() != 1 {
		runtime.Gosched()
	}
	if _, err := b.Acquire(context.Background()); err != ErrBulkheadFull {
		t.Fatalf("queue full: %v", err)
	}
	cancel(cause)
	if err := <-waitErr; err != cause {
		t.Fatalf("waiter got %v, want the context's cause", err)
	}

	// A waiter gets the slot when it is released.
	got := make(chan func())
	go func() {
		r, err := b.Acquire(context.Background())
		if err != nil {
			t.Error(err)
		}
		got <- r
	}()
	for b.Waiting() != 1 {
		runtime.Gosched()
	}
	hold()
	(<-got)()
	if b.InFlight() != 0 || b.Waiting() != 0 {
		t.Fatalf("inflight=%d waiting=%d", b.InFlight(), b.Waiting())
	}
}

func TestBulkheadBadLimits(t *testing.T) {
	b := NewBulkhead(-3, -1)
	if b.Limit() != 1 {
		t.Fatalf("limit %d, want 1", b.Limit())
	}
	if err := b.Do(context.Background(), succeed); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() { _ = recover() }()
		_ = b.Do(context.Background(), func(context.Context) error { panic("x") })
	}()
	if b.InFlight() != 0 {
		t.Fatal("a panicking call kept its slot")
	}
}

func TestBulkheadAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	b := NewBulkhead(4, 0)
	ctx := context.Background()
	if n := testing.AllocsPerRun(1000, func() { _ = b.Do(ctx, succeed) }); n != 0 {
		t.Errorf("Do: %v allocs", n)
	}
	if n := testing.AllocsPerRun(1000, func() { r, _ := b.Acquire(ctx); r() }); n > 2 {
		t.Errorf("Acquire: %v allocs, want at most 2 (the release guard)", n)
	}
}

// TestBulkheadCancelRace: waiters whose contexts end while slots are being
// handed over neither lose a slot nor keep one: at the end every slot is
// free, nobody waits, and the limit held throughout.
func TestBulkheadCancelRace(t *testing.T) {
	const limit, n = 3, 2000
	b := NewBulkhead(limit, n)
	var running, peak atomic.Int64
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i%7)*50*time.Microsecond)
			defer cancel()
			_ = b.Do(ctx, func(context.Context) error {
				r := running.Add(1)
				for {
					p := peak.Load()
					if r <= p || peak.CompareAndSwap(p, r) {
						break
					}
				}
				runtime.Gosched()
				running.Add(-1)
				return nil
			})
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > limit {
		t.Fatalf("peak concurrency %d, limit %d", p, limit)
	}
	if b.InFlight() != 0 || b.Waiting() != 0 {
		t.Fatalf("after all calls: inflight=%d waiting=%d", b.InFlight(), b.Waiting())
	}
	// Every slot is still usable.
	for range limit {
		if _, err := b.Acquire(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}
