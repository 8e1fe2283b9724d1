// Package fix holds shared breakers. The fix replaces one with a
// per-dependency breaker only when it is the runtime registry's breaker with
// default settings: a gobreaker (its settings, its ErrOpenState) or a
// breaker given options would change more than the split.
package fix

import (
	"context"
	"net/http"

	"github.com/resilint/resilint/resil"
	"github.com/sony/gobreaker"
)

var shared = gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: "shared"})

type Gateway struct {
	inventoryAPI string
	shippingAPI  string
	hc           *http.Client
	two          *gobreaker.TwoStepCircuitBreaker
	rb           *resil.Breaker
}

func (g *Gateway) Stock(ctx context.Context) (any, error) {
	return shared.Execute(func() (any, error) {
		return g.hc.Get(g.inventoryAPI + "/stock")
	})
}

func (g *Gateway) Ship(ctx context.Context) (any, error) {
	return shared.Execute(func() (any, error) { // want `breaker shared guards g.shippingAPI here but g.inventoryAPI at fix.go:26: when one of them fails, the breaker opens for both; give each dependency its own breaker \(resil.BreakerFor\("fix.Gateway.shippingAPI"\)\)`
		return g.hc.Get(g.shippingAPI + "/labels")
	})
}

func (g *Gateway) TwoStep() error {
	done, err := g.two.Allow()
	if err != nil {
		return err
	}
	_, err = g.hc.Get(g.inventoryAPI)
	done(err == nil)

	done2, err := g.two.Allow() // want `breaker g.two guards g.shippingAPI here but g.inventoryAPI`
	if err != nil {
		return err
	}
	_, err = g.hc.Get(g.shippingAPI)
	done2(err == nil)
	return err
}

func (g *Gateway) Resil(ctx context.Context) error {
	if err := g.rb.Do(ctx, func(ctx context.Context) error {
		_, err := g.hc.Get("https://tax.example.com/rates")
		return err
	}); err != nil {
		return err
	}
	return g.rb.Do(ctx, func(ctx context.Context) error { // want `breaker g.rb guards fx.example.com here but tax.example.com`
		_, err := g.hc.Get("https://fx.example.com/rates")
		return err
	})
}

var registry = resil.BreakerFor("payments")

func (g *Gateway) Pay(ctx context.Context) error {
	return registry.Do(ctx, func(ctx context.Context) error {
		_, err := g.hc.Get("https://pay.example.com/charge")
		return err
	})
}

func (g *Gateway) Refund(ctx context.Context) error {
	return registry.Do(ctx, func(ctx context.Context) error { // want `breaker registry guards refund.example.com here but pay.example.com`
		_, err := g.hc.Get("https://refund.example.com/refund")
		return err
	})
}

var tuned = resil.BreakerFor("tuned", resil.HalfOpenProbes(1))

func (g *Gateway) Quote(ctx context.Context) error {
	return tuned.Do(ctx, func(ctx context.Context) error {
		_, err := g.hc.Get("https://quote.example.com/q")
		return err
	})
}

func (g *Gateway) Book(ctx context.Context) error {
	return tuned.Do(ctx, func(ctx context.Context) error { // want `breaker tuned guards book.example.com here but quote.example.com`
		_, err := g.hc.Get("https://book.example.com/b")
		return err
	})
}
