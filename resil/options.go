package resil

import "time"

// Retry defaults. They are the figures the linter cites: 3 attempts in all
// (SRE, AWS SDK, Polly), a 100 ms base and a 2 s cap with full jitter.
const (
	// DefaultAttempts is the total number of attempts, the first included.
	DefaultAttempts = 3
	// DefaultBaseDelay is the backoff base: the first wait is uniform in
	// [0, DefaultBaseDelay].
	DefaultBaseDelay = 100 * time.Millisecond
	// DefaultMaxDelay caps every backoff wait. With no deadline it also
	// caps how long a server's Retry-After is honoured.
	DefaultMaxDelay = 2 * time.Second
	// DefaultReserve is the time kept back from the caller's deadline for
	// the caller to handle the error: an attempt's timeout is the time left
	// minus the reserve.
	DefaultReserve = 5 * time.Millisecond
	// MinAttemptTime is the least time an attempt must be given (after the
	// reserve); Retry does not start an attempt, or a wait followed by one,
	// that would get less.
	MinAttemptTime = time.Millisecond
)

// An Option configures one Retry or RetryValue call. Options are applied in
// order; later ones win.
type Option func(c config) config

// config is the resolved configuration of a Retry call. It is passed and
// returned by value so that applying options allocates nothing.
type config struct {
	attempts       int
	base, max      time.Duration
	attemptTimeout time.Duration // 0: no cap
	reserve        time.Duration
	retryIf        func(error) bool
	budget         *RetryBudget
	onRetry        func(attempt int, err error, delay time.Duration)
	clock          Clock
	breaker        *Breaker
	bulkhead       *Bulkhead
}

func defaultConfig() config {
	return config{
		attempts: DefaultAttempts,
		base:     DefaultBaseDelay,
		max:      DefaultMaxDelay,
		reserve:  DefaultReserve,
	}
}

func buildConfig(opts []Option) config {
	c := defaultConfig()
	for _, o := range opts {
		if o != nil {
			c = o(c)
		}
	}
	return c
}

// Attempts sets the total number of attempts, the first included
// (default [DefaultAttempts]). Values below 1 mean a single attempt.
func Attempts(n int) Option {
	return func(c config) config { c.attempts = max(n, 1); return c }
}

// BaseDelay sets the backoff base (default [DefaultBaseDelay]); see
// [Backoff]. A value ≤ 0 means retries do not wait.
func BaseDelay(d time.Duration) Option {
	return func(c config) config { c.base = max(d, 0); return c }
}

// MaxDelay caps each backoff wait (default [DefaultMaxDelay]). A value ≤ 0
// means retries do not wait. With no deadline, a server's Retry-After longer
// than MaxDelay ends retrying with [ErrNoTimeLeft].
func MaxDelay(d time.Duration) Option {
	return func(c config) config { c.max = max(d, 0); return c }
}

// AttemptTimeout caps each attempt: the attempt's context expires after
// min(d, time left before the caller's deadline − reserve). A value ≤ 0
// (the default) means no cap beyond the caller's deadline.
func AttemptTimeout(d time.Duration) Option {
	return func(c config) config { c.attemptTimeout = max(d, 0); return c }
}

// Reserve sets the time kept back from the caller's deadline for the caller
// to handle the error (default [DefaultReserve]). Negative values count as 0.
func Reserve(d time.Duration) Option {
	return func(c config) config { c.reserve = max(d, 0); return c }
}

// RetryIf replaces the classification of errors (default [Retryable]).
// Whatever it says, Retry never retries a [Permanent] error or after the
// caller's context is done. A nil fn restores the default.
func RetryIf(fn func(err error) bool) Option {
	return func(c config) config { c.retryIf = fn; return c }
}

// Dependency names the dependency being called and selects its
// process-wide retry budget ([BudgetFor]). Without Dependency (or
// [UseBudget]) no budget applies: retries are then limited only by the
// attempt count and the deadline. The analyzers' fixes always name one.
func Dependency(name string) Option {
	return func(c config) config { c.budget = BudgetFor(name); return c }
}

// UseBudget selects an explicit retry budget; nil means none.
func UseBudget(b *RetryBudget) Option {
	return func(c config) config { c.budget = b; return c }
}

// UseBreaker runs every attempt through b, so an open breaker fails the
// attempt fast with [ErrOpen] (which Retry waits out only if the breaker's
// open period ends in time). nil means none.
func UseBreaker(b *Breaker) Option {
	return func(c config) config { c.breaker = b; return c }
}

// UseBulkhead runs every attempt inside a slot of b. nil means none.
func UseBulkhead(b *Bulkhead) Option {
	return func(c config) config { c.bulkhead = b; return c }
}

// OnRetry registers a hook called before each wait: attempt is the number
// of attempts made so far (1 after the first failure), err that attempt's
// error and delay the wait that follows. It runs on the calling goroutine.
func OnRetry(fn func(attempt int, err error, delay time.Duration)) Option {
	return func(c config) config { c.onRetry = fn; return c }
}

// WithClock makes Retry read time and wait through clk, for tests. Context
// deadlines are still compared with clk.Now(). nil restores the real clock.
func WithClock(clk Clock) Option {
	return func(c config) config { c.clock = clk; return c }
}
