// Package fixes holds fan-out that the fixes bound.
package fixes

import (
	"context"
	"sync"

	"golang.org/x/sync/errgroup"
)

type Photo struct{ URL string }

// errgroup without a limit: the fix sets one after the group is created.
func Thumbnails(ctx context.Context, photos []Photo) error {
	g, gctx := errgroup.WithContext(ctx)
	for _, p := range photos {
		g.Go(func() error { return render(gctx, p) }) // want `one goroutine per element of photos with no limit, each calling images.internal \(fixes.render → \(\*http.Client\).Do\): a large batch opens as many connections to images.internal at once, and a slow response holds them all; bound it with g.SetLimit\(16\)`
	}
	return g.Wait()
}

func Zero(photos []Photo) error {
	var g errgroup.Group
	for _, p := range photos {
		g.Go(func() error { return render(context.Background(), p) }) // want `one goroutine per element of photos`
	}
	return g.Wait()
}

// go + WaitGroup: the fix runs the goroutines in resil's bounded group.
func Render(ctx context.Context, photos []Photo) []error {
	errs := make([]error, len(photos))
	var wg sync.WaitGroup
	for i, p := range photos {
		wg.Add(1)
		go func() { // want `one goroutine per element of photos`
			defer wg.Done()
			if p.URL == "" {
				return
			}
			errs[i] = render(ctx, p)
		}()
	}
	wg.Wait()
	return errs
}
