// Package grpcopts dials through a helper of another package that adds the
// caller's dial options to its own: the options given at each call decide.
package grpcopts

import (
	"context"
	"log"
	"time"

	"google.golang.org/grpc"

	"grpcopts/rpcclient"
)

func noExtra(target string) {
	conn, _ := rpcclient.Dial(target)
	_ = conn.Invoke(context.Background(), "/u.Users/Get", nil, nil) // want `Invoke gets context.Background\(\), which has no deadline`
}

func timeoutHelper(target string) {
	conn, _ := rpcclient.Dial(target, rpcclient.WithCallTimeout(5*time.Second)...)
	_ = conn.Invoke(context.Background(), "/u.Users/Get", nil, nil)
}

func loggingOnly(target string) {
	conn, _ := rpcclient.Dial(target, grpc.WithUnaryInterceptor(rpcclient.LoggingInterceptor(log.Default())))
	_ = conn.Invoke(context.Background(), "/u.Users/Get", nil, nil) // want `Invoke gets context.Background\(\), which has no deadline`
}

func loggingOption(target string) {
	conn, _ := rpcclient.DialDirect(target, rpcclient.WithLogging(log.Default()))
	_ = conn.Invoke(context.Background(), "/u.Users/Get", nil, nil) // want `Invoke gets context.Background\(\), which has no deadline`
}

func namedInterceptor(target string) {
	conn, _ := rpcclient.DialVia(target, grpc.WithChainUnaryInterceptor(rpcclient.Traced))
	_ = conn.Invoke(context.Background(), "/u.Users/Get", nil, nil) // want `Invoke gets context.Background\(\), which has no deadline`
}

func timeoutInterceptor(target string) {
	conn, _ := rpcclient.DialVia(target, grpc.WithChainUnaryInterceptor(rpcclient.Traced, rpcclient.TimeoutInterceptor(time.Second)))
	_ = conn.Invoke(context.Background(), "/u.Users/Get", nil, nil)
}

func alwaysBounded(target string) {
	conn, _ := rpcclient.DialBounded(target)
	_ = conn.Invoke(context.Background(), "/u.Users/Get", nil, nil)
}

func policy(target string, p rpcclient.Policy) {
	conn, _ := rpcclient.DialWithPolicy(target, p)
	_ = conn.Invoke(context.Background(), "/u.Users/Get", nil, nil)
}

func unknownOptions(target string, opts []grpc.DialOption) {
	conn, _ := rpcclient.Dial(target, opts...)
	_ = conn.Invoke(context.Background(), "/u.Users/Get", nil, nil)
}

// Own helpers of this package, followed in their body with the call's
// options.
func dialHere(target string, extra ...grpc.DialOption) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, append([]grpc.DialOption{grpc.WithAuthority("y")}, extra...)...)
}

func ownHelper(target string) {
	conn, _ := dialHere(target)
	_ = conn.Invoke(context.Background(), "/u.Users/Get", nil, nil) // want `Invoke gets context.Background\(\), which has no deadline`
	bounded, _ := dialHere(target, grpc.WithUnaryInterceptor(rpcclient.TimeoutInterceptor(time.Second)))
	_ = bounded.Invoke(context.Background(), "/u.Users/Get", nil, nil)
	logged, _ := dialHere(target, grpc.WithUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		return invoker(ctx, method, req, reply, cc, opts...)
	}))
	_ = logged.Invoke(context.Background(), "/u.Users/Get", nil, nil) // want `Invoke gets context.Background\(\), which has no deadline`
}
