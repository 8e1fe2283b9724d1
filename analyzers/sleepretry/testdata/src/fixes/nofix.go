package fixes

import (
	"context"
	"sync"
	"time"
)

// No fix where an early return would change what the code does: the wait
// is reported, with its advice, and left as it is.

var mu sync.Mutex

// The loop holds a lock across the wait: a return added there would leave
// it locked.
func locked(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		mu.Lock()
		err = send(ctx)
		if err == nil {
			mu.Unlock()
			return nil
		}
		time.Sleep(time.Second) // want `waits the same time.Second before every attempt`
		mu.Unlock()
	}
	return err
}

// The function still has to send the outcome after the loop.
func reports(ctx context.Context, out chan<- error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			break
		}
		time.Sleep(time.Second) // want `waits the same time.Second before every attempt`
	}
	out <- err
	close(out)
}

// The retried call runs on a context that outlives ctx on purpose: a wait
// that ends with ctx would stop retries meant to go on.
func detached(ctx context.Context) error {
	bg := context.WithoutCancel(ctx)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(bg); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `waits the same time.Second before every attempt`
	}
	return err
}
