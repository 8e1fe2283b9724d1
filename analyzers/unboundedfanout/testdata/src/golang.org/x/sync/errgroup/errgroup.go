// Package errgroup is a stub of golang.org/x/sync/errgroup v0.23.0 with its
// real signatures, for tests. Like the real one, Go takes a slot of the
// group's semaphore only when SetLimit made one.
package errgroup

import "context"

type token struct{}

type Group struct{ sem chan token }

func WithContext(ctx context.Context) (*Group, context.Context) { return &Group{}, ctx }

func (g *Group) Wait() error { return nil }

func (g *Group) done() {
	if g.sem != nil {
		<-g.sem
	}
}

func (g *Group) Go(f func() error) {
	if g.sem != nil {
		g.sem <- token{}
	}
	go func() {
		defer g.done()
		f()
	}()
}

func (g *Group) TryGo(f func() error) bool { go f(); return true }

func (g *Group) SetLimit(n int) { g.sem = make(chan token, n) }
