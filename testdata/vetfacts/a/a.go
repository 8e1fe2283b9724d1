// Package a calls package b: the context it passes decides whether b's
// outbound call has a deadline. Only a facts-aware driver can tell.
package a

import (
	"context"
	"time"

	"example.com/vetfacts/b"
)

// Nightly runs outside any request: it has no caller's context.
func Nightly(url string) ([]byte, error) {
	return b.Lookup(context.Background(), url) // reported: no deadline reaches b's HTTP call
}

// Bounded gives the call a deadline.
func Bounded(url string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return b.Lookup(ctx, url) // not reported
}

// Passed hands on its caller's context: unknown, so silent. Settings only
// reads values from its context (a fact of b's unit): Background there
// drops nothing, so detachedctx is silent too.
func Passed(ctx context.Context, url string) ([]byte, error) {
	if b.Settings(context.Background()) == "off" {
		return nil, nil
	}
	return b.Lookup(ctx, url) // not reported
}
