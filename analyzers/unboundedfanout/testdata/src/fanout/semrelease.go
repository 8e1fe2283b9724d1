package fanout

import (
	"context"
	"sync"

	"golang.org/x/sync/semaphore"
)

// The slot is given back before the goroutine starts: it bounds nothing.
func paced(ctx context.Context, sem *semaphore.Weighted, ids []string) {
	var wg sync.WaitGroup
	for _, id := range ids {
		if err := sem.Acquire(ctx, 1); err != nil {
			break
		}
		sem.Release(1)
		wg.Add(1)
		go func() { // want `one goroutine per element of ids with no limit`
			defer wg.Done()
			lookupID(ctx, id)
		}()
	}
	wg.Wait()
}
