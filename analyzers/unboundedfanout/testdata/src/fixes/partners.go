package fixes

import (
	"context"
	"sync"

	"golang.org/x/sync/errgroup"
)

// The goroutines send their results on an unbuffered channel that is
// drained only after the loop: with a limit, Go would wait for a free slot
// while every slot waits for the drain. The fix gives the channel room for
// every item.
func FanIn(ctx context.Context, photos []Photo) error {
	res := make(chan error)
	var wg sync.WaitGroup
	for _, p := range photos {
		wg.Add(1)
		go func() { // want `one goroutine per element of photos`
			defer wg.Done()
			res <- render(ctx, p)
		}()
	}
	go func() {
		wg.Wait()
		close(res)
	}()
	var first error
	for err := range res {
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Counted drain after the loop, over a select with the caller's context:
// sized too.
func Counted(ctx context.Context, photos []Photo) error {
	res := make(chan error)
	for i := 0; i < len(photos); i++ {
		p := photos[i]
		go func() { // want `one goroutine per iteration up to len\(photos\)`
			select {
			case res <- render(ctx, p):
			case <-ctx.Done():
			}
		}()
	}
	for range photos {
		if err := <-res; err != nil {
			return err
		}
	}
	return nil
}

// A collector started before the loop drains as the goroutines send: no
// sizing needed.
func Collected(ctx context.Context, photos []Photo) error {
	res := make(chan error)
	done := make(chan struct{})
	var first error
	go func() {
		defer close(done)
		for err := range res {
			if first == nil {
				first = err
			}
		}
	}()
	var g errgroup.Group
	for _, p := range photos {
		g.Go(func() error { // want `one goroutine per element of photos`
			res <- render(ctx, p)
			return nil
		})
	}
	g.Wait()
	close(res)
	<-done
	return first
}

// The goroutines wait for values the function sends after the launches:
// a limit deadlocks, and nothing can be sized. No fix.
func FedAfter(ctx context.Context, photos []Photo) {
	in := make(chan Photo)
	var wg sync.WaitGroup
	for range photos {
		wg.Add(1)
		go func() { // want `one goroutine per element of photos`
			defer wg.Done()
			render(ctx, <-in)
		}()
	}
	for _, p := range photos {
		in <- p
	}
	wg.Wait()
}

// errgroup's SetLimit would deadlock the same way: no fix.
func StartSignal(ctx context.Context, photos []Photo) error {
	start := make(chan struct{})
	g, gctx := errgroup.WithContext(ctx)
	for _, p := range photos {
		g.Go(func() error { // want `one goroutine per element of photos`
			<-start
			return render(gctx, p)
		})
	}
	close(start)
	return g.Wait()
}

// Goroutines that wait for the function's cancellation, then all call the
// dependency at once: fan-out, but a limit would deadlock (the slots are
// held until the cancellation, which comes after the loop), so no fix.
func UntilDone(ctx context.Context, photos []Photo) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for _, p := range photos {
		go func() { // want `one goroutine per element of photos`
			<-ctx.Done()
			render(context.Background(), p)
		}()
	}
}

// A goroutine that waits on a lock the function holds across the loop:
// the lock serialises the work (no finding), and a limit would deadlock.
func Locked(ctx context.Context, photos []Photo) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	mu.Lock()
	for _, p := range photos {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			defer mu.Unlock()
			render(ctx, p)
		}()
	}
	mu.Unlock()
	wg.Wait()
}

// A lock taken and released in each goroutine: fixed.
func Guarded(ctx context.Context, photos []Photo) []error {
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for _, p := range photos {
		wg.Add(1)
		go func() { // want `one goroutine per element of photos`
			defer wg.Done()
			if err := render(ctx, p); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errs
}

// A result channel made with room for every item: no sizing, no wait.
func Roomy(ctx context.Context, photos []Photo) int {
	res := make(chan error, len(photos))
	var wg sync.WaitGroup
	for _, p := range photos {
		wg.Add(1)
		go func() { // want `one goroutine per element of photos`
			defer wg.Done()
			res <- render(ctx, p)
		}()
	}
	wg.Wait()
	close(res)
	n := 0
	for range res {
		n++
	}
	return n
}
