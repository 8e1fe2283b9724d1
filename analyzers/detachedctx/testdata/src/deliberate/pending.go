package deliberate

import (
	"context"
	"errors"
	"time"
)

type Object interface {
	Compose(ctx context.Context) error
	Delete(ctx context.Context) error
}

// Cleanup that runs whatever the work on ctx gave, before its failure is
// handled: the work may have failed because ctx is done, and the cleanup
// must run then too (issue 13, rule 6).
func ComposeThenClean(ctx context.Context, dst, part Object) error {
	err := dst.Compose(ctx)
	delCtx, cancel := context.WithDeadline(context.Background(), time.Now().Add(time.Minute)) // silent
	defer cancel()
	errDelete := part.Delete(delCtx) // silent
	return errors.Join(err, errDelete)
}

// Logging the error does not handle it: the cleanup still runs on the
// failure path.
func ComposeLogged(ctx context.Context, dst, part Object, logf func(string, ...any)) error {
	err := dst.Compose(ctx)
	logf("compose finished, err: %v", err)
	delCtx, cancel := context.WithDeadline(context.Background(), time.Now().Add(time.Minute)) // silent
	defer cancel()
	_ = part.Delete(delCtx)
	return err
}

// The failure is handled first: what follows runs only on success, on the
// caller's path.
func ComposeChecked(ctx context.Context, dst, part Object) error {
	if err := dst.Compose(ctx); err != nil {
		return err
	}
	return part.Delete(context.Background()) // want `\(deliberate.Object\).Delete takes a context and gets context.Background\(\)`
}

// An error checked before the call is not pending at it.
func ComposeCheckedVar(ctx context.Context, dst, part Object) error {
	err := dst.Compose(ctx)
	if err != nil {
		return err
	}
	return part.Delete(context.Background()) // want `\(deliberate.Object\).Delete takes a context and gets context.Background\(\)`
}

// Work that did not get the caller's context leaves no failure of the
// caller's pending.
func ComposeFresh(ctx context.Context, dst, part Object) error {
	err := dst.Compose(context.Background()) // want `\(deliberate.Object\).Compose takes a context and gets context.Background\(\)`
	errDelete := part.Delete(context.Background()) // want `\(deliberate.Object\).Delete takes a context and gets context.Background\(\)`
	return errors.Join(err, errDelete)
}
