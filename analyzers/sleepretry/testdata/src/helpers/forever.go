package helpers

import (
	"context"
	"time"

	retry "github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
	backoffv5 "github.com/cenkalti/backoff/v5"
)

// The only stop is a context that never ends, or the time limit is removed.

func v5Background() error {
	_, err := backoffv5.Retry(context.Background(), func() (int, error) { return 0, op() }, backoffv5.WithMaxElapsedTime(0)) // want `backoff.Retry retries with no attempt limit, no time limit and no context that can end: it retries forever`
	return err
}

func v5BackgroundVar() error {
	ctx := context.Background()
	_, err := backoffv5.Retry(ctx, func() (int, error) { return 0, op() }, backoffv5.WithMaxElapsedTime(0)) // want `backoff.Retry retries with no attempt limit, no time limit`
	return err
}

// The caller's context can end: fine.
func v5Ctx(ctx context.Context) error {
	_, err := backoffv5.Retry(ctx, func() (int, error) { return 0, op() }, backoffv5.WithMaxElapsedTime(0))
	return err
}

// A cancellable context made here can end: fine.
func v5Cancel() error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := backoffv5.Retry(ctx, func() (int, error) { return 0, op() }, backoffv5.WithMaxElapsedTime(0))
	return err
}

// The default 15-minute limit, or an attempt limit: fine.
func v5BackgroundLimited() error {
	_, err := backoffv5.Retry(context.Background(), func() (int, error) { return 0, op() })
	if err != nil {
		return err
	}
	_, err = backoffv5.Retry(context.Background(), func() (int, error) { return 0, op() }, backoffv5.WithMaxElapsedTime(0), backoffv5.WithMaxTries(5))
	return err
}

func retryGoBackground() error {
	return retry.Do(op, retry.UntilSucceeded(), retry.Context(context.Background())) // want `retry.Do retries with no attempt limit, no time limit and no context that can end`
}

func retryGoTODO() error {
	return retry.Do(op, retry.UntilSucceeded(), retry.Context(context.TODO())) // want `retry.Do retries with no attempt limit`
}

func v4NoElapsedLimit() error {
	return backoff.Retry(op, backoff.NewExponentialBackOff(backoff.WithMaxElapsedTime(0))) // want `backoff.Retry retries with no attempt limit, no time limit and no context that can end`
}

// The default MaxElapsedTime, a context, or a retry limit: fine.
func v4Limited(ctx context.Context) error {
	if err := backoff.Retry(op, backoff.NewExponentialBackOff()); err != nil {
		return err
	}
	if err := backoff.Retry(op, backoff.WithContext(backoff.NewExponentialBackOff(backoff.WithMaxElapsedTime(0)), ctx)); err != nil {
		return err
	}
	return backoff.Retry(op, backoff.WithMaxRetries(backoff.NewExponentialBackOff(backoff.WithMaxElapsedTime(0)), 3))
}

func v4NoElapsedLimitBackground() error {
	return backoff.Retry(op, backoff.WithContext(backoff.NewExponentialBackOff(backoff.WithMaxElapsedTime(0)), context.Background())) // want `backoff.Retry retries with no attempt limit`
}

var _ = time.Second
