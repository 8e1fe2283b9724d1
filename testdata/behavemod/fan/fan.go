// Package fan starts a goroutine per item in each of the shapes resilint's
// unboundedfanout fixes bound, or must leave alone.
package fan

import (
	"context"
	"sync"

	"golang.org/x/sync/errgroup"

	"example.com/behavemod/probe"
)

// FanIn sends the results on an unbuffered channel drained after the loop.
func FanIn(ctx context.Context, p *probe.Probe, items []int) (int, error) {
	res := make(chan error)
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res <- p.Work(ctx, it)
		}()
	}
	go func() {
		wg.Wait()
		close(res)
	}()
	n := 0
	var first error
	for err := range res {
		n++
		if err != nil && first == nil {
			first = err
		}
	}
	return n, first
}

// Buffered sends the results on a channel with room for all of them.
func Buffered(ctx context.Context, p *probe.Probe, items []int) int {
	res := make(chan error, len(items))
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res <- p.Work(ctx, it)
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

// Counted drains exactly one result per item after the loop, the
// goroutines sending in a select with the context.
func Counted(ctx context.Context, p *probe.Probe, items []int) (int, error) {
	res := make(chan error)
	for i := 0; i < len(items); i++ {
		it := items[i]
		go func() {
			select {
			case res <- p.Work(ctx, it):
			case <-ctx.Done():
			}
		}()
	}
	n := 0
	for range items {
		if err := <-res; err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// Mutex collects the errors under a mutex.
func Mutex(ctx context.Context, p *probe.Probe, items []int) []error {
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := p.Work(ctx, it); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errs
}

// Each records each item's error: a caller whose context is already
// cancelled gets the context's error for every item.
func Each(ctx context.Context, p *probe.Probe, items []int) []error {
	errs := make([]error, len(items))
	var wg sync.WaitGroup
	for i, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = p.Work(ctx, it)
		}()
	}
	wg.Wait()
	return errs
}

// Group runs the items in an errgroup and returns the first error.
func Group(ctx context.Context, p *probe.Probe, items []int) error {
	g, gctx := errgroup.WithContext(ctx)
	for _, it := range items {
		g.Go(func() error {
			return p.Work(gctx, it)
		})
	}
	return g.Wait()
}

// Nested starts a goroutine per batch, each a goroutine per item.
func Nested(ctx context.Context, outer, inner *probe.Probe, batches [][]int) error {
	g, gctx := errgroup.WithContext(ctx)
	for _, batch := range batches {
		g.Go(func() error {
			defer outer.Enter()()
			ig, ictx := errgroup.WithContext(gctx)
			for _, it := range batch {
				ig.Go(func() error {
					return inner.Work(ictx, it)
				})
			}
			return ig.Wait()
		})
	}
	return g.Wait()
}

// Collector drains the results in a goroutine started before the loop.
func Collector(ctx context.Context, p *probe.Probe, items []int) (int, error) {
	res := make(chan error)
	done := make(chan struct{})
	n := 0
	go func() {
		defer close(done)
		for range res {
			n++
		}
	}()
	var g errgroup.Group
	for _, it := range items {
		g.Go(func() error {
			res <- p.Work(ctx, it)
			return nil
		})
	}
	err := g.Wait()
	close(res)
	<-done
	return n, err
}

// FedAfter's goroutines wait for the items the function sends after
// starting them all: a limit would deadlock it.
func FedAfter(ctx context.Context, p *probe.Probe, items []int) int {
	in := make(chan int)
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	for range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if p.Work(ctx, <-in) == nil {
				mu.Lock()
				n++
				mu.Unlock()
			}
		}()
	}
	for _, it := range items {
		in <- it
	}
	wg.Wait()
	return n
}

// StartSignal's goroutines wait for a signal given after the loop.
func StartSignal(ctx context.Context, p *probe.Probe, items []int) error {
	start := make(chan struct{})
	g, gctx := errgroup.WithContext(ctx)
	for _, it := range items {
		g.Go(func() error {
			<-start
			return p.Work(gctx, it)
		})
	}
	close(start)
	return g.Wait()
}
