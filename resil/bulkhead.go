package resil

import (
	"context"
	"errors"
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
// Slots are the buffer of a channel, so an uncontended acquire and release
// cost what a bare channel semaphore costs, and a released slot is handed
// directly to the longest waiter.
type Bulkhead struct {
	slots   chan struct{}
	queue   int64
	waiting atomic.Int64
}

// NewBulkhead returns a bulkhead with limit slots and room for queue
// waiters. queue 0 rejects whenever all slots are busy. A limit below 1
// counts as 1 (a bulkhead that admits nothing is never what is meant); a
// negative queue counts as 0.
func NewBulkhead(limit, queue int) *Bulkhead {
	return &Bulkhead{slots: make(chan struct{}, max(limit, 1)), queue: int64(max(queue, 0))}
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
func (b *Bulkhead) Limit() int { return cap(b.slots) }

// InFlight returns the number of slots taken.
func (b *Bulkhead) InFlight() int { return len(b.slots) }

// Waiting returns the number of callers waiting for a slot.
func (b *Bulkhead) Waiting() int { return int(b.waiting.Load()) }

func (b *Bulkhead) acquire(ctx context.Context) error {
	select {
	case b.slots <- struct{}{}:
		return nil // the fast path
	default:
	}
	if b.waiting.Add(1) > b.queue {
		b.waiting.Add(-1)
		return ErrBulkheadFull
	}
	defer b.waiting.Add(-1)
	select {
	case b.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// release gives back a slot. Only holders call it (Do, and a permit once),
// so the channel is never empty here and the receive never blocks; a plain
// receive skips the extra look at the contended channel that a select with
// a default makes.
func (b *Bulkhead) release() {
	<-b.slots
}

func noop() {}
