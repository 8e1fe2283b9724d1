package grpc

import "context"

type DialOption interface{ apply() }

type CallOption interface{ before() }

type ClientConn struct{}

func (cc *ClientConn) Invoke(ctx context.Context, method string, args, reply any, opts ...CallOption) error {
	return nil
}

func NewClient(target string, opts ...DialOption) (*ClientConn, error) { return &ClientConn{}, nil }

func WithDefaultServiceConfig(s string) DialOption { return nil }

func WithAuthority(a string) DialOption { return nil }
