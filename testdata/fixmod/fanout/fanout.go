// Package fanout starts a goroutine per item with no limit.
package fanout

import (
	"context"

	"golang.org/x/sync/errgroup"
)

type Item struct{ ID string }

func process(ctx context.Context, it Item) error { return nil }

// All uses an errgroup without a limit.
func All(ctx context.Context, items []Item) error {
	g, ctx := errgroup.WithContext(ctx)
	for _, it := range items {
		g.Go(func() error { return process(ctx, it) })
	}
	return g.Wait()
}
