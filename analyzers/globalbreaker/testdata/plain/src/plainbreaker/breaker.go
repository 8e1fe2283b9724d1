// Package plainbreaker is in a module that does not require resil: the
// finding names resil.BreakerFor, and no fix imports it.
package plainbreaker

import (
	"context"
	"net/http"

	"github.com/sony/gobreaker"
)

var shared = gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: "shared"})

type Gateway struct {
	inventoryAPI string
	shippingAPI  string
	hc           *http.Client
}

func (g *Gateway) Stock(ctx context.Context) (any, error) {
	return shared.Execute(func() (any, error) {
		return g.hc.Get(g.inventoryAPI + "/stock")
	})
}

func (g *Gateway) Ship(ctx context.Context) (any, error) {
	return shared.Execute(func() (any, error) { // want `breaker shared guards g.shippingAPI here but g.inventoryAPI.*resil.BreakerFor`
		return g.hc.Get(g.shippingAPI + "/labels")
	})
}
