package fanout

import (
	"context"
	"sync"

	"limclient"
)

// A limit taken on one branch only is no limit.
func HelperLimitsOneBranch(ctx context.Context, c *limclient.Client, ids []string) {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { _ = c.Sometimes(ctx, id) }) // want `one goroutine per element of ids`
	}
	for _, id := range ids {
		wg.Go(func() { _ = c.Branch(ctx, id) }) // want `one goroutine per element of ids`
	}
	for _, id := range ids {
		wg.Go(func() { _ = c.TryOrGo(ctx, id) }) // want `one goroutine per element of ids`
	}
	wg.Wait()
}
