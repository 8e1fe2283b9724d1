package shared // want package:"guards function arguments with breakers"

import (
	"context"
	"net"
	"net/http"

	gb2 "github.com/sony/gobreaker/v2"
)

// A gRPC service and an HTTP API on a base-URL field behind one breaker.
type Health struct {
	rooms     RoomsClient
	ordersURL string
	hc        *http.Client
	cb        *gb2.CircuitBreaker[any]
}

func (h *Health) Check(ctx context.Context) {
	h.cb.Execute(func() (any, error) { return h.hc.Get(h.ordersURL + "/healthz") })
	h.cb.Execute(func() (any, error) { return h.rooms.Hold(ctx, &HoldRequest{}) }) // want `breaker h.cb guards shared.RoomsClient here but h.ordersURL`
}

// A gRPC call and a dial of an address field in one operation: the
// address may be the gRPC server's, so nothing is reported.
type Dialer struct {
	rooms RoomsClient
	addr  string
	cb    *gb2.CircuitBreaker[any]
}

func (d *Dialer) Probe(ctx context.Context) {
	d.cb.Execute(func() (any, error) {
		if _, err := net.Dial("tcp", d.addr); err != nil {
			return nil, err
		}
		return d.rooms.Hold(ctx, &HoldRequest{})
	})
}
