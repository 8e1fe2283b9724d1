package fanout

import (
	"context"
	"sync"
)

// Drain starts a goroutine per event, with WaitGroup.Go.
func Drain(events <-chan Item) {
	var wg sync.WaitGroup
	for ev := range events {
		wg.Go(func() {
			process(context.Background(), ev)
		})
	}
	wg.Wait()
}
