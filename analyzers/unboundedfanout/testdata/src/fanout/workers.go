package fanout

import (
	"context"
	"sync"
)

// Rule 5: a pool of workers. A counted loop up to a worker count starts
// goroutines that each take several items in a loop of their own (a
// stride over the shared slice): that many workers, not one goroutine per
// element of data.
func StrideWorkers(ctx context.Context, orders []Order, workers int) {
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(orders); i += workers {
				ship(ctx, orders[i])
			}
		}(w)
	}
	wg.Wait()
}

// A counted loop up to the collection's length is one goroutine per
// element, whatever each goroutine loops over.
func PerOrderTwice(ctx context.Context, orders []Order) {
	n := len(orders)
	for i := 0; i < n; i++ {
		go func(i int) { // want `one goroutine per iteration up to n`
			for range 2 {
				ship(ctx, orders[i])
			}
		}(i)
	}
}

// Work done once per goroutine outside its loop: one call per iteration.
func WorkersThenShip(ctx context.Context, orders []Order, workers int) {
	for w := 0; w < workers; w++ {
		go func(w int) { // want `one goroutine per iteration up to workers`
			ship(ctx, orders[w])
			for i := w; i < len(orders); i += workers {
				ship(ctx, orders[i])
			}
		}(w)
	}
}

// A goroutine that retries its one item a constant number of times is no
// worker taking several items: one goroutine per iteration.
func RetryEach(ctx context.Context, orders []Order, n int) {
	for i := 0; i < n; i++ {
		go func(i int) { // want `one goroutine per iteration up to n`
			for attempt := 0; attempt < 3; attempt++ {
				if ship(ctx, orders[i]) == nil {
					return
				}
			}
		}(i)
	}
}
