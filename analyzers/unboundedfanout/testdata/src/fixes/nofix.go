package fixes

import (
	"context"
	"sync"

	"golang.org/x/sync/errgroup"
)

// No fix where a limit could deadlock: the launches wait for a free slot
// while the loop holds a lock the goroutines take, or the goroutines wait
// on a condition that only code after the loop signals.

func Pending(ctx context.Context, photos []Photo) {
	var mu sync.Mutex
	pending := map[string]bool{}
	var wg sync.WaitGroup
	for _, p := range photos {
		mu.Lock()
		pending[p.URL] = true
		wg.Add(1)
		go func() { // want `one goroutine per element of photos`
			defer wg.Done()
			render(ctx, p)
			mu.Lock()
			delete(pending, p.URL)
			mu.Unlock()
		}()
		mu.Unlock()
	}
	wg.Wait()
}

func Gated(ctx context.Context, photos []Photo) {
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	open := false
	var wg sync.WaitGroup
	for _, p := range photos {
		wg.Add(1)
		go func() { // want `one goroutine per element of photos`
			defer wg.Done()
			mu.Lock()
			for !open {
				cond.Wait()
			}
			mu.Unlock()
			render(ctx, p)
		}()
	}
	mu.Lock()
	open = true
	cond.Broadcast()
	mu.Unlock()
	wg.Wait()
}

// The group also runs best-effort tasks with TryGo: a limit would make it
// refuse them, and the tasks would be dropped.
func WithBestEffort(ctx context.Context, photos []Photo, extra func() error) error {
	var g errgroup.Group
	for _, p := range photos {
		g.Go(func() error { return render(ctx, p) }) // want `one goroutine per element of photos`
	}
	g.TryGo(extra)
	return g.Wait()
}

// The goroutines wait on a gate through a method of its type; the gate is
// opened only after the loop.
type gate struct{ ch chan struct{} }

func (g *gate) wait() { <-g.ch }
func (g *gate) open() { close(g.ch) }

func GatedByMethod(ctx context.Context, photos []Photo) {
	gt := &gate{ch: make(chan struct{})}
	var wg sync.WaitGroup
	for _, p := range photos {
		wg.Add(1)
		go func() { // want `one goroutine per element of photos`
			defer wg.Done()
			render(ctx, p)
			gt.wait()
		}()
	}
	gt.open()
	wg.Wait()
}
