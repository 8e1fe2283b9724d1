package fanout

import (
	"context"
	"database/sql"
	"net"
	"net/http"
	"sync"

	"orderspb"

	"google.golang.org/grpc"
)

// Issue 13, rule 5: the element is the payload (ids, items, rows) and
// every goroutine calls the same dependency, through a client a value
// holds.
type API struct {
	hc   *http.Client
	base string
	db   *sql.DB
}

func (a *API) get(ctx context.Context, id string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.base+"/items/"+id, nil)
	if err != nil {
		return err
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (a *API) GetAll(ctx context.Context, ids []string) {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { _ = a.get(ctx, id) }) // want `one goroutine per element of ids with no limit, each calling a.base \(\(\*fanout.API\).get → \(\*http.Client\).Do\): a large batch opens as many connections to a.base at once`
	}
	wg.Wait()
}

// Rows a value holds, even as pointers to types with methods, are items
// of work when the target does not vary with them.
type Row struct{ ID string }

func (r *Row) Key() string { return r.ID }

type Store struct {
	api     *API
	pending []*Row
}

// openAPI makes the pool in sight, with no cap on it.
func openAPI(dsn string) (*API, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	return &API{db: db}, nil
}

func (s *Store) Flush(ctx context.Context) {
	for _, r := range s.pending {
		go s.api.db.ExecContext(ctx, "DELETE FROM rows WHERE id = ?", r.Key()) // want `one goroutine per element of s.pending with no limit, each calling s.api.db`
	}
}

// Serving is decided by behaviour, not by a name: a method called
// ServeOrder that posts the order is work.
type Frontend struct{ api *API }

func (f *Frontend) ServeOrder(ctx context.Context, o Order) { _ = f.api.get(ctx, o.ID) }

func (f *Frontend) ServeAll(ctx context.Context, orders []Order) {
	for _, o := range orders {
		go func() { f.ServeOrder(ctx, o) }() // want `one goroutine per element of orders`
	}
}

// A count is judged by what the goroutines do with the index, not by its
// name: each fetches the page its index designates.
type Crawler struct {
	api         *API
	parallelism int
}

func (c *Crawler) Pages(ctx context.Context) {
	for i := 0; i < c.parallelism; i++ {
		go fetchPage(ctx, i) // want `one goroutine per iteration up to c.parallelism`
	}
}

// Issue 13, rule 10: type-parameter collections are collections.
func ShipEach[S ~[]Order](ctx context.Context, orders S) {
	for _, o := range orders {
		go ship(ctx, o) // want `one goroutine per element of orders`
	}
}

func ShipMap[M ~map[string]Order](ctx context.Context, orders M) {
	for _, o := range orders {
		go ship(ctx, o) // want `one goroutine per element of orders`
	}
}

// A gRPC client a value holds, on a connection to another host: every
// call is a stream on the same connection, so the message speaks of calls,
// not connections.
type Shipper2 struct{ orders orderspb.OrdersClient }

func NewShipper2() (*Shipper2, error) {
	conn, err := grpc.NewClient("dns:///orders.internal:443")
	if err != nil {
		return nil, err
	}
	return &Shipper2{orders: orderspb.NewOrdersClient(conn)}, nil
}

func (s *Shipper2) ShipAll(ctx context.Context, orders []Order) {
	for _, o := range orders {
		go s.orders.Ship(ctx, &orderspb.ShipRequest{ID: o.ID}) // want `one goroutine per element of orders with no limit, each calling orderspb.OrdersClient \(s.orders\) \(\(orderspb.OrdersClient\).Ship\): a large batch sends as many concurrent calls to orderspb.OrdersClient \(s.orders\) at once`
	}
}

// A connection dialled here over the network to an address given from
// outside: the target is unknown but it is one, and no custom dialer can
// turn it into a unix socket.
type Shipper3 struct{ orders orderspb.OrdersClient }

func NewShipper3(addr string) (*Shipper3, error) {
	conn, err := grpc.NewClient(addr, grpc.WithAuthority("orders"))
	if err != nil {
		return nil, err
	}
	return &Shipper3{orders: orderspb.NewOrdersClient(conn)}, nil
}

func (s *Shipper3) ShipAll(ctx context.Context, orders []Order) {
	for _, o := range orders {
		go s.orders.Ship(ctx, &orderspb.ShipRequest{ID: o.ID}) // want `one goroutine per element of orders with no limit, each calling orderspb.OrdersClient \(s.orders\)`
	}
}

// The same with a custom dialer, which may reach a local daemon's socket
// whatever the address: not evidence of another host.
type Shipper4 struct{ orders orderspb.OrdersClient }

func NewShipper4(addr string, dial func(context.Context, string) (net.Conn, error)) (*Shipper4, error) {
	conn, err := grpc.NewClient(addr, grpc.WithContextDialer(dial))
	if err != nil {
		return nil, err
	}
	return &Shipper4{orders: orderspb.NewOrdersClient(conn)}, nil
}

func (s *Shipper4) ShipAll(ctx context.Context, orders []Order) {
	for _, o := range orders {
		go s.orders.Ship(ctx, &orderspb.ShipRequest{ID: o.ID})
	}
}

// A connection handed in from out of sight: silent.
func ShipVia(ctx context.Context, cc grpc.ClientConnInterface, orders []Order) {
	c := orderspb.NewOrdersClient(cc)
	for _, o := range orders {
		go c.Ship(ctx, &orderspb.ShipRequest{ID: o.ID})
	}
}

// A target whose identity cannot be named (the endpoint of a host computed
// by a helper) but that the element provably does not determine: the same
// endpoint for every goroutine.
func endpoint(host string) string {
	if host == "github.com" {
		return "https://api.github.com/graphql"
	}
	return "https://" + host + "/api/graphql"
}

func LookupAll(ctx context.Context, hc *http.Client, host string, numbers []int) {
	url := endpoint(host)
	for _, n := range numbers {
		go func() { // want `one goroutine per element of numbers with no limit, each calling the same HTTP endpoint`
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
			req.Header.Set("X-Number", string(rune(n)))
			if resp, err := hc.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
}
