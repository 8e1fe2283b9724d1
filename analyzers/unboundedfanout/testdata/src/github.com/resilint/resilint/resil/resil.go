// Package resil is a stub of resilint's runtime package with its real
// signatures, for tests.
package resil

import "context"

type Group struct{ limit int }

func NewGroup(ctx context.Context, limit int) *Group { return &Group{limit: limit} }

func (g *Group) Go(fn func(ctx context.Context) error) {}

func (g *Group) Wait() error { return nil }

func ForEach[T any](ctx context.Context, items []T, limit int, fn func(ctx context.Context, item T) error) error {
	return nil
}

type Bulkhead struct{ slots chan struct{} }

func NewBulkhead(limit, queue int) *Bulkhead { return &Bulkhead{} }

func (b *Bulkhead) Do(ctx context.Context, fn func(ctx context.Context) error) error { return fn(ctx) }

func (b *Bulkhead) Acquire(ctx context.Context) (release func(), err error) { return func() {}, nil }
