// Package grpcopts is a module's own helper for dial options: it may
// install a deadline interceptor, which its callers cannot see.
package grpcopts

import (
	"context"
	"time"

	"google.golang.org/grpc"
)

func Options() []grpc.DialOption {
	return []grpc.DialOption{grpc.WithUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		ctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		return invoker(ctx, method, req, reply, cc, opts...)
	})}
}

func Interceptor() grpc.DialOption { return Options()[0] }
