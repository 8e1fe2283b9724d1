package resil

import (
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// Retry budget defaults, in the spirit of the SRE book (retries below 10 %
// of requests), gRPC retryThrottling (token ratio 0.1) and Finagle's
// RetryBudget (a ratio plus a per-second floor for low traffic).
const (
	// DefaultBudgetRatio: each request earns this fraction of one retry.
	DefaultBudgetRatio = 0.1
	// DefaultBudgetMinPerSecond: retries allowed per second regardless of
	// traffic, so a quiet dependency can still be retried.
	DefaultBudgetMinPerSecond = 1.0
	// DefaultBudgetBurst: the most retries the bucket can hold; it bounds
	// the burst of retries after a long healthy period. The bucket starts
	// full.
	DefaultBudgetBurst = 10
)

// A RetryBudget limits the retries sent to one dependency, across all call
// sites and requests, to a fraction of the requests plus a small floor. It
// is a token bucket measured in retries:
//
//   - every request (a Retry call's first attempt) deposits ratio tokens;
//   - the bucket also refills at minPerSecond tokens per second;
//   - each retry withdraws one token; with less than one token left the
//     retry is refused and Retry fails fast with the last error, tagged with
//     [ErrBudgetExhausted];
//   - the bucket never holds more than burst tokens.
//
// Only retries of retryable failures draw on the budget, so bad requests
// cannot starve it. Deposits are one atomic add; withdrawals (the retry
// path) take a mutex. The zero value is not usable; use [NewRetryBudget] or
// [BudgetFor].
type RetryBudget struct {
	ratio   int64 // milli-tokens deposited per request
	perSec  float64
	burst   int64 // milli-tokens
	clock   Clock
	balance atomic.Int64 // milli-tokens; may exceed burst until the next withdrawal clamps it

	mu   sync.Mutex
	last time.Time // last time-based refill, guarded by mu
}

const milli = 1000

// NewRetryBudget returns a budget that earns ratio retries per request and
// minPerSecond retries per second, holding at most burst retries. Negative
// or NaN inputs count as 0; burst < 1 counts as 1. A ratio of 0 and a
// minPerSecond of 0 give a budget that allows only the initial burst.
func NewRetryBudget(ratio, minPerSecond float64, burst int) *RetryBudget {
	return newRetryBudget(ratio, minPerSecond, burst, realClock{})
}

func newRetryBudget(ratio, minPerSecond float64, burst int, c Clock) *RetryBudget {
	clean := func(f float64) float64 {
		if f > 0 && !math.IsInf(f, 1) {
			return f
		}
		if math.IsInf(f, 1) {
			return 1e9
		}
		return 0
	}
	if burst < 1 {
		burst = 1
	}
	b := &RetryBudget{
		ratio:  int64(math.Round(math.Min(clean(ratio), 1e6) * milli)),
		perSec: clean(minPerSecond),
		burst:  int64(burst) * milli,
		clock:  c,
		last:   c.Now(),
	}
	b.balance.Store(b.burst)
	return b
}

// deposit credits one request. It is lock-free.
func (b *RetryBudget) deposit() {
	if b.ratio > 0 {
		b.balance.Add(b.ratio)
	}
}

// withdraw takes one retry from the budget, reporting whether it was there.
func (b *RetryBudget) withdraw() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.clock.Now()
	refill := int64(0)
	if el := now.Sub(b.last); el > 0 && b.perSec > 0 {
		refill = int64(math.Min(el.Seconds()*b.perSec*milli, float64(b.burst)))
	}
	if refill > 0 || b.perSec == 0 {
		b.last = now // keep sub-milli-token remainders accruing otherwise
	}
	for {
		cur := b.balance.Load()
		next := min(cur+refill, b.burst)
		ok := next >= milli
		if ok {
			next -= milli
		}
		if b.balance.CompareAndSwap(cur, next) {
			return ok
		}
	}
}

// Tokens returns the retries the budget would allow right now, ignoring any
// refill due since the last withdrawal. It is meant for tests and metrics.
func (b *RetryBudget) Tokens() float64 {
	return float64(min(b.balance.Load(), b.burst)) / milli
}

// budgets is the process-wide registry used by [Dependency].
var budgets sync.Map // string → *RetryBudget

// BudgetFor returns the process-wide retry budget of the named dependency,
// creating it with the Default* budget settings on first use. It is safe
// for concurrent use. Retry uses it when given [Dependency](name).
func BudgetFor(name string) *RetryBudget {
	if b, ok := budgets.Load(name); ok {
		return b.(*RetryBudget)
	}
	b, _ := budgets.LoadOrStore(name, NewRetryBudget(DefaultBudgetRatio, DefaultBudgetMinPerSecond, DefaultBudgetBurst))
	return b.(*RetryBudget)
}
