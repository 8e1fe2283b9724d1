// Package usecfg retries through a helper the configuration declares.
package usecfg

import (
	"context"

	"nested/c"
	"nested/own"
)

func Load(ctx context.Context, s *c.Store) error {
	return own.Do(func() error {
		return s.Get(ctx, "k") // want `retry amplification 4×3 = 12: this own.Do \(4 attempts\) calls \(\*c.Store\).Get`
	})
}
