// Package grpcfield keeps a generated client in a struct field, made from
// a connection it is given, or dialled here.
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
	// The connection is handed to New: whether it has a deadline
	// interceptor cannot be seen here, silent.
	_, err := c.hc.Ping(context.Background(), &PingRequest{})
	return err
}

// Plain keeps a client dialled here, with no deadline option.
type Plain struct{ hc HealthClient }

func NewPlain(addr string) (*Plain, error) {
	conn, err := grpc.NewClient(addr)
	if err != nil {
		return nil, err
	}
	return &Plain{hc: NewHealthClient(conn)}, nil
}

func (p *Plain) Check() error {
	_, err := p.hc.Ping(context.Background(), &PingRequest{}) // want `\(grpcfield.HealthClient\).Ping gets context.Background\(\), which has no deadline`
	return err
}
