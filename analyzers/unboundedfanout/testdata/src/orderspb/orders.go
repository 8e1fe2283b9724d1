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

type ordersClient struct{ cc grpc.ClientConnInterface }

func NewOrdersClient(cc grpc.ClientConnInterface) OrdersClient { return &ordersClient{cc} }

func (c *ordersClient) Ship(ctx context.Context, in *ShipRequest, opts ...grpc.CallOption) (*ShipReply, error) {
	out := new(ShipReply)
	err := c.cc.Invoke(ctx, "/orders.Orders/Ship", in, out, opts...)
	return out, err
}
