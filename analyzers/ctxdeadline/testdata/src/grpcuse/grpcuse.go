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

func probe(c InventoryClient) error {
	_, err := c.Check(context.TODO(), &CheckRequest{ID: "1"}) // want `\(grpcuse.InventoryClient\).Check gets context.TODO\(\), which has no deadline`
	return err
}

func probeWithMetadata(c InventoryClient) error {
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

func fanOut(c InventoryClient) error {
	g, ctx := errgroup.WithContext(context.Background())
	g.Go(func() error {
		_, err := c.Check(ctx, &CheckRequest{ID: "1"}) // want `\(grpcuse.InventoryClient\).Check gets ctx \(made from context.Background\(\)\), which has no deadline`
		return err
	})
	return g.Wait()
}

func invoke(cc *grpc.ClientConn) error {
	return cc.Invoke(context.Background(), "/svc/M", nil, nil) // want `\(\*grpc.ClientConn\).Invoke gets context.Background\(\)`
}

func inMain(c InventoryClient, ctx context.Context) error {
	_, err := c.Check(ctx, &CheckRequest{ID: "1"}) // unknown origin: silent
	return err
}
