package model

import (
	"context"
	"iter"
	"time"
)

// tries yields n attempt numbers, pausing d between two of them.
func tries(n int, d time.Duration) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
			time.Sleep(d)
		}
	}
}

// A range-over-func retry loop: its attempts are the iterator's yields,
// its wait the iterator's pause (issue 13, rule 9).
func (c *Client) rangeTries(ctx context.Context) error {
	var err error
	for range tries(4, time.Second) { // want `loop attempts=4 exit=false remote=true sleeps=\[invariant\] bounds=\[ctx-to-call yields yields\]`
		if _, err = c.get(ctx); err == nil {
			return nil
		}
	}
	return err
}

// The evidence of what bounds a loop, with where it is.
func (c *Client) boundsEvidence(ctx context.Context) error {
	var err error
	timeout := time.After(time.Minute)
	for attempt := 0; ; attempt++ { // want `loop attempts=none exit=true remote=true sleeps=\[invariant\] bounds=\[counter exit ctx-to-call\]`
		if _, err = c.get(ctx); err == nil {
			return nil
		}
		if attempt > 3 {
			println("still failing")
		}
		select {
		case <-timeout:
			return err
		case <-time.After(time.Second):
		}
	}
}
