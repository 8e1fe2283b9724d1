// Package budgetall: a team-configured 5s budget applies everywhere.
package budgetall

import (
	"context"
	"net/http"
	"time"

	"google.golang.org/grpc"
)

func handler(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second) // want `context.WithTimeout allows 20s on a request path, longer than the 5s request budget`
	defer cancel()
	ctx2, cancel2 := context.WithTimeout(r.Context(), 10*time.Second) // want `allows 10s on a request path, longer than the 5s request budget`
	defer cancel2()
	ctx3, cancel3 := context.WithDeadline(r.Context(), time.Now().Add(time.Minute)) // want `context.WithDeadline allows 1m0s on a request path`
	defer cancel3()
	ctx4, cancel4 := context.WithTimeout(r.Context(), 3*time.Second) // within the configured budget
	defer cancel4()
	_, _, _, _ = ctx, ctx2, ctx3, ctx4
}

func handlerVar(w http.ResponseWriter, r *http.Request, d time.Duration) {
	ctx, cancel := context.WithTimeout(r.Context(), d) // not a constant: silent
	defer cancel()
	_ = ctx
}

type RoomsServer interface {
	Check(context.Context, *CheckRequest) (*CheckResponse, error)
}

func RegisterRoomsServer(s grpc.ServiceRegistrar, srv RoomsServer) {}

type UnimplementedRoomsServer struct{}

func (UnimplementedRoomsServer) Check(context.Context, *CheckRequest) (*CheckResponse, error) {
	return nil, nil
}

type CheckRequest struct{}
type CheckResponse struct{}

type roomsServer struct {
	UnimplementedRoomsServer
}

func (s *roomsServer) Check(ctx context.Context, in *CheckRequest) (*CheckResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second) // want `context.WithTimeout allows 30s on a request path`
	defer cancel()
	_ = ctx
	return &CheckResponse{}, nil
}

func worker(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute) // want `context.WithTimeout allows 10m0s in a function that has the caller.s context, longer than the 5s request budget`
	defer cancel()
	_ = ctx
}
