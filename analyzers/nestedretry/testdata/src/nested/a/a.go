// Package a retries calls to b, which retries calls to c: 27.
package a

import (
	"context"

	"nested/b"
)

func Warm(ctx context.Context, k *b.Cache) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = k.Load(ctx, "home"); err == nil { // want `retry amplification 3×3×3 = 27: this loop \(3 attempts\) calls \(\*b.Cache\).Load, which retries \(3 attempts\), which calls \(\*c.Store\).Get, which retries \(3 attempts\) in \(\*c.Store\).fetch, so a failing dependency gets 27 requests`
			return nil
		}
	}
	return err
}

// A single layer: LoadOnce's loop is the only one.
func WarmOnce(ctx context.Context, k *b.Cache) error {
	return k.LoadOnce(ctx, "home")
}
