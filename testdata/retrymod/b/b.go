// Package b retries calls to c, which retries itself.
package b

import (
	"context"
	"math/rand"
	"time"

	"example.com/retrymod/c"
)

type Cache struct{ store *c.Store }

func (k *Cache) Load(ctx context.Context, key string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = k.store.Get(ctx, key); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int63n(int64(time.Second)))):
		}
	}
	return err
}

// Once is retried here, but it sends a single request: one layer.
func (k *Cache) LoadOnce(ctx context.Context, key string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = k.store.Once(ctx, key); err == nil {
			return nil
		}
	}
	return err
}
