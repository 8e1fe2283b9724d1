// Package fixlocal: a shared breaker reached through a local variable.
package fixlocal

import (
	"net/http"

	"github.com/sony/gobreaker"
)

var shared = gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: "shared"})

// The flagged call's receiver is a local variable used nowhere else:
// replacing it would leave the variable unused. No fix.
func Local(hc *http.Client) {
	shared.Execute(func() (any, error) {
		return hc.Get("https://inventory.example.com/stock")
	})
	cb := shared
	cb.Execute(func() (any, error) { // want `breaker cb guards shipping.example.com here but inventory.example.com`
		return hc.Get("https://shipping.example.com/labels")
	})
}
