// Package plain is in a module that does not require resil: the fix for a
// WaitGroup fan-out is a channel semaphore, which needs no import.
package plain

import (
	"context"
	"sync"
)

func All(ctx context.Context, ids []string) []error {
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() { // want `one goroutine per element of ids`
			defer wg.Done()
			errs[i] = fetch(ctx, id)
		}()
	}
	wg.Wait()
	return errs
}

func Each(ctx context.Context, ids []string) {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { fetch(ctx, id) }) // want `one goroutine per element of ids`
	}
	wg.Wait()
}

// Nested fan-out: each fix states the bound of the whole nest.
func Nested(ctx context.Context, batches [][]string) {
	var wg sync.WaitGroup
	for _, batch := range batches {
		wg.Add(1)
		go func() { // want `one goroutine per element of batches`
			defer wg.Done()
			var inner sync.WaitGroup
			for _, id := range batch {
				inner.Add(1)
				go func() { // want `one goroutine per element of batch`
					defer inner.Done()
					fetch(ctx, id)
				}()
			}
			inner.Wait()
		}()
	}
	wg.Wait()
}
