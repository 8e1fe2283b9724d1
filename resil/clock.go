package resil

import (
	"context"
	"time"
)

// A Clock tells time and waits. Retry, Breaker and RetryBudget read time only
// through a Clock, so tests can inject a fake one (see [WithClock] and
// [BreakerClock]). The zero configuration uses the real clock.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// Sleep waits for d or until ctx is done, like the package-level [Sleep].
	Sleep(ctx context.Context, d time.Duration) error
}

// realClock is the wall clock with monotonic readings.
type realClock struct{}

func (realClock) Now() time.Time                                   { return time.Now() }
func (realClock) Sleep(ctx context.Context, d time.Duration) error { return Sleep(ctx, d) }

// Sleep waits for d, or until ctx is done, whichever comes first. It returns
// nil after a full wait and context.Cause(ctx) as soon as ctx is done (also
// when ctx is already done on entry, even if d ≤ 0). It uses one timer and
// stops it before returning, so nothing is left behind.
func Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return context.Cause(ctx)
	}
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
