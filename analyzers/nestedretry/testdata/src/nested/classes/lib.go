package classes

import (
	"context"
	"errors"

	retry "github.com/avast/retry-go/v4"
)

// libTransient retries with retry-go only errTransient (RetryIf).
func (a *api) libTransient(ctx context.Context) error {
	return retry.Do(func() error { return a.once(ctx) }, retry.Attempts(3), retry.Context(ctx),
		retry.RetryIf(func(err error) bool { return errors.Is(err, errTransient) }))
}

// libEvery retries every error with retry-go.
func (a *api) libEvery(ctx context.Context) error {
	return retry.Do(func() error { return a.once(ctx) }, retry.Attempts(3), retry.Context(ctx))
}

// The library retry never fires for a conflict, the only failure the
// outer loop retries.
func (a *api) conflictOverLib(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		err = a.libTransient(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errConflict) {
			return err
		}
	}
	return err
}

// Both retry errTransient.
func (a *api) transientOverLib(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		err = a.libTransient(ctx) // want `retry amplification 2×3 = 6`
		if err == nil {
			return nil
		}
		if !errors.Is(err, errTransient) {
			return err
		}
	}
	return err
}

func (a *api) conflictOverLibEvery(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		err = a.libEvery(ctx) // want `retry amplification 2×3 = 6`
		if err == nil {
			return nil
		}
		if !errors.Is(err, errConflict) {
			return err
		}
	}
	return err
}
