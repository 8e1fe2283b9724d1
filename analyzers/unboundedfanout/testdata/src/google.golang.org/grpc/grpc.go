// Package grpc is a stub of google.golang.org/grpc for tests.
package grpc

import (
	"context"
	"net"
)

type CallOption interface{ before() }

type ClientConnInterface interface {
	Invoke(ctx context.Context, method string, args any, reply any, opts ...CallOption) error
}

type ClientConn struct{}

func (cc *ClientConn) Invoke(ctx context.Context, method string, args, reply any, opts ...CallOption) error {
	return nil
}

type DialOption interface{ apply() }

type UnaryInvoker func(ctx context.Context, method string, req, reply any, cc *ClientConn, opts ...CallOption) error

type UnaryClientInterceptor func(ctx context.Context, method string, req, reply any, cc *ClientConn, invoker UnaryInvoker, opts ...CallOption) error

func NewClient(target string, opts ...DialOption) (*ClientConn, error) { return &ClientConn{}, nil }

func Dial(target string, opts ...DialOption) (*ClientConn, error) { return &ClientConn{}, nil }

func WithUnaryInterceptor(f UnaryClientInterceptor) DialOption { return nil }

func WithChainUnaryInterceptor(fs ...UnaryClientInterceptor) DialOption { return nil }

func WithDefaultServiceConfig(s string) DialOption { return nil }

func WithAuthority(a string) DialOption { return nil }

// ClientStream is the stream a streaming client method returns.
type ClientStream interface {
	CloseSend() error
	RecvMsg(m any) error
}

type ServerStreamingClient[T any] interface {
	Recv() (*T, error)
	ClientStream
}

func WithContextDialer(f func(context.Context, string) (net.Conn, error)) DialOption { return nil }
