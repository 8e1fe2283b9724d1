// Package rpcclient dials connections with the module's defaults plus the
// options its callers add.
package rpcclient

import (
	"context"
	"log"
	"time"

	"google.golang.org/grpc"
)

// Dial adds the caller's options to fixed ones that bound nothing.
func Dial(target string, extra ...grpc.DialOption) (*grpc.ClientConn, error) {
	opts := []grpc.DialOption{grpc.WithAuthority("x")}
	opts = append(opts, extra...)
	return grpc.NewClient(target, opts...)
}

// DialDirect hands the caller's options to the dial as they are.
func DialDirect(target string, extra ...grpc.DialOption) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, extra...)
}

// DialVia passes its options through Dial.
func DialVia(target string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	return Dial(target, opts...)
}

// DialBounded always installs a timeout interceptor.
func DialBounded(target string, extra ...grpc.DialOption) (*grpc.ClientConn, error) {
	return Dial(target, append(extra, WithCallTimeout(time.Second)...)...)
}

// TimeoutInterceptor gives every call without a deadline one.
func TimeoutInterceptor(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

// LoggingInterceptor logs every call; the caller's context goes on as it is.
func LoggingInterceptor(l *log.Logger) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		start := time.Now()
		err := invoker(ctx, method, req, reply, cc, opts...)
		l.Printf("%s took %s: %v", method, time.Since(start), err)
		return err
	}
}

// Traced is a named interceptor function that passes the context on.
func Traced(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	log.Print(method)
	return invoker(ctx, method, req, reply, cc, opts...)
}

// WithCallTimeout returns the options that bound every unary call by d.
func WithCallTimeout(d time.Duration) []grpc.DialOption {
	return []grpc.DialOption{grpc.WithChainUnaryInterceptor(TimeoutInterceptor(d))}
}

// WithLogging returns an option that only logs.
func WithLogging(l *log.Logger) grpc.DialOption {
	return grpc.WithUnaryInterceptor(LoggingInterceptor(l))
}

// Policy supplies the interceptor of a connection.
type Policy interface {
	Unary() grpc.UnaryClientInterceptor
}

// DialWithPolicy installs whatever interceptor p gives: out of sight.
func DialWithPolicy(target string, p Policy) (*grpc.ClientConn, error) {
	return Dial(target, grpc.WithUnaryInterceptor(p.Unary()))
}
