// Package retryiter yields attempt numbers with a pause between them: the
// loops of other packages that range over it are charged with the pause.
package retryiter

import (
	"context"
	"iter"
	"math/rand"
	"time"
)

// Attempts yields n attempt numbers with a fixed, ctx-blind pause.
func Attempts(n int, d time.Duration) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
			time.Sleep(d)
		}
	}
}

// Backoff yields with a jittered pause that ends when ctx is done.
func Backoff(ctx context.Context, n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Duration(rand.Int63n(int64(time.Second) << i))):
			}
		}
	}
}
