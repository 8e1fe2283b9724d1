package loops

import (
	"context"
	"iter"
	"math/rand"
	"time"
)

// Range-over-func retry loops (issue 13, rule 9): the iterator's pause
// between two yields is the wait of the loop that ranges over it, reported
// where it is.

// attempts yields n attempt numbers, pausing d between two of them.
func attempts(n int, d time.Duration) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
			time.Sleep(d) // want `^retry loop waits the same d before every attempt, and waits with time.Sleep between yields, which ignores ctx of the loop that ranges over it: .*; give the iterator ctx and sleep with resil.Sleep\(ctx, d\), which returns when it is done, and keep the interval`
		}
	}
}

func sendWithAttempts(ctx context.Context) error {
	var err error
	for range attempts(5, time.Second) {
		if err = send(ctx); err == nil {
			return nil
		}
	}
	return err
}

// The same iterator with a jittered, context-aware pause: nothing to say.
func jitteredAttempts(ctx context.Context, n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Duration(rand.Int63n(int64(time.Second) << i))):
			}
		}
	}
}

func sendJittered(ctx context.Context) error {
	var err error
	for range jitteredAttempts(ctx, 5) {
		if err = send(ctx); err == nil {
			return nil
		}
	}
	return err
}

// An iterator over pages: each iteration works on another page, no retry.
func pagesOf(ctx context.Context) iter.Seq[int] {
	return func(yield func(int) bool) {
		for p := 0; p < 10; p++ {
			if !yield(p) {
				return
			}
			time.Sleep(time.Second)
		}
	}
}

func sendPages(ctx context.Context) error {
	for p := range pagesOf(ctx) {
		if err := sendItem(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// A jittered pause that ignores the context the iterator was given.
func blindAttempts(ctx context.Context, n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
			time.Sleep(time.Duration(rand.Int63n(int64(time.Second) << i))) // want `retry loop waits with time.Sleep, which ignores ctx`
		}
	}
}

func sendBlind(ctx context.Context) error {
	var err error
	for range blindAttempts(ctx, 3) {
		if err = send(ctx); err == nil {
			return nil
		}
	}
	return err
}

// A jittered pause between yields that ignores the context of the loop
// ranging over the iterator: that loop waits it out when ctx is done.
func blindJitter(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
			time.Sleep(time.Duration(rand.Int63n(int64(time.Second) << i))) // want `^retry loop waits with time.Sleep between yields, which ignores ctx of the loop that ranges over it: cancellation and deadlines wait out the sleep; give the iterator ctx`
		}
	}
}

func sendBlindJitter(ctx context.Context) error {
	var err error
	for range blindJitter(5) {
		if err = send(ctx); err == nil {
			return nil
		}
	}
	return err
}
