// Package errgroup is a stub of an old golang.org/x/sync/errgroup, from
// before SetLimit and TryGo.
package errgroup

import "context"

type Group struct{ n int }

func WithContext(ctx context.Context) (*Group, context.Context) { return &Group{}, ctx }

func (g *Group) Go(f func() error) {}

func (g *Group) Wait() error { return nil }
