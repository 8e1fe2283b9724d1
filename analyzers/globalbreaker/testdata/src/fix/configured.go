package fix

import (
	"context"

	"github.com/resilint/resilint/resil"
)

// The "api" breaker is configured once, elsewhere in the package; every
// other use looks it up by name (the first caller's options win). Split
// into per-dependency breakers, it would lose that configuration: no fix.
var _ = resil.BreakerFor("api", resil.HalfOpenProbes(1))

var api = resil.BreakerFor("api")

func (g *Gateway) Search(ctx context.Context) error {
	return api.Do(ctx, func(ctx context.Context) error {
		_, err := g.hc.Get("https://search.example.com/q")
		return err
	})
}

func (g *Gateway) Charge(ctx context.Context) error {
	return api.Do(ctx, func(ctx context.Context) error { // want `breaker api guards charge.example.com here but search.example.com`
		_, err := g.hc.Get("https://charge.example.com/c")
		return err
	})
}
