// Package bounds: the bounds below the client that bound the wait for an
// answer count (a transport's ResponseHeaderTimeout, connections a custom
// dial function may wrap in deadlines, a dialer's Deadline, gRPC options
// of unknown effect); dial timeouts bound only the dial; a stream read to
// its end waits like a unary call.
package bounds

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"time"

	"bounds/grpcopts"

	"google.golang.org/grpc"
)

func get(c *http.Client, url string) {
	resp, err := c.Get(url) // want `\(\*http.Client\).Get has no deadline`
	if err == nil {
		resp.Body.Close()
	}
}

func transports(url string, given http.RoundTripper) {
	c1 := &http.Client{Transport: &http.Transport{ResponseHeaderTimeout: 5 * time.Second}}
	if resp, err := c1.Get(url); err == nil { // the transport bounds the wait for the answer: silent
		resp.Body.Close()
	}
	c2 := &http.Client{Transport: given}
	if resp, err := c2.Get(url); err == nil { // a transport of unknown make: silent
		resp.Body.Close()
	}
	c3 := &http.Client{Transport: &http.Transport{}}
	if resp, err := c3.Get(url); err == nil { // want `\(\*http.Client\).Get has no deadline: it takes no context and the client has no Timeout`
		resp.Body.Close()
	}
	// Dial and handshake timeouts bound only the connect.
	c4 := &http.Client{Transport: &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		TLSHandshakeTimeout: 5 * time.Second,
	}}
	if resp, err := c4.Get(url); err == nil { // want `\(\*http.Client\).Get has no deadline`
		resp.Body.Close()
	}
	c5 := &http.Client{Transport: &http.Transport{DialContext: deadlineDial}}
	if resp, err := c5.Get(url); err == nil { // the dial function may wrap every conn with deadlines: silent
		resp.Body.Close()
	}
}

// deadlineDial wraps every connection so that reads and writes time out.
func deadlineDial(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &timeoutConn{Conn: c}, nil
}

type timeoutConn struct{ net.Conn }

func (c *timeoutConn) Read(b []byte) (int, error) {
	c.Conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	return c.Conn.Read(b)
}

func cloned(url string) {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = 10 * time.Second
	c := &http.Client{Transport: t}
	if resp, err := c.Get(url); err == nil { // ResponseHeaderTimeout set on the clone: silent
		resp.Body.Close()
	}
	plain := http.DefaultTransport.(*http.Transport).Clone()
	pc := &http.Client{Transport: plain}
	if resp, err := pc.Get(url); err == nil { // want `\(\*http.Client\).Get has no deadline`
		resp.Body.Close()
	}
	var sc http.Client
	sc.Transport = given()
	if resp, err := sc.Get(url); err == nil { // a RoundTripper wrapper of its own: silent
		resp.Body.Close()
	}
}

func given() http.RoundTripper { return wrap(http.DefaultTransport) }

func wrap(rt http.RoundTripper) http.RoundTripper { return &logging{next: rt} }

type logging struct{ next http.RoundTripper }

func (l *logging) RoundTrip(r *http.Request) (*http.Response, error) { return l.next.RoundTrip(r) }

func dialDeadline(addr string, at time.Time) (net.Conn, error) {
	d := &net.Dialer{Deadline: at}
	return d.Dial("tcp", addr) // the dialer's Deadline bounds the dial: silent
}

type CheckRequest struct{}
type CheckResponse struct{}

type InventoryClient interface {
	Check(ctx context.Context, in *CheckRequest, opts ...grpc.CallOption) (*CheckResponse, error)
	Watch(ctx context.Context, in *CheckRequest, opts ...grpc.CallOption) (grpc.ServerStreamingClient[CheckResponse], error)
	Upload(ctx context.Context, opts ...grpc.CallOption) (grpc.ClientStreamingClient[CheckRequest, CheckResponse], error)
}

type inventoryClient struct{ cc grpc.ClientConnInterface }

func NewInventoryClient(cc grpc.ClientConnInterface) InventoryClient { return &inventoryClient{cc} }

func (c *inventoryClient) Check(ctx context.Context, in *CheckRequest, opts ...grpc.CallOption) (*CheckResponse, error) {
	return nil, c.cc.Invoke(ctx, "/inv/Check", in, nil, opts...)
}

func (c *inventoryClient) Watch(ctx context.Context, in *CheckRequest, opts ...grpc.CallOption) (grpc.ServerStreamingClient[CheckResponse], error) {
	return nil, nil
}

func (c *inventoryClient) Upload(ctx context.Context, opts ...grpc.CallOption) (grpc.ClientStreamingClient[CheckRequest, CheckResponse], error) {
	return nil, nil
}

func grpcOptions(addr string) {
	c1, _ := grpc.NewClient(addr, grpcopts.Options()...)
	NewInventoryClient(c1).Check(context.Background(), &CheckRequest{}) // options from a helper of another package: silent
	c2, _ := grpc.NewClient(addr, grpcopts.Interceptor())
	NewInventoryClient(c2).Check(context.Background(), &CheckRequest{}) // silent
	c3, _ := grpc.NewClient(addr, grpc.WithStreamInterceptor(nil))
	NewInventoryClient(c3).Check(context.Background(), &CheckRequest{}) // want `\(bounds.InventoryClient\).Check gets context.Background\(\), which has no deadline and its connection is dialled with no deadline interceptor`
	c4, _ := grpc.NewClient(addr)
	NewInventoryClient(c4).Check(context.Background(), &CheckRequest{}, grpc.WaitForReady(true)) // want `WaitForReady\(true\) makes it wait for the connection too`
	c5, _ := grpc.NewClient(addr, grpc.WithDefaultCallOptions(grpc.WaitForReady(true)))
	NewInventoryClient(c5).Check(context.Background(), &CheckRequest{}) // want `WaitForReady\(true\) makes it wait for the connection too`
	NewInventoryClient(c4).Check(context.Background(), &CheckRequest{}) // want `\(bounds.InventoryClient\).Check gets context.Background\(\), which has no deadline and its connection is dialled with no deadline interceptor: a slow or stuck server holds this goroutine forever; derive`
	ready := []grpc.CallOption{grpc.WaitForReady(true)}
	NewInventoryClient(c4).Check(context.Background(), &CheckRequest{}, ready...) // want `WaitForReady\(true\) makes it wait for the connection too`
	c6, _ := grpc.NewClient(addr, grpc.WithDefaultServiceConfig(`{"methodConfig": [{"name": [{"service": "inv.Inventory"}], "waitForReady": true}]}`))
	NewInventoryClient(c6).Check(context.Background(), &CheckRequest{}) // want `WaitForReady\(true\) makes it wait for the connection too`
}

func streamsSwitch(addr string) error {
	conn, _ := grpc.NewClient(addr)
	all, err := NewInventoryClient(conn).Watch(context.Background(), &CheckRequest{}) // want `\(bounds.InventoryClient\).Watch opens a stream on context.Background\(\), which has no deadline, and reads it to its end`
	if err != nil {
		return err
	}
	for {
		_, err := all.Recv()
		switch err {
		case nil:
		case io.EOF:
			return nil
		default:
			return err
		}
	}
}

func streams(addr string) error {
	conn, _ := grpc.NewClient(addr)
	c := NewInventoryClient(conn)
	all, err := c.Watch(context.Background(), &CheckRequest{}) // want `\(bounds.InventoryClient\).Watch opens a stream on context.Background\(\), which has no deadline, and reads it to its end`
	if err != nil {
		return err
	}
	for {
		_, err := all.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
	}
	up, err := c.Upload(context.Background()) // want `\(bounds.InventoryClient\).Upload opens a stream on context.Background\(\)`
	if err != nil {
		return err
	}
	up.Send(&CheckRequest{})
	if _, err := up.CloseAndRecv(); err != nil {
		return err
	}
	sub, err := c.Watch(context.Background(), &CheckRequest{}) // a subscription read as long as it lasts: silent
	if err != nil {
		return err
	}
	for {
		if _, err := sub.Recv(); err != nil {
			return err
		}
	}
}

func streamInterceptor(addr string) error {
	conn, _ := grpc.NewClient(addr, grpc.WithStreamInterceptor(nil))
	st, err := NewInventoryClient(conn).Watch(context.Background(), &CheckRequest{}) // a stream interceptor may bound it: silent
	if err != nil {
		return err
	}
	for {
		if _, err := st.Recv(); err == io.EOF {
			return nil
		}
	}
}

// A unary interceptor bounds unary calls only: a stream on the same
// connection is reported, and the message says no stream interceptor.
func streamUnaryOnly(addr string) error {
	conn, _ := grpc.NewClient(addr, grpc.WithUnaryInterceptor(nil))
	st, err := NewInventoryClient(conn).Watch(context.Background(), &CheckRequest{}) // want `\(bounds.InventoryClient\).Watch opens a stream on context.Background\(\), which has no deadline, and reads it to its end and its connection is dialled with no stream deadline interceptor: `
	if err != nil {
		return err
	}
	for {
		if _, err := st.Recv(); err == io.EOF {
			return nil
		}
	}
}

// check is unexported and only called here: its client parameter is what
// its callers give it.
func check(c InventoryClient) error {
	_, err := c.Check(context.TODO(), &CheckRequest{}) // want `\(bounds.InventoryClient\).Check gets context.TODO\(\), which has no deadline`
	return err
}

func Probe(c InventoryClient) error {
	_, err := c.Check(context.TODO(), &CheckRequest{}) // exported: any caller's client, silent
	return err
}

func callers(addr string) {
	conn, _ := grpc.NewClient(addr)
	_ = check(NewInventoryClient(conn))
	_ = check(NewInventoryClient(conn))
	_ = Probe(NewInventoryClient(conn))
	get(&http.Client{}, addr)
}
