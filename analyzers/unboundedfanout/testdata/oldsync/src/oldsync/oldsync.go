// Package oldsync uses an errgroup without SetLimit: the fix bounds the
// goroutines with a channel semaphore instead.
package oldsync

import (
	"context"

	"golang.org/x/sync/errgroup"
)

func All(ctx context.Context, ids []string) error {
	g, gctx := errgroup.WithContext(ctx)
	for _, id := range ids {
		g.Go(func() error { // want `one goroutine per element of ids`
			return fetch(gctx, id)
		})
	}
	return g.Wait()
}
