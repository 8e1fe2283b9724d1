package fixes

import (
	"context"
	"errors"
	"sync"
)

var errBadPhoto = errors.New("bad photo")

// A WaitGroup waited batch by batch in an outer loop is used for many
// rounds: a resil.Group runs nothing given to it after its Wait, so the
// goroutines are bounded with a semaphore instead.
func Batches(ctx context.Context, batches [][]Photo) {
	var wg sync.WaitGroup
	for _, batch := range batches {
		for _, p := range batch {
			wg.Add(1)
			go func() { // want `one goroutine per element of batch`
				defer wg.Done()
				render(ctx, p)
			}()
		}
		wg.Wait()
	}
}

// A return from inside the loop never reaches Wait: a resil.Group's
// workers would stay blocked, the semaphore's goroutines just finish.
func UntilBad(ctx context.Context, photos []Photo) error {
	var wg sync.WaitGroup
	for _, p := range photos {
		if p.URL == "" {
			return errBadPhoto
		}
		wg.Add(1)
		go func() { // want `one goroutine per element of photos`
			defer wg.Done()
			render(ctx, p)
		}()
	}
	wg.Wait()
	return nil
}
