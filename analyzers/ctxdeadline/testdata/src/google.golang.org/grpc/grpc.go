// Package grpc is a stub of google.golang.org/grpc for tests.
package grpc

import "context"

type CallOption interface{ before() }

type ClientConnInterface interface {
	Invoke(ctx context.Context, method string, args any, reply any, opts ...CallOption) error
}

type ClientConn struct{}

func (cc *ClientConn) Invoke(ctx context.Context, method string, args, reply any, opts ...CallOption) error {
	return nil
}

func NewClient(target string) (*ClientConn, error) { return &ClientConn{}, nil }

// ClientStream is the stream a streaming client method returns.
type ClientStream interface {
	CloseSend() error
	RecvMsg(m any) error
}

type ServerStreamingClient[T any] interface {
	Recv() (*T, error)
	ClientStream
}
