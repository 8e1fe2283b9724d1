package fixes

import (
	"context"
	"sync"
)

// WaitGroup.Go per value received: likewise, with no context in scope.
func Drain(events <-chan Photo) {
	var wg sync.WaitGroup
	for ev := range events {
		wg.Go(func() { // want `one goroutine per value received from events`
			render(context.Background(), ev)
		})
	}
	wg.Wait()
}
