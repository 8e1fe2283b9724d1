package fixes

import (
	"context"
	"time"

	"github.com/resilint/resilint/resil"
)

// The file imports resil already.
func already(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		if err := resil.Sleep(ctx, time.Second); err != nil { // want `waits the same time.Second before every attempt: `
			return err
		}
	}
	return err
}
