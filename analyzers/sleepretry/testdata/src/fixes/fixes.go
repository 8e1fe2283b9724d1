// Package fixes has retry loops whose waits the fix rewrites.
package fixes

import (
	"context"
	"math/rand"
	"net/http"
	"time"
)

func send(ctx context.Context) error          { return nil }
func get(ctx context.Context) (string, error) { return "", nil }

func fixedSleep(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `waits the same time.Second before every attempt, and waits with time.Sleep, which ignores ctx`
	}
	return err
}

func fromOne(ctx context.Context) (string, error) {
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		var v string
		if v, err = get(ctx); err == nil {
			return v, nil
		}
		time.Sleep(200 * time.Millisecond) // want `waits the same 200 \* time.Millisecond`
	}
	return "", err
}

func selectFixed(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Second): // want `waits the same 2 \* time.Second`
		}
	}
	return err
}

func growing(ctx context.Context) error {
	delay := 100 * time.Millisecond
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay): // want `grows its wait \(delay\) without jitter`
		}
		delay *= 2
	}
	return err
}

func jitteredBlind(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		<-time.After(time.Duration(rand.Intn(100<<attempt)) * time.Millisecond) // want `waits with a bare receive from time.After, which ignores ctx`
	}
	return err
}

func noResults(ctx context.Context) {
	for i := 0; i < 3; i++ {
		if err := send(ctx); err == nil {
			return
		}
		time.Sleep(time.Second) // want `waits the same time.Second`
	}
}

type client struct{ delay time.Duration }

func (c *client) handle(w http.ResponseWriter, r *http.Request) {
	for attempt := 0; attempt < 3; attempt++ {
		if err := send(r.Context()); err == nil {
			return
		}
		time.Sleep(c.delay) // want `waits the same c.delay before every attempt, and waits with time.Sleep, which ignores r.Context\(\)`
	}
}

// No attempt variable: no fix.
func noAttempt(ctx context.Context) error {
	for {
		if err := send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second): // want `waits the same time.Second`
		}
	}
}

// No context in scope: no fix.
func noCtx() error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(context.TODO()); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `waits the same time.Second before every attempt: `
	}
	return err
}

// Named results keep the values the loop gave them.
func named(ctx context.Context) (tries int, err error) {
	for attempt := 0; attempt < 3; attempt++ {
		tries++
		if err = send(ctx); err == nil {
			return
		}
		time.Sleep(time.Second) // want `waits the same time.Second before every attempt`
	}
	return
}
