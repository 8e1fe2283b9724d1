package loops

import (
	"context"
	"math/rand"
	"time"
)

// A select on the Done channel of a context that never ends is no exit.
func backgroundLoop() error {
	ctx := context.Background()
	for { // want `has no attempt limit and no context or deadline to stop it`
		if err := send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int63n(int64(time.Second)))):
		}
	}
}

func backgroundErrLoop() error {
	ctx := context.TODO()
	for { // want `has no attempt limit and no context or deadline to stop it`
		if err := send(ctx); err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		time.Sleep(time.Duration(rand.Int63n(int64(time.Second))))
	}
}

// The caller's context, or one made cancellable here, can end: fine.
func paramCtxLoop(ctx context.Context) error {
	for {
		if err := send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int63n(int64(time.Second)))):
		}
	}
}

func cancelLoop(stop <-chan struct{}) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { <-stop; cancel() }()
	for {
		if err := send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int63n(int64(time.Second)))):
		}
	}
}
