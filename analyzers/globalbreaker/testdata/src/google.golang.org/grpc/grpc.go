// Package grpc is a stub of google.golang.org/grpc with the signatures
// resilint reads, for tests.
package grpc

import "context"

type CallOption interface{}

type ClientConn struct{}

func (cc *ClientConn) Invoke(ctx context.Context, method string, args, reply any, opts ...CallOption) error {
	return nil
}
