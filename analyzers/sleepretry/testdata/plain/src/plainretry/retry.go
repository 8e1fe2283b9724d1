// Package plainretry is in a module that does not require resil: the
// findings stay, naming resil, and no fix imports it.
package plainretry

import (
	"context"
	"time"
)

func send(ctx context.Context) error { return nil }

func fixedSleep(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `waits the same time.Second before every attempt.*resil.Sleep`
	}
	return err
}
