// Package budget: timeouts on request paths against the 10s budget.
package budget

import (
	"context"
	"net"
	"net/http"
	"os/exec"
	"time"

	"google.golang.org/grpc"
)

func handler(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second) // want `context.WithTimeout allows 20s on a request path, longer than the 10s request budget`
	defer cancel()
	ctx2, cancel2 := context.WithTimeout(r.Context(), 10*time.Second) // the budget itself is allowed
	defer cancel2()
	ctx3, cancel3 := context.WithDeadline(r.Context(), time.Now().Add(time.Minute)) // want `context.WithDeadline allows 1m0s on a request path`
	defer cancel3()
	ctx4, cancel4 := context.WithTimeout(r.Context(), 3*time.Second)
	defer cancel4()
	_, _, _, _ = ctx, ctx2, ctx3, ctx4
}

func handlerVar(w http.ResponseWriter, r *http.Request, d time.Duration) {
	ctx, cancel := context.WithTimeout(r.Context(), d) // not a constant: silent
	defer cancel()
	_ = ctx
}

// RoomsServer is the service interface, registered with a gRPC server by
// RegisterRoomsServer: its methods are the RPCs, whatever the names.
type RoomsServer interface {
	Check(context.Context, *CheckRequest) (*CheckResponse, error)
}

func RegisterRoomsServer(s grpc.ServiceRegistrar, srv RoomsServer) {
	s.RegisterService(&grpc.ServiceDesc{}, srv)
}

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

// StartSweeper is a method of the server type but not an RPC: a background
// job of the process, not a request path.
func (s *roomsServer) StartSweeper(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	_ = ctx
}

func worker(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute) // a worker, not a request path: silent by default
	defer cancel()
	_ = ctx
}

// send is client side: it sends the request it is given. Long uploads are
// not a request path.
func send(c *http.Client, req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(req.Context(), 5*time.Minute)
	defer cancel()
	return c.Do(req.WithContext(ctx))
}

type retryTransport struct{ next http.RoundTripper }

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(req.Context(), time.Minute)
	defer cancel()
	return t.next.RoundTrip(req.WithContext(ctx))
}

// A middleware's inner handler and a HandlerFunc literal are request paths.
func withTimeout(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), time.Minute) // want `context.WithTimeout allows 1m0s on a request path`
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

func routes(mux *http.ServeMux) {
	mux.HandleFunc("/report", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 45*time.Second) // want `context.WithTimeout allows 45s on a request path`
		defer cancel()
		_ = ctx
	})
	mux.HandleFunc("/fast", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		_ = ctx
	})
}

// A literal that sends the request it is given is client side.
var transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(r.Context(), time.Minute)
	defer cancel()
	return http.DefaultTransport.RoundTrip(r.WithContext(ctx))
})

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Work that must outlive the request keeps its values, drops its
// cancellation and gets its own, longer timeout: no request budget.
func export(w http.ResponseWriter, r *http.Request) {
	bg := context.WithoutCancel(r.Context())
	go func() {
		ctx, cancel := context.WithTimeout(bg, 15*time.Minute)
		defer cancel()
		_ = ctx
	}()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 2*time.Hour)
	defer cancel()
	_ = ctx
}

// A server that implements the service without embedding anything is
// found by what it implements.
type plainServer struct{}

func (p *plainServer) Check(ctx context.Context, in *CheckRequest) (*CheckResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, 45*time.Second) // want `context.WithTimeout allows 45s on a request path`
	defer cancel()
	_ = ctx
	return nil, nil
}

// A type embedding a struct named like a generated server, for no service:
// not a request path.
type UnimplementedSweepServer struct{}

func (UnimplementedSweepServer) Sweep(context.Context) error { return nil }

type sweeper struct{ UnimplementedSweepServer }

func (s *sweeper) Sweep(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	_ = ctx
	return nil
}

// A subprocess's timeout and a connect timeout are not request budgets.
func convert(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Minute) // local work only: silent
	defer cancel()
	_ = exec.CommandContext(ctx, "convert", "in.png", "out.jpg").Run()
}

func connect(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second) // bounds the dial only: silent
	defer cancel()
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", r.Host)
	if err == nil {
		conn.Close()
	}
}

func proxied(w http.ResponseWriter, r *http.Request, c *http.Client) {
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second) // want `context.WithTimeout allows 30s on a request path`
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "https://upstream.example.com/", nil)
	if resp, err := c.Do(req); err == nil {
		resp.Body.Close()
	}
}
