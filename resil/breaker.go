package resil

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// State is a circuit breaker's state.
type State uint32

const (
	// StateClosed: calls go through; outcomes are counted in the window.
	StateClosed State = iota
	// StateOpen: calls are rejected with ErrOpen until the open period ends.
	StateOpen
	// StateHalfOpen: a few probe calls go through; their outcomes decide.
	StateHalfOpen
)

func (s State) String() string {
	switch s {
	case StateClosed:
		return "closed"
	case StateOpen:
		return "open"
	case StateHalfOpen:
		return "half-open"
	}
	return "State(" + strconv.Itoa(int(s)) + ")"
}

// ErrOpen is returned (wrapped with the breaker's name and the time until
// the next probe, see [Breaker]) when a breaker rejects a call. Test for it
// with errors.Is.
var ErrOpen = errors.New("resil: circuit breaker is open")

// openError is a rejection. Its RetryAfter lets Retry wait out a break that
// ends within the caller's budget instead of hammering the breaker.
type openError struct {
	name  string
	after time.Duration
}

func (e *openError) Error() string {
	return "resil: circuit breaker " + strconv.Quote(e.name) + " is open (next probe in " + e.after.String() + ")"
}
func (e *openError) Is(target error) bool      { return target == ErrOpen }
func (e *openError) RetryAfter() time.Duration { return e.after }

// outcome is how a call's result counts for the breaker.
type outcome uint8

const (
	success outcome = iota
	failure
	neutral // neither: caller cancellation, a local rejection
)

// successFlushEvery is how many closed-state successes the breaker counts
// between clock reads (a power of two). Reading the clock costs more than
// the rest of the closed path, so successes are counted with one atomic add
// and placed in the window in batches; failures always read the clock.
const successFlushEvery = 64

// The state word packs a generation counter with the state:
// word = generation<<stateBits | state. Every transition bumps the
// generation, so a result reported after the state it was admitted in has
// ended is recognised as stale and ignored (the idea is gobreaker's).
const (
	stateBits = 2
	stateMask = 1<<stateBits - 1
)

// A Breaker is a circuit breaker for one dependency.
//
// Closed, it lets every call through and counts outcomes in a rolling
// window of [WindowBuckets] buckets. A failure trips it to open when the
// window holds at least MinimumThroughput calls and the failure rate is at
// least FailureRatio. Open, it rejects calls at once with an error matching
// [ErrOpen] that carries the time until the next probe. After OpenDuration
// the next call moves it to half-open and goes through as a probe; up to
// HalfOpenProbes probes may be in flight. That many successes close it; a
// failure opens it again. A probe that is cancelled frees its slot; a probe
// that hangs longer than OpenDuration is superseded by a new one (its late
// result is ignored), so the breaker cannot stick half-open.
//
// Outcomes: nil is a success; caller cancellation (context.Canceled, the
// call's own ctx cancelled), ErrOpen and ErrBulkheadFull are neutral; a
// [Permanent] error is a success; any other error — including the caller's
// deadline passing during the call, which is how a hanging dependency
// shows — is a failure (see [IsFailure] to change this). A panic in the call
// is a failure, and the panic continues.
//
// The closed path takes no lock, reads no clock, starts no goroutine and
// allocates nothing: one atomic load before the call and one atomic add
// after a success. A Breaker is safe for concurrent use. Share one per
// dependency, via [BreakerFor]; a breaker built per call never trips.
type Breaker struct {
	// Read by every call, written only on transitions or never: together,
	// ahead of the counters, so a call touches few cache lines.
	state      atomic.Uint64      // generation<<stateBits | State
	openUntil  atomic.Int64       // when StateOpen ends, in ns since epoch
	flushMask  int64              // successFlushEvery-1; tests set 0 to place every success at once
	closedDone func(success bool) // Allow's done for closed tickets, built once
	name       string
	cfg        breakerConfig
	clock      Clock
	epoch      time.Time

	_ [128]byte // keep the write-hot counters below off those cache lines
	// pending counts closed-state successes not yet placed in the window,
	// striped so that goroutines on different CPUs do not fight over one
	// cache line (see stripe).
	pending [pendingStripes]paddedCounter

	mu         sync.Mutex // guards the fields below and every transition
	win        window
	lastFlush  int64 // ns since epoch of the last placement of pending successes
	inflight   int   // half-open probes in flight
	probesOK   int   // half-open probes that succeeded
	leaseUntil int64 // ns since epoch when the current probes are superseded
}

// NewBreaker returns a new closed breaker. Most code should use
// [BreakerFor], which shares one breaker per name across the process.
func NewBreaker(name string, opts ...BreakerOption) *Breaker {
	c := defaultBreakerConfig()
	for _, o := range opts {
		if o != nil {
			c = o(c)
		}
	}
	b := &Breaker{name: name, cfg: c, clock: c.clock}
	if b.clock == nil {
		b.clock = realClock{}
	}
	b.epoch = b.clock.Now()
	b.win.dur = int64(c.window / WindowBuckets)
	b.closedDone = b.doneClosed
	b.flushMask = successFlushEvery - 1
	return b
}

// Name returns the breaker's name.
func (b *Breaker) Name() string { return b.name }

// State returns the current state. An open breaker whose open period has
// ended reports StateHalfOpen: the next call will be a probe.
func (b *Breaker) State() State {
	s := State(b.state.Load() & stateMask)
	if s == StateOpen && b.now() >= b.openUntil.Load() {
		return StateHalfOpen
	}
	return s
}

// Counts returns the successes and failures in the current window (zero
// unless closed).
func (b *Breaker) Counts() (successes, failures int64) {
	now := b.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if State(b.state.Load()&stateMask) != StateClosed {
		return 0, 0
	}
	b.flushLocked(now, 0)
	return b.win.totals(now / b.win.dur)
}

// Do calls fn through the breaker. It returns an error matching [ErrOpen]
// without calling fn if the breaker rejects the call, and fn's error
// otherwise, after counting it. With a [Fallback], rejections and failures
// are handed to it instead.
func (b *Breaker) Do(ctx context.Context, fn func(ctx context.Context) error) error {
	t, err := b.admit()
	if err != nil {
		if b.cfg.fallback != nil {
			return b.cfg.fallback(ctx, err)
		}
		return err
	}
	finished := false
	defer func() {
		if !finished {
			b.record(t, failure)
		}
	}()
	err = fn(ctx)
	finished = true
	o := b.classify(ctx, err)
	b.record(t, o)
	if o == failure && b.cfg.fallback != nil {
		return b.cfg.fallback(ctx, err)
	}
	return err
}

// Execute calls fn through the breaker. It has the shape of sony/gobreaker's
// CircuitBreaker.Execute, so a gobreaker call site can switch to
// resil.BreakerFor(name).Execute unchanged. Without a context, an error
// matching context.Canceled is what marks a cancellation (neutral).
func (b *Breaker) Execute(fn func() (any, error)) (any, error) {
	t, err := b.admit()
	if err != nil {
		return nil, err
	}
	finished := false
	defer func() {
		if !finished {
			b.record(t, failure)
		}
	}()
	v, err := fn()
	finished = true
	b.record(t, b.classify(nil, err))
	return v, err
}

// Allow is the two-step form, with the shape of gobreaker's
// TwoStepCircuitBreaker.Allow: if the call may proceed, it returns a done
// function to call exactly once with the outcome (true for success). A
// rejection returns an error matching [ErrOpen] and a nil done. done has no
// neutral outcome: for a cancelled call, report true, or use Do.
func (b *Breaker) Allow() (done func(success bool), err error) {
	t, err := b.admit()
	if err != nil {
		return nil, err
	}
	if State(t&stateMask) == StateClosed {
		return b.closedDone, nil // prebuilt: no allocation on the closed path
	}
	return func(ok bool) {
		if ok {
			b.record(t, success)
		} else {
			b.record(t, failure)
		}
	}, nil
}

// doneClosed is Allow's done for calls admitted while closed. It does not
// know the exact generation; a failure counts if the breaker is closed.
func (b *Breaker) doneClosed(ok bool) {
	if ok {
		b.record(b.state.Load()&^stateMask|uint64(StateClosed), success)
		return
	}
	if s := b.state.Load(); State(s&stateMask) == StateClosed {
		b.record(s, failure)
	}
}

// classify maps a call's result to an outcome; ctx may be nil.
func (b *Breaker) classify(ctx context.Context, err error) outcome {
	if err == nil {
		return success
	}
	if (ctx != nil && ctx.Err() == context.Canceled) || errors.Is(err, context.Canceled) ||
		errors.Is(err, ErrOpen) || errors.Is(err, ErrBulkheadFull) {
		return neutral
	}
	if b.cfg.isFailure != nil {
		if b.cfg.isFailure(err) {
			return failure
		}
		return success
	}
	if IsPermanent(err) {
		return success
	}
	return failure
}

// now is the breaker's time in nanoseconds since its creation.
func (b *Breaker) now() int64 { return int64(b.clock.Now().Sub(b.epoch)) }

// admit decides whether a call may proceed. The ticket is the state word
// the call was admitted under.
func (b *Breaker) admit() (ticket uint64, err error) {
	s := b.state.Load()
	if State(s&stateMask) == StateClosed {
		return s, nil // the fast path
	}
	now := b.now()
	if State(s&stateMask) == StateOpen {
		if until := b.openUntil.Load(); now < until {
			return 0, &openError{b.name, time.Duration(until - now)} // lock-free rejection
		}
	}
	b.mu.Lock()
	ticket, err, ch := b.admitLocked(now)
	b.mu.Unlock()
	b.notify(ch)
	return ticket, err
}

// transition records a state change to report after unlocking.
type transition struct{ from, to State }

func (b *Breaker) admitLocked(now int64) (uint64, error, transition) {
	var ch transition
	s := b.state.Load()
	switch State(s & stateMask) {
	case StateClosed:
		return s, nil, ch
	case StateOpen:
		if until := b.openUntil.Load(); now < until {
			return 0, &openError{b.name, time.Duration(until - now)}, ch
		}
		s, ch = b.setStateLocked(StateHalfOpen, now)
	}
	// Half open: admit a probe if a slot is free or the probes in flight
	// have outlived their lease (then they are superseded).
	if b.inflight >= b.cfg.probes {
		if now < b.leaseUntil {
			return 0, &openError{b.name, time.Duration(b.leaseUntil - now)}, ch
		}
		s, _ = b.setStateLocked(StateHalfOpen, now)
	}
	b.inflight++
	return s, nil, ch
}

// record counts the outcome of a call admitted with ticket.
func (b *Breaker) record(ticket uint64, o outcome) {
	if State(ticket&stateMask) == StateClosed {
		switch o {
		case success:
			if b.pending[stripe()].n.Add(1)&b.flushMask == 0 {
				b.flush() // this success happened now; the rest of the batch before
			}
			return
		case neutral:
			return
		}
	}
	now := b.now()
	b.mu.Lock()
	ch := b.recordLocked(ticket, o, now)
	b.mu.Unlock()
	b.notify(ch)
}

func (b *Breaker) recordLocked(ticket uint64, o outcome, now int64) transition {
	if b.state.Load() != ticket {
		return transition{} // admitted under an earlier state: stale
	}
	switch State(ticket & stateMask) {
	case StateClosed: // a failure
		b.flushLocked(now, 0)
		idx := now / b.win.dur
		b.win.add(idx, 0, 1)
		ok, fails := b.win.totals(idx)
		if total := ok + fails; total >= b.cfg.minThroughput && float64(fails) >= b.cfg.ratio*float64(total) {
			_, ch := b.setStateLocked(StateOpen, now)
			return ch
		}
	case StateHalfOpen:
		b.inflight--
		switch o {
		case success:
			if b.probesOK++; b.probesOK >= b.cfg.probes {
				_, ch := b.setStateLocked(StateClosed, now)
				return ch
			}
		case failure:
			_, ch := b.setStateLocked(StateOpen, now)
			return ch
		}
	}
	return transition{}
}

// flush places the pending closed-state successes in the window, one of
// them (the caller's) at the current time.
func (b *Breaker) flush() {
	now := b.now()
	b.mu.Lock()
	if State(b.state.Load()&stateMask) == StateClosed {
		b.flushLocked(now, 1)
	}
	b.mu.Unlock()
}

// flushLocked places the pending successes: atNow of them at now (those
// known to have just happened), the rest spread over the time since the
// previous flush.
func (b *Breaker) flushLocked(now, atNow int64) {
	var n int64
	for i := range b.pending {
		n += b.pending[i].n.Swap(0)
	}
	if k := min(n, atNow); k > 0 {
		b.win.add(now/b.win.dur, k, 0)
		n -= k
	}
	b.win.spread(b.lastFlush, now, n)
	b.lastFlush = now
}

// setStateLocked moves to a new generation in state to and resets what
// that state tracks. It returns the new state word and the transition.
func (b *Breaker) setStateLocked(to State, now int64) (uint64, transition) {
	old := b.state.Load()
	switch to {
	case StateClosed:
		b.win.reset()
		for i := range b.pending {
			b.pending[i].n.Store(0)
		}
		b.lastFlush = now
	case StateOpen:
		b.openUntil.Store(now + int64(b.cfg.open))
	case StateHalfOpen:
		b.inflight, b.probesOK = 0, 0
		b.leaseUntil = now + int64(b.cfg.open)
	}
	s := (old>>stateBits+1)<<stateBits | uint64(to)
	b.state.Store(s)
	return s, transition{State(old & stateMask), to}
}

// notify calls the state-change hook, outside the lock.
func (b *Breaker) notify(ch transition) {
	if ch.from != ch.to && b.cfg.onStateChange != nil {
		b.cfg.onStateChange(b.name, ch.from, ch.to)
	}
}

// pendingStripes is the number of success counters of a breaker (a power
// of two). Two goroutines share a counter's cache line with probability
// 1/pendingStripes; 16 stripes (2 KB per breaker, one breaker per
// dependency) keep that rare.
const (
	stripeBits     = 4
	pendingStripes = 1 << stripeBits
)

// paddedCounter is a counter alone on its cache lines (128 bytes: x86
// prefetches lines in pairs).
type paddedCounter struct {
	n atomic.Int64
	_ [120]byte
}

// stripe picks a success counter for the calling goroutine: goroutines have
// distinct stacks, so the address of a local spreads them over the
// stripes, and one goroutine keeps using the same counter. The address is
// taken in 2 KB blocks, the smallest goroutine stack: two live goroutines
// never share one (with 4 KB blocks, two small stacks in one page always
// shared a counter).
func stripe() int {
	var x byte
	p := uint64(uintptr(unsafe.Pointer(&x)))
	return int((p >> 11) * 0x9E3779B97F4A7C15 >> (64 - stripeBits) & (pendingStripes - 1))
}
