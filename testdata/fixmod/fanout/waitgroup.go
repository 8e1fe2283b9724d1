package fanout

import (
	"context"
	"sync"
)

// Each uses bare goroutines and a WaitGroup.
func Each(ctx context.Context, items []Item) []error {
	errs := make([]error, len(items))
	var wg sync.WaitGroup
	for i, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if it.ID == "" {
				return
			}
			errs[i] = process(ctx, it)
		}()
	}
	wg.Wait()
	return errs
}
