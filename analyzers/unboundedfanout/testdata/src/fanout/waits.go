package fanout

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"
)

// A wait before the work is no limit: the goroutines all start, wait, and
// then all call the dependency. A receive from a channel a call returns
// (ctx.Done(), time.After) takes no token shared by the goroutines.
func StaggeredStart(ctx context.Context, ids []string) {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { // want `one goroutine per element of ids`
			<-time.After(time.Duration(rand.IntN(100)) * time.Millisecond)
			_ = post(ctx, "http://orders.internal/items/"+id)
		})
	}
	wg.Wait()
}

func WaitOrCancel(ctx context.Context, ids []string) {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { // want `one goroutine per element of ids`
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
			_ = post(ctx, "http://orders.internal/items/"+id)
		})
	}
	wg.Wait()
}

// A shared ticker paces the goroutines: one call per tick in all.
func Paced(ctx context.Context, ids []string) {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			<-tick.C
			_ = post(ctx, "http://orders.internal/items/"+id)
		})
	}
	wg.Wait()
}
