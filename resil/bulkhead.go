package resil

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
)

// ErrBulkheadFull is returned when a bulkhead has no free slot and its
// queue is full.
var ErrBulkheadFull = errors.New("resil: bulkhead full")

// A Bulkhead bounds the calls in flight to a dependency: at most limit run
// at once, at most queue more wait for a slot (in arrival order), and any
// call beyond that is rejected at once with [ErrBulkheadFull]. Waiting
// respects the caller's context. A Bulkhead is safe for concurrent use.
//
// Taking and giving back a free slot is one atomic compare-and-swap and one
// atomic add: cheaper than a channel semaphore, whose every operation takes
// the channel's lock. Only callers that must wait take a mutex; a released
// slot is handed to the longest waiter (a caller that arrives at that very
// moment may take it first, as with sync.Mutex).
type Bulkhead struct {
	taken   atomic.Int64 // slots in use
	waiting atomic.Int64 // callers queued, or about to queue (only changed under mu)
	limit   int64
	queue   int64

	mu      sync.Mutex
	waiters []chan struct{} // FIFO; closing one hands its caller a slot
}

// NewBulkhead returns a bulkhead with limit slots and room for queue
// waiters. queue 0 rejects whenever all slots are busy. A limit below 1
// counts as 1 (a bulkhead that admits nothing is never what is meant); a
// negative queue counts as 0.
func NewBulkhead(limit, queue int) *Bulkhead {
	return &Bulkhead{limit: int64(max(limit, 1)), queue: int64(max(queue, 0))}
}

// Do runs fn in a slot: it waits for one (if the queue has room) and
// returns ErrBulkheadFull, or context.Cause(ctx) if ctx ends first, without
// calling fn. Otherwise it returns fn's error. The slot is released when fn
// returns, even if it panics.
func (b *Bulkhead) Do(ctx context.Context, fn func(ctx context.Context) error) error {
	if err := b.acquire(ctx); err != nil {
		return err
	}
	defer b.release()
	return fn(ctx)
}

// Acquire takes a slot, waiting as Do does, and returns the function that
// gives it back. Calls to release after the first are ignored, and on error
// release is a no-op, so `defer release()` is safe in every case (a bare
// channel semaphore would free someone else's slot, or block). That guard
// costs Acquire a small allocation; Do allocates nothing.
func (b *Bulkhead) Acquire(ctx context.Context) (release func(), err error) {
	if err := b.acquire(ctx); err != nil {
		return noop, err
	}
	p := &permit{b: b}
	return p.release, nil
}

// permit is one acquired slot; it releases it at most once.
type permit struct {
	b    *Bulkhead
	used atomic.Bool
}

func (p *permit) release() {
	if p.used.CompareAndSwap(false, true) {
		p.b.release()
	}
}

// Limit returns the number of slots.
func (b *Bulkhead) Limit() int { return int(b.limit) }

// InFlight returns the number of slots taken.
func (b *Bulkhead) InFlight() int { return int(b.taken.Load()) }

// Waiting returns the number of callers waiting for a slot.
func (b *Bulkhead) Waiting() int { return int(b.waiting.Load()) }

// take takes a free slot if there is one.
func (b *Bulkhead) take() bool {
	for {
		n := b.taken.Load()
		if n >= b.limit {
			return false
		}
		if b.taken.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

func (b *Bulkhead) acquire(ctx context.Context) error {
	if b.take() {
		return nil // the fast path
	}
	b.mu.Lock()
	// Announce the wait before looking again: a release that does not see
	// the announcement has already freed its slot, and take sees it.
	b.waiting.Add(1)
	if b.take() {
		b.waiting.Add(-1)
		b.mu.Unlock()
		return nil
	}
	if int64(len(b.waiters)) >= b.queue {
		b.waiting.Add(-1)
		b.mu.Unlock()
		return ErrBulkheadFull
	}
	w := make(chan struct{})
	b.waiters = append(b.waiters, w)
	b.mu.Unlock()

	select {
	case <-w:
		return nil
	case <-ctx.Done():
	}
	b.mu.Lock()
	for i, x := range b.waiters {
		if x == w {
			b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
			b.waiting.Add(-1)
			b.mu.Unlock()
			return context.Cause(ctx)
		}
	}
	b.mu.Unlock()
	b.release() // a slot was handed over as the context ended: pass it on
	return context.Cause(ctx)
}

// release gives back a slot, handing it to the longest waiter if there is
// one. Only holders call it (Do, and a permit once).
func (b *Bulkhead) release() {
	if b.waiting.Load() == 0 {
		b.taken.Add(-1)
		if b.waiting.Load() == 0 {
			return // the fast path
		}
		// A caller announced a wait meanwhile; it may have looked before
		// the slot was free. Hand free slots to the queue.
		b.mu.Lock()
		for len(b.waiters) > 0 && b.take() {
			b.wakeFirstLocked()
		}
		b.mu.Unlock()
		return
	}
	b.mu.Lock()
	if len(b.waiters) > 0 {
		b.wakeFirstLocked() // the slot passes to it: taken is unchanged
	} else {
		b.taken.Add(-1)
	}
	b.mu.Unlock()
}

// wakeFirstLocked hands a slot the caller holds to the longest waiter.
func (b *Bulkhead) wakeFirstLocked() {
	w := b.waiters[0]
	copy(b.waiters, b.waiters[1:])
	b.waiters[len(b.waiters)-1] = nil
	b.waiters = b.waiters[:len(b.waiters)-1]
	b.waiting.Add(-1)
	close(w)
}

func noop() {}
