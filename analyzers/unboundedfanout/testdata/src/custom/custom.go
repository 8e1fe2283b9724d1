// Package custom uses a team's own concurrency bound.
package custom

import (
	"context"
	"net/http"

	"example.com/mybounds"
)

func work(ctx context.Context, s string) {
	if resp, err := http.Get("http://items.internal/" + s); err == nil {
		resp.Body.Close()
	}
}

func Bounded(ctx context.Context, lim *mybounds.Limiter, items []string) {
	for _, it := range items {
		if err := lim.Wait(ctx); err != nil {
			return
		}
		go work(ctx, it)
	}
}

func Unbounded(ctx context.Context, items []string) {
	for _, it := range items {
		go work(ctx, it) // want `one goroutine per element of items`
	}
}
