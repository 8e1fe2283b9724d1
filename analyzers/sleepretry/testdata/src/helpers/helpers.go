// Package helpers configures known retry helpers with fixed, unjittered and
// good delays.
package helpers

import (
	"context"
	"time"

	retry "github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
	backoffv5 "github.com/cenkalti/backoff/v5"
	"github.com/eapache/go-resiliency/retrier"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/resilint/resilint/resil"
)

func op() error { return nil }

func cenkaltiConstant() error {
	return backoff.Retry(op, backoff.NewConstantBackOff(time.Second)) // want `backoff.Retry waits the same delay before every attempt \(backoff.NewConstantBackOff\(time.Second\)\), and retries with no attempt limit, no time limit and no context that can end`
}

func cenkaltiConstantBounded(ctx context.Context) error {
	return backoff.Retry(op, backoff.WithContext(backoff.WithMaxRetries(backoff.NewConstantBackOff(2*time.Second), 3), ctx)) // want `backoff.Retry waits the same delay before every attempt \(backoff.NewConstantBackOff\(2 \* time.Second\)\): .*NewExponentialBackOff`
}

func cenkaltiExponential(ctx context.Context) error {
	return backoff.Retry(op, backoff.WithContext(backoff.NewExponentialBackOff(), ctx))
}

// The policy built on its own line: reported where the delay is set.
func cenkaltiVariable(ctx context.Context) error {
	b := backoff.NewConstantBackOff(time.Second) // want `backoff.RetryNotify waits the same delay`
	return backoff.RetryNotify(op, backoff.WithContext(b, ctx), nil)
}

func cenkaltiNoJitter(ctx context.Context) error {
	b := backoff.NewExponentialBackOff(backoff.WithRandomizationFactor(0)) // want `grows its delay without jitter`
	return backoff.Retry(op, backoff.WithContext(b, ctx))
}

func cenkaltiV5(ctx context.Context) (int, error) {
	return backoffv5.Retry(ctx, func() (int, error) { return 1, nil }, backoffv5.WithBackOff(backoffv5.NewConstantBackOff(time.Second)), backoffv5.WithMaxTries(3)) // want `backoff.Retry waits the same delay`
}

func cenkaltiV5Default(ctx context.Context) (int, error) {
	return backoffv5.Retry(ctx, func() (int, error) { return 1, nil }, backoffv5.WithMaxTries(3))
}

func retryGoFixed(ctx context.Context) error {
	return retry.Do(op, retry.Attempts(3), retry.Context(ctx), retry.DelayType(retry.FixedDelay)) // want `retry.Do waits the same delay before every attempt \(retry.DelayType\(retry.FixedDelay\)\)`
}

func retryGoBackOff(ctx context.Context) error {
	return retry.Do(op, retry.Context(ctx),
		retry.DelayType(retry.BackOffDelay)) // want `retry.Do grows its delay without jitter`
}

func retryGoDefault(ctx context.Context) error {
	return retry.Do(op, retry.Attempts(5), retry.Context(ctx))
}

func retryGoCombined(ctx context.Context) error {
	return retry.Do(op, retry.Context(ctx), retry.DelayType(retry.CombineDelay(retry.FixedDelay, retry.RandomDelay)))
}

func retryGoForever() error {
	return retry.Do(op, retry.UntilSucceeded()) // want `retry.Do retries with no attempt limit, no time limit and no context that can end`
}

func retryGoForeverCtx(ctx context.Context) error {
	return retry.Do(op, retry.UntilSucceeded(), retry.Context(ctx))
}

type service struct {
	policy retrypolicy.RetryPolicy[any]
	cb     circuitbreaker.CircuitBreaker[any]
}

func newService() *service {
	return &service{
		policy: retrypolicy.NewBuilder[any]().WithMaxRetries(3).WithDelay(time.Second).Build(), // want `this retry policy waits the same delay before every attempt \(.*WithDelay\(time.Second\)\).*WithJitterFactor`
		cb:     circuitbreaker.NewBuilder[any]().WithFailureThreshold(5).WithDelay(30 * time.Second).Build(),
	}
}

func (s *service) call() error {
	return failsafe.With[any](s.policy).Run(op)
}

func failsafeJitter() error {
	rp := retrypolicy.NewBuilder[any]().WithDelay(time.Second).WithJitter(100 * time.Millisecond).Build()
	return failsafe.With[any](rp).Run(op)
}

func failsafeBackoff(ctx context.Context) error {
	rp := retrypolicy.NewBuilder[any]().
		WithBackoff(100*time.Millisecond, 5*time.Second). // want `this retry policy grows its delay without jitter`
		Build()
	return failsafe.With[any](rp).WithContext(ctx).Run(op)
}

func failsafeBreakerOnly() error {
	cb := circuitbreaker.NewBuilder[any]().WithDelay(time.Minute).Build()
	return failsafe.With[any](cb).Run(op)
}

func eapacheConstant() error {
	r := retrier.New(retrier.ConstantBackoff(3, time.Second), nil) // want `waits the same delay before every attempt \(retrier.ConstantBackoff\(3, time.Second\)\).*SetJitter`
	return r.Run(op)
}

func eapacheJitter() error {
	r := retrier.New(retrier.ConstantBackoff(3, time.Second), nil)
	r.SetJitter(0.25)
	return r.Run(op)
}

func eapacheExponential(ctx context.Context) error {
	r := retrier.New(retrier.ExponentialBackoff(5, 10*time.Millisecond), nil) // want `grows its delay without jitter`
	return r.RunCtx(ctx, func(ctx context.Context) error { return nil })
}

func resilRetry(ctx context.Context) error {
	return resil.Retry(ctx, func(ctx context.Context) error { return nil })
}

func cenkaltiLiteral() error {
	return backoff.Retry(op, backoff.WithMaxRetries(&backoff.ConstantBackOff{Interval: time.Second}, 3)) // want `backoff.Retry waits the same delay before every attempt \(backoff.ConstantBackOff\{Interval: time.Second\}\)`
}

func cenkaltiExponentialLiteral(ctx context.Context) error {
	b := &backoff.ExponentialBackOff{InitialInterval: time.Second, RandomizationFactor: 0.5, Multiplier: 2}
	return backoff.Retry(op, backoff.WithContext(backoff.WithMaxRetries(b, 3), ctx))
}
