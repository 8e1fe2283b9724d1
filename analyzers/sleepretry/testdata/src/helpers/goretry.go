package helpers

import (
	"context"
	"time"

	goretry "github.com/sethvargo/go-retry"
)

func release(ctx context.Context, op goretry.RetryFunc) error {
	return goretry.Do(ctx, goretry.WithMaxRetries(4, goretry.NewConstant(500*time.Millisecond)), op) // want `retry.Do waits the same delay before every attempt \(goretry.NewConstant\(500 \* time.Millisecond\)\).*keep the interval and wrap the backoff in goretry.WithJitterPercent\(50, ...\)`
}

func grows(ctx context.Context, op goretry.RetryFunc) error {
	b := goretry.WithMaxRetries(3, goretry.NewExponential(100*time.Millisecond)) // want `grows its delay without jitter`
	return goretry.Do(ctx, b, op)
}

func jittered(ctx context.Context, op goretry.RetryFunc) error {
	b := goretry.WithMaxRetries(3, goretry.WithJitterPercent(20, goretry.NewExponential(100*time.Millisecond)))
	return goretry.Do(ctx, b, op)
}

func fullJitter(ctx context.Context, op goretry.RetryFunc) (int, error) {
	return goretry.DoValue(ctx, goretry.WithFullJitter(goretry.WithMaxRetries(3, goretry.NewFibonacci(time.Second))), func(ctx context.Context) (int, error) {
		return 1, op(ctx)
	})
}

func shortcut(ctx context.Context, op goretry.RetryFunc) error {
	return goretry.Constant(ctx, time.Second, op) // want `retry.Constant waits the same delay before every attempt`
}

func forever(op goretry.RetryFunc) error {
	return goretry.Do(context.Background(), goretry.WithJitterPercent(10, goretry.NewExponential(time.Second)), op) // want `retry.Do retries with no attempt limit, no time limit and no context that can end`
}

func capped(op goretry.RetryFunc) error {
	return goretry.Do(context.Background(), goretry.WithMaxDuration(time.Minute, goretry.WithJitterPercent(10, goretry.NewExponential(time.Second))), op)
}

// The backoff built up by wrapping a variable, as go-retry's docs do.
func wrapped(ctx context.Context, op goretry.RetryFunc) error {
	b := goretry.NewExponential(100 * time.Millisecond) // want `grows its delay without jitter`
	b = goretry.WithMaxRetries(3, b)
	return goretry.Do(ctx, b, op)
}

func wrappedJitter(ctx context.Context, op goretry.RetryFunc) error {
	b := goretry.NewExponential(100 * time.Millisecond)
	b = goretry.WithMaxRetries(3, b)
	b = goretry.WithJitterPercent(10, b)
	return goretry.Do(ctx, b, op)
}

func wrappedMaybe(ctx context.Context, op goretry.RetryFunc, jitter bool) error {
	b := goretry.NewExponential(100 * time.Millisecond)
	if jitter {
		b = goretry.WithJitterPercent(10, b)
	}
	b = goretry.WithMaxRetries(3, b)
	return goretry.Do(ctx, b, op) // unsure: silent
}
