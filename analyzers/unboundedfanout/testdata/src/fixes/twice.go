package fixes

import (
	"context"
	"sync"
)

// Two WaitGroups in one file, the file's only uses of sync: both are
// fixed, and each fix deletes the import (one edit, applied once).
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
