package fixes

import (
	"context"
	"sync"
)

// WaitGroup.Go per value received, in a file that uses package context only
// in Background() calls (another fix may replace them and delete the
// import the group fix would use): a semaphore, which needs no import.
func Drain(events <-chan Photo) {
	var wg sync.WaitGroup
	for ev := range events {
		wg.Go(func() { // want `one goroutine per value received from events`
			render(context.Background(), ev)
		})
	}
	wg.Wait()
}
