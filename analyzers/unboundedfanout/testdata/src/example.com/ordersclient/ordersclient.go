// Package ordersclient makes the module's gRPC clients: the dial target is
// the caller's argument.
package ordersclient

import (
	"google.golang.org/grpc"

	"orderspb"
)

// New dials target and returns the orders client; its HandleFact says the
// handle's place is its target argument's.
func New(target string) (orderspb.OrdersClient, error) {
	conn, err := grpc.NewClient(target)
	if err != nil {
		return nil, err
	}
	return orderspb.NewOrdersClient(conn), nil
}
