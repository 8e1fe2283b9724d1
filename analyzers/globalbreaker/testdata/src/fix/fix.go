// Package fix holds shared breakers that the fix replaces with
// per-dependency breakers.
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
	return shared.Execute(func() (any, error) { // want `breaker shared guards g.shippingAPI here but g.inventoryAPI at fix.go:24: when one of them fails, the breaker opens for both; give each dependency its own breaker \(resil.BreakerFor\("fix.Gateway.shippingAPI"\)\)`
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
