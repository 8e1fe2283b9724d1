package fixes

import (
	"context"
	"sync"
)

// Two WaitGroups in one file would leave sync unused when both fixes are
// applied, and used when one is: no fix for either.
func Twice(ctx context.Context, photos []Photo) {
	var wg sync.WaitGroup
	for _, p := range photos {
		wg.Add(1)
		go func() { // want `one goroutine per element of photos`
			defer wg.Done()
			render(ctx, p)
		}()
	}
	wg.Wait()
}

func Again(ctx context.Context, photos []Photo) {
	var wg sync.WaitGroup
	for _, p := range photos {
		wg.Add(1)
		go func() { // want `one goroutine per element of photos`
			defer wg.Done()
			render(ctx, p)
		}()
	}
	wg.Wait()
}
