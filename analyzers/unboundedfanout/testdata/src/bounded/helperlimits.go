package bounded

import (
	"context"
	"sync"

	"limclient"
)

// Issue 13, rule 5: a limit enforced inside a helper of another package on
// the path to every request (followed through facts). A semaphore of
// any capacity is a limit, one from a parameter too: its size is the
// user's choice.
func HelperLimits(ctx context.Context, c *limclient.Client, ids []string) {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { _ = c.Get(ctx, id) })
		wg.Go(func() { _ = c.Selected(ctx, id) })
		wg.Go(func() { _ = c.Weighted(ctx, id) })
		wg.Go(func() { _ = c.Paced(ctx, id) })
		wg.Go(func() { _ = c.Locked(ctx, id) })
		wg.Go(func() { _ = c.Gated(ctx, id) })
	}
	wg.Wait()
}
