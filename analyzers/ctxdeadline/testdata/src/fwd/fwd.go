// Package fwd forwards its callers' contexts to outbound calls.
package fwd

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"google.golang.org/grpc"
)

type Client struct {
	base string
}

// Fetch sends the request with http.DefaultClient: ctx is its only bound.
func (c *Client) Fetch(ctx context.Context, path string) (*http.Response, error) {
	req, err := c.request(ctx, path)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}

func (c *Client) request(ctx context.Context, path string) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
}

// Count queries the database with ctx.
func Count(ctx context.Context, db *sql.DB) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n)
	return n, err
}

// Lookup is generic and forwards ctx too.
func Lookup[K comparable](ctx context.Context, db *sql.DB, k K) error {
	_, err := db.ExecContext(ctx, "SELECT 1 WHERE $1", k)
	return err
}

// GetJSON sends with the client it is given: whether ctx is the only bound
// depends on the caller's client.
func GetJSON[T any](ctx context.Context, hc *http.Client, url string) (T, error) {
	var v T
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return v, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return v, err
	}
	resp.Body.Close()
	return v, nil
}

// Rates forwards both its context and its client.
func Rates(ctx context.Context, hc *http.Client, url string) (map[string]float64, error) {
	return GetJSON[map[string]float64](ctx, hc, url)
}

// NewPooledClient tunes the transport but sets no Timeout.
func NewPooledClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
}

// NewBoundedClient sets a Timeout.
func NewBoundedClient(d time.Duration) *http.Client {
	return &http.Client{Timeout: d}
}

// An Option configures a client out of sight (WithTimeout sets one).
type Option func(*http.Client)

func WithTimeout(d time.Duration) Option { return func(c *http.Client) { c.Timeout = d } }

// NewConfigured hands its client to the caller's options: what they set
// cannot be seen.
func NewConfigured(opts ...Option) *http.Client {
	c := &http.Client{}
	for _, o := range opts {
		o(c)
	}
	return c
}

// NewLogged hands its client to a function of the package that only reads
// it: the client still has no Timeout.
func NewLogged() *http.Client {
	c := &http.Client{}
	describe(c)
	return c
}

func describe(c *http.Client) { _ = c.Jar }

// Dial connects with a per-call deadline interceptor.
func Dial(addr string, d time.Duration) (*grpc.ClientConn, error) {
	return grpc.NewClient(addr, grpc.WithChainUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		ctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		return invoker(ctx, method, req, reply, cc, opts...)
	}))
}

type StockRequest struct{ SKU string }
type StockReply struct{ N int }

// StockClient is a generated-shaped gRPC client.
type StockClient interface {
	Reserve(ctx context.Context, in *StockRequest, opts ...grpc.CallOption) (*StockReply, error)
}

type stockClient struct{ cc grpc.ClientConnInterface }

func (c *stockClient) Reserve(ctx context.Context, in *StockRequest, opts ...grpc.CallOption) (*StockReply, error) {
	out := new(StockReply)
	return out, c.cc.Invoke(ctx, "/stock/Reserve", in, out, opts...)
}

func NewStockClient(cc grpc.ClientConnInterface) StockClient { return &stockClient{cc} }

// Stock wraps the generated client, which it keeps in a field: whether its
// calls are bounded depends on the connection it was made from.
type Stock struct{ api StockClient }

func NewStock(cc *grpc.ClientConn) *Stock { return &Stock{api: NewStockClient(cc)} }

func (s *Stock) Reserve(ctx context.Context, sku string) (int, error) {
	r, err := s.api.Reserve(ctx, &StockRequest{SKU: sku})
	if err != nil {
		return 0, err
	}
	return r.N, nil
}

// Orders keeps a Stock: its calls are bounded as the Stock's are.
type Orders struct{ stock *Stock }

func NewOrders(cc *grpc.ClientConn) *Orders { return &Orders{stock: NewStock(cc)} }

func (o *Orders) Place(ctx context.Context, sku string) error {
	_, err := o.stock.Reserve(ctx, sku)
	return err
}

// ReserveOne goes through the receiver's own method.
func (s *Stock) ReserveOne(ctx context.Context) error {
	_, err := s.Reserve(ctx, "one")
	return err
}

// DialStock dials with a per-call deadline and returns the wrapper.
func DialStock(addr string, d time.Duration) (*Stock, error) {
	conn, err := Dial(addr, d)
	if err != nil {
		return nil, err
	}
	return &Stock{api: NewStockClient(conn)}, nil
}

// DialStockPlain dials without one.
func DialStockPlain(addr string) (*Stock, error) {
	conn, err := grpc.NewClient(addr)
	if err != nil {
		return nil, err
	}
	return &Stock{api: NewStockClient(conn)}, nil
}
