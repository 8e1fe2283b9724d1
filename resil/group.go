package resil

import (
	"context"
	"sync"
	"sync/atomic"
)

// A Group runs functions on at most limit goroutines, in the spirit of
// errgroup with SetLimit, but:
//
//   - the group never has more than limit goroutines, counted strictly:
//     they are workers that run one function after another;
//   - Go waits for a free worker in the calling goroutine, and gives up when
//     the group's context is done (errgroup's Go ignores the context);
//   - once a function has failed or the context is done, Go launches
//     nothing more (errgroup keeps starting work after a cancel);
//   - Wait reports skipped work: with no function error it returns the
//     context's cause if any call to Go was skipped.
//
// Create one with [NewGroup]. A Group is for one round of Go calls followed
// by one Wait; Go calls made after Wait has started are skipped. As with
// errgroup, a function that calls Go on its own group can deadlock when all
// workers are busy.
type Group struct {
	ctx     context.Context
	cancel  context.CancelCauseFunc
	limit   int32
	workers atomic.Int32
	tasks   chan func(ctx context.Context) error
	wg      sync.WaitGroup
	errOnce sync.Once
	err     error
	skipped atomic.Bool

	closeMu sync.RWMutex // Go holds it shared while handing over; Wait exclusively to close tasks
	closed  bool
}

// NewGroup returns a group whose functions get a context derived from ctx
// that is cancelled when the first function fails (with that error as its
// cause) or when Wait returns. A limit below 1 counts as 1.
func NewGroup(ctx context.Context, limit int) *Group {
	if ctx == nil {
		ctx = context.Background()
	}
	gctx, cancel := context.WithCancelCause(ctx)
	return &Group{ctx: gctx, cancel: cancel, limit: int32(min(max(limit, 1), 1<<30)), tasks: make(chan func(context.Context) error)}
}

// Go runs fn on a worker goroutine: an idle one, or a new one while there
// are fewer than limit. Otherwise it blocks until a worker is free. If the
// group has failed or its context is done, fn is not run. A nil fn fails
// the group with [ErrNilOperation].
func (g *Group) Go(fn func(ctx context.Context) error) {
	if fn == nil {
		g.fail(ErrNilOperation)
		return
	}
	g.closeMu.RLock()
	defer g.closeMu.RUnlock()
	if g.closed || g.ctx.Err() != nil {
		g.skipped.Store(true)
		return
	}
	select {
	case g.tasks <- fn: // an idle worker took it
		return
	default:
	}
	for {
		n := g.workers.Load()
		if n >= g.limit {
			break
		}
		if g.workers.CompareAndSwap(n, n+1) {
			g.wg.Add(1)
			go g.work(fn)
			return
		}
	}
	select {
	case g.tasks <- fn:
	case <-g.ctx.Done():
		g.skipped.Store(true)
	}
}

// work runs fn, then further functions handed over by Go, until Wait closes
// the hand-over channel. Once the group has failed, it drops what it is
// handed.
func (g *Group) work(fn func(ctx context.Context) error) {
	defer g.wg.Done()
	for {
		if g.ctx.Err() != nil {
			g.skipped.Store(true)
		} else if err := fn(g.ctx); err != nil {
			g.fail(err)
		}
		var ok bool
		if fn, ok = <-g.tasks; !ok {
			return
		}
	}
}

// fail records the first error and cancels the group.
func (g *Group) fail(err error) {
	g.errOnce.Do(func() {
		g.err = err
		g.cancel(err)
	})
}

// Wait waits for every launched function and returns the first error one
// of them returned. If none failed but some call to Go was skipped because
// the context was done, it returns the context's cause. Wait cancels the
// group's context and stops its workers before returning.
func (g *Group) Wait() error {
	g.closeMu.Lock()
	if !g.closed {
		g.closed = true
		close(g.tasks)
	}
	g.closeMu.Unlock()
	g.wg.Wait()
	g.errOnce.Do(func() {}) // nothing can fail any more; make g.err final
	err := g.err
	if err == nil && g.skipped.Load() {
		err = context.Cause(g.ctx)
	}
	g.cancel(context.Canceled)
	return err
}

// ForEach calls fn for every item, at most limit at a time, and returns the
// first error. After a failure or once ctx is done it starts no more calls;
// see [Group].
func ForEach[T any](ctx context.Context, items []T, limit int, fn func(ctx context.Context, item T) error) error {
	if fn == nil {
		return ErrNilOperation
	}
	g := NewGroup(ctx, limit)
	for _, item := range items {
		g.Go(func(ctx context.Context) error { return fn(ctx, item) })
	}
	return g.Wait()
}
