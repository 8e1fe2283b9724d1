// Package api serves requests.
package api

import (
	"context"
	"time"
)

// Report waits for a slow report: 20s is reported only when a team sets a
// request budget below it (request-budget applies everywhere then).
func Report(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	_ = ctx
}

// Detached starts over from Background although ctx carries a deadline.
func Detached(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = ctx
}
