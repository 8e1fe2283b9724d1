package resil

import (
	"context"
	"math"
	"time"
)

// Breaker defaults, in the spirit of Hystrix and Polly: trip when at least
// half of the calls in the last 10 s failed, once there were at least 20 of
// them; stay open 5 s; then let one probe through.
const (
	// DefaultFailureRatio is the failure rate (failures / calls in the
	// window) at or above which the breaker trips.
	DefaultFailureRatio = 0.5
	// DefaultMinimumThroughput is the number of calls the window must hold
	// before the rate is trusted: fewer calls never trip the breaker.
	DefaultMinimumThroughput = 20
	// DefaultWindow is the length of the rolling window, kept as
	// [WindowBuckets] buckets.
	DefaultWindow = 10 * time.Second
	// DefaultOpenDuration is how long the breaker stays open before letting
	// probes through. It is also the lease of a half-open probe: a probe
	// that has not reported after this long is superseded.
	DefaultOpenDuration = 5 * time.Second
	// DefaultHalfOpenProbes is how many probes may be in flight when half
	// open; that many successes close the breaker.
	DefaultHalfOpenProbes = 1
	// WindowBuckets is the number of buckets of the rolling window. Old
	// buckets drop out whole, so the window slides in steps of
	// window/WindowBuckets.
	WindowBuckets = 10
)

// A BreakerOption configures a Breaker at construction.
type BreakerOption func(c breakerConfig) breakerConfig

type breakerConfig struct {
	ratio         float64
	minThroughput int64
	window        time.Duration
	open          time.Duration
	probes        int
	onStateChange func(name string, from, to State)
	fallback      func(ctx context.Context, err error) error
	isFailure     func(err error) bool
	clock         Clock
}

func defaultBreakerConfig() breakerConfig {
	return breakerConfig{
		ratio:         DefaultFailureRatio,
		minThroughput: DefaultMinimumThroughput,
		window:        DefaultWindow,
		open:          DefaultOpenDuration,
		probes:        DefaultHalfOpenProbes,
	}
}

// FailureRatio sets the failure rate that trips the breaker
// (default [DefaultFailureRatio]). Values outside (0, 1] (and NaN) are
// ignored.
func FailureRatio(r float64) BreakerOption {
	return func(c breakerConfig) breakerConfig {
		if r > 0 && r <= 1 && !math.IsNaN(r) {
			c.ratio = r
		}
		return c
	}
}

// MinimumThroughput sets the number of calls in the window needed before
// the breaker may trip (default [DefaultMinimumThroughput]). Values below 1
// count as 1.
func MinimumThroughput(n int) BreakerOption {
	return func(c breakerConfig) breakerConfig { c.minThroughput = int64(max(n, 1)); return c }
}

// Window sets the length of the rolling window (default [DefaultWindow]).
// Values below WindowBuckets nanoseconds are ignored.
func Window(d time.Duration) BreakerOption {
	return func(c breakerConfig) breakerConfig {
		if d >= WindowBuckets {
			c.window = d
		}
		return c
	}
}

// OpenDuration sets how long the breaker stays open, and the lease of a
// half-open probe (default [DefaultOpenDuration]). Values ≤ 0 are ignored.
func OpenDuration(d time.Duration) BreakerOption {
	return func(c breakerConfig) breakerConfig {
		if d > 0 {
			c.open = d
		}
		return c
	}
}

// HalfOpenProbes sets how many probes may be in flight when half open, and
// how many must succeed to close (default [DefaultHalfOpenProbes]). Values
// below 1 count as 1.
func HalfOpenProbes(n int) BreakerOption {
	return func(c breakerConfig) breakerConfig { c.probes = max(n, 1); return c }
}

// OnStateChange registers a hook called on every state change. It runs on
// the goroutine that caused the change, after the breaker's lock is
// released, so it may call the breaker; changes caused concurrently on
// different goroutines may be reported out of order.
func OnStateChange(fn func(name string, from, to State)) BreakerOption {
	return func(c breakerConfig) breakerConfig { c.onStateChange = fn; return c }
}

// Fallback registers a function that [Breaker.Do] calls instead of
// returning an error when the breaker rejects the call ([ErrOpen]) or the
// call fails (as classified for the breaker). It receives the error; what it
// returns is what Do returns. It is not called for permanent errors or
// cancellations, nor by Execute and Allow.
func Fallback(fn func(ctx context.Context, err error) error) BreakerOption {
	return func(c breakerConfig) breakerConfig { c.fallback = fn; return c }
}

// IsFailure replaces the classification of non-nil errors: fn reports
// whether err counts as a failure (true) or a success (false). Cancellation
// by the caller, [ErrOpen] and [ErrBulkheadFull] are neutral whatever fn
// says. The default counts every error as a failure except [Permanent] ones
// (the dependency answered; the request was wrong).
func IsFailure(fn func(err error) bool) BreakerOption {
	return func(c breakerConfig) breakerConfig { c.isFailure = fn; return c }
}

// BreakerClock makes the breaker read time through clk, for tests. nil
// restores the real clock.
func BreakerClock(clk Clock) BreakerOption {
	return func(c breakerConfig) breakerConfig { c.clock = clk; return c }
}
