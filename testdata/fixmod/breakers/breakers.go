// Package breakers shares one circuit breaker between two dependencies:
// resil's registry breaker with default settings, which the fix splits
// (a gobreaker's settings and errors would be lost, so it gets no fix).
package breakers

import (
	"context"
	"net/http"
	"time"

	"github.com/resilint/resilint/resil"
)

var shared = resil.BreakerFor("shared")

type Gateway struct {
	inventoryAPI string
	shippingAPI  string
	hc           *http.Client
}

func NewGateway(inventory, shipping string) *Gateway {
	return &Gateway{inventoryAPI: inventory, shippingAPI: shipping, hc: &http.Client{Timeout: 2 * time.Second}}
}

func (g *Gateway) get(ctx context.Context, url string) (any, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := g.hc.Do(req)
	if err != nil {
		return nil, err
	}
	return resp.StatusCode, resp.Body.Close()
}

// Stock and Label reach two different APIs through one breaker.
func (g *Gateway) Stock(ctx context.Context) (any, error) {
	return shared.Execute(func() (any, error) {
		return g.get(ctx, g.inventoryAPI+"/stock")
	})
}

func (g *Gateway) Label(ctx context.Context) (any, error) {
	return shared.Execute(func() (any, error) {
		return g.get(ctx, g.shippingAPI+"/labels")
	})
}
