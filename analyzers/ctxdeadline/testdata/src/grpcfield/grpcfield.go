// Package grpcfield keeps a generated client in a struct field, and has no
// dial helper that gives calls a deadline.
package grpcfield

import (
	"context"

	"google.golang.org/grpc"
)

type PingRequest struct{}
type PingReply struct{}

type HealthClient interface {
	Ping(ctx context.Context, in *PingRequest, opts ...grpc.CallOption) (*PingReply, error)
}

type healthClient struct{ cc grpc.ClientConnInterface }

func (c *healthClient) Ping(ctx context.Context, in *PingRequest, opts ...grpc.CallOption) (*PingReply, error) {
	return nil, c.cc.Invoke(ctx, "/health/Ping", in, nil, opts...)
}

func NewHealthClient(cc grpc.ClientConnInterface) HealthClient { return &healthClient{cc} }

func Dial(addr string) (*grpc.ClientConn, error) { return grpc.NewClient(addr) }

type Checker struct{ hc HealthClient }

func New(cc *grpc.ClientConn) *Checker { return &Checker{hc: NewHealthClient(cc)} }

func (c *Checker) Check() error {
	_, err := c.hc.Ping(context.Background(), &PingRequest{}) // want `\(grpcfield.HealthClient\).Ping gets context.Background\(\), which has no deadline`
	return err
}
