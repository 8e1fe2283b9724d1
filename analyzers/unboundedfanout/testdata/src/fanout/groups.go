package fanout

import (
	"context"

	"grouputil"
)

func refresh(ctx context.Context, id string) error { return post(ctx, "http://quotes.internal/"+id) }

// A group from another package's helper that sets no limit.
func requote(ctx context.Context, ids []string) error {
	g, gctx := grouputil.NewTaskGroup(ctx)
	for _, id := range ids {
		g.Go(func() error { return refresh(gctx, id) }) // want `one goroutine per element of ids`
	}
	return g.Wait()
}

// One that does.
func requoteLimited(ctx context.Context, ids []string) error {
	g, gctx := grouputil.NewGroup(ctx, 8)
	for _, id := range ids {
		g.Go(func() error { return refresh(gctx, id) })
	}
	return g.Wait()
}
