// Package grpcuse calls generated-shaped gRPC clients.
package grpcuse

import (
	"context"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

type CheckRequest struct{ ID string }
type CheckResponse struct{ OK bool }

type InventoryClient interface {
	Check(ctx context.Context, in *CheckRequest, opts ...grpc.CallOption) (*CheckResponse, error)
	Watch(ctx context.Context, in *CheckRequest, opts ...grpc.CallOption) (grpc.ServerStreamingClient[CheckResponse], error)
}

// A stream may rightly live as long as its context: no deadline required.
func watch(c InventoryClient) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	st, err := c.Watch(ctx, &CheckRequest{ID: "1"})
	if err != nil {
		return err
	}
	_, err = st.Recv()
	return err
}

// plainClient dials with no option that could give a call a deadline.
func plainClient() InventoryClient {
	conn, _ := grpc.NewClient("inventory.internal:443")
	return NewInventoryClient(conn)
}

// A client handed in may come from a connection with a deadline
// interceptor: its bounds cannot be seen, silent.
func probeGiven(c InventoryClient) error {
	_, err := c.Check(context.TODO(), &CheckRequest{ID: "1"})
	return err
}

func probe() error {
	c := plainClient()
	_, err := c.Check(context.TODO(), &CheckRequest{ID: "1"}) // want `\(grpcuse.InventoryClient\).Check gets context.TODO\(\), which has no deadline`
	return err
}

func probeWithMetadata() error {
	c := plainClient()
	ctx := metadata.AppendToOutgoingContext(context.Background(), "k", "v")
	_, err := c.Check(ctx, &CheckRequest{ID: "1"}) // want `\(grpcuse.InventoryClient\).Check gets ctx \(made from context.Background\(\)\), which has no deadline`
	return err
}

func probeBounded(c InventoryClient) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	ctx = metadata.NewOutgoingContext(ctx, metadata.MD{})
	_, err := c.Check(ctx, &CheckRequest{ID: "1"})
	return err
}

func fanOut() error {
	c := plainClient()
	g, ctx := errgroup.WithContext(context.Background())
	g.Go(func() error {
		_, err := c.Check(ctx, &CheckRequest{ID: "1"}) // want `\(grpcuse.InventoryClient\).Check gets ctx \(made from context.Background\(\)\), which has no deadline`
		return err
	})
	return g.Wait()
}

func invoke() error {
	cc, _ := grpc.NewClient("svc.internal:443")
	return cc.Invoke(context.Background(), "/svc/M", nil, nil) // want `\(\*grpc.ClientConn\).Invoke gets context.Background\(\)`
}

func invokeGiven(cc *grpc.ClientConn) error {
	return cc.Invoke(context.Background(), "/svc/M", nil, nil) // a connection handed in: silent
}

func inMain(c InventoryClient, ctx context.Context) error {
	_, err := c.Check(ctx, &CheckRequest{ID: "1"}) // unknown origin: silent
	return err
}

// A client made from a connection dialled in view: a unary interceptor or
// a service config with a timeout may give every call a deadline, so the
// call is not reported; a plain connection is.
type inventoryClient struct{ cc grpc.ClientConnInterface }

func (c *inventoryClient) Check(ctx context.Context, in *CheckRequest, opts ...grpc.CallOption) (*CheckResponse, error) {
	out := new(CheckResponse)
	err := c.cc.Invoke(ctx, "/inv.Inventory/Check", in, out, opts...)
	return out, err
}

func NewInventoryClient(cc grpc.ClientConnInterface) InventoryClient { return &inventoryClient{cc} }

func (c *inventoryClient) Watch(ctx context.Context, in *CheckRequest, opts ...grpc.CallOption) (grpc.ServerStreamingClient[CheckResponse], error) {
	return nil, nil
}

func deadlineInterceptor(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

func startup(addr string) error {
	conn, err := grpc.NewClient(addr, grpc.WithUnaryInterceptor(deadlineInterceptor(time.Second)))
	if err != nil {
		return err
	}
	inv := NewInventoryClient(conn)
	if _, err := inv.Check(context.Background(), &CheckRequest{}); err != nil {
		return err
	}
	cfgConn, _ := grpc.NewClient(addr, grpc.WithDefaultServiceConfig(`{"methodConfig": [{"name": [{}], "timeout": "0.5s"}]}`))
	_, _ = NewInventoryClient(cfgConn).Check(context.Background(), &CheckRequest{})

	opts := []grpc.DialOption{grpc.WithAuthority("x")}
	opts = append(opts, grpc.WithChainUnaryInterceptor(deadlineInterceptor(time.Second)))
	chained, _ := grpc.NewClient(addr, opts...)
	_, _ = NewInventoryClient(chained).Check(context.Background(), &CheckRequest{})

	plain, _ := grpc.NewClient(addr, grpc.WithAuthority("x"))
	_, err = NewInventoryClient(plain).Check(context.Background(), &CheckRequest{}) // want `\(grpcuse.InventoryClient\).Check gets context.Background\(\), which has no deadline`
	retryOnly, _ := grpc.Dial(addr, grpc.WithDefaultServiceConfig(`{"methodConfig": [{"retryPolicy": {"maxAttempts": 3}}]}`))
	_ = retryOnly.Invoke(context.Background(), "/inv.Inventory/Check", nil, nil) // want `\(\*google.golang.org/grpc.ClientConn\).Invoke gets context.Background\(\)|Invoke gets context.Background`
	return err
}

// A dial helper of the package that installs the interceptor.
func dialInventory(addr string) (*grpc.ClientConn, error) {
	conn, err := grpc.NewClient(addr, grpc.WithUnaryInterceptor(deadlineInterceptor(time.Second)))
	if err != nil {
		return nil, err
	}
	return conn, nil
}

func dialPlain(addr string) (*grpc.ClientConn, error) { return grpc.NewClient(addr) }

func viaHelpers(addr string) {
	conn, _ := dialInventory(addr)
	_, _ = NewInventoryClient(conn).Check(context.Background(), &CheckRequest{})
	plain, _ := dialPlain(addr)
	_, _ = NewInventoryClient(plain).Check(context.Background(), &CheckRequest{}) // want `\(grpcuse.InventoryClient\).Check gets context.Background\(\), which has no deadline`
}

// Reserver keeps the generated client in a field, made from a connection it
// is given: the package's dial helper (dialInventory) gives every call a
// deadline, and the connection most likely comes from it.
type Reserver struct{ inv InventoryClient }

func NewReserver(cc *grpc.ClientConn) *Reserver { return &Reserver{inv: NewInventoryClient(cc)} }

func (r *Reserver) Ping() error {
	_, err := r.inv.Check(context.Background(), &CheckRequest{})
	return err
}
