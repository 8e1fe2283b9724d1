// Package grpc is a stub of google.golang.org/grpc for tests.
package grpc

import "context"

type CallOption interface{ before() }

type ClientConn struct{}

func (cc *ClientConn) Invoke(ctx context.Context, method string, args, reply any, opts ...CallOption) error {
	return nil
}

// ServiceRegistrar registers services (a *Server).
type ServiceRegistrar interface {
	RegisterService(desc *ServiceDesc, impl any)
}

type ServiceDesc struct{}

type Server struct{}

func (s *Server) RegisterService(desc *ServiceDesc, impl any) {}
