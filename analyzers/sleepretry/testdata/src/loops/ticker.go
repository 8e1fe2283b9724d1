package loops

import (
	"context"
	"errors"
	"log"
	"time"
)

// A retry paced by a ticker made before the loop: the failed call goes
// round after every tick, success leaves. Each attempt waits the same
// period (issue 13, rule 3: it re-issues the same operation after a
// failure). No fix: the period is the ticker's.
func flushUntilDone(ctx context.Context) error {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for attempt := 0; ; attempt++ {
		if err := send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C: // want `retry loop waits the same time.Second before every attempt`
		}
	}
}

// Periodic work on a ticker that never leaves on success: pacing.
func shipForever(ctx context.Context) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		_ = send(ctx)
	}
}

// Periodic work that checks its context after each round: leaving on
// ctx.Err() is cancellation, not the success leaving, so it is pacing.
func rotateEvery(ctx context.Context, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			err := send(ctx)
			if err != nil {
				if !errors.Is(err, context.Canceled) && ctx.Err() == nil {
					log.Print(err)
				}
				if ctx.Err() != nil {
					return
				}
				continue
			}
			if ctx.Err() != nil {
				return
			}
			if err := sendItem(ctx, 1); err != nil {
				log.Print(err)
			}
		case <-ctx.Done():
			return
		}
	}
}
