// Package orderspb is shaped like generated gRPC client code.
package orderspb

import (
	"context"

	"google.golang.org/grpc"
)

type ShipRequest struct{ ID string }

type ShipReply struct{}

type OrdersClient interface {
	Ship(ctx context.Context, in *ShipRequest, opts ...grpc.CallOption) (*ShipReply, error)
}
