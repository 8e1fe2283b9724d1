// Package breakers uses circuit breakers badly: globalbreaker.
package breakers

import (
	"net/http"
	"time"

	"github.com/sony/gobreaker"
)

var client = &http.Client{Timeout: 5 * time.Second}

// shared guards two different services.
var shared = gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: "shared"})

// Inventory asks the inventory service, through the shared breaker.
func Inventory() (int, error) {
	v, err := shared.Execute(func() (interface{}, error) { // want:globalbreaker
		resp, err := client.Get("https://inventory.internal/stock")
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	})
	if err != nil {
		return 0, err
	}
	return v.(int), nil
}

// Prices asks the pricing service, through the same breaker.
func Prices() (int, error) {
	v, err := shared.Execute(func() (interface{}, error) { // want:globalbreaker
		resp, err := client.Get("https://pricing.internal/prices")
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	})
	if err != nil {
		return 0, err
	}
	return v.(int), nil
}

// touchy opens on the first failure.
var touchy = gobreaker.NewCircuitBreaker(gobreaker.Settings{ // want:globalbreaker
	Name:        "touchy",
	ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= 1 }, // want:globalbreaker
})

// Ship asks the shipping service through touchy.
func Ship() error {
	_, err := touchy.Execute(func() (interface{}, error) { // want:globalbreaker
		resp, err := client.Get("https://shipping.internal/quote")
		if err != nil {
			return nil, err
		}
		return nil, resp.Body.Close()
	})
	return err
}
