// Package grouputil makes errgroups for other packages.
package grouputil

import (
	"context"

	"golang.org/x/sync/errgroup"
)

// NewTaskGroup returns a group with no limit.
func NewTaskGroup(ctx context.Context) (*errgroup.Group, context.Context) {
	return errgroup.WithContext(ctx)
}

// NewGroup returns a group of at most limit goroutines.
func NewGroup(ctx context.Context, limit int) (*errgroup.Group, context.Context) {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(limit)
	return g, gctx
}
