// Package a retries calls to b, which retries calls to c: 27.
package a

import (
	"context"

	"example.com/retrymod/b"
)

func Warm(ctx context.Context, k *b.Cache) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = k.Load(ctx, "home"); err == nil {
			return nil
		}
	}
	return err
}

// A single layer: LoadOnce's loop is the only one.
func WarmOnce(ctx context.Context, k *b.Cache) error {
	return k.LoadOnce(ctx, "home")
}
