package bounded

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"sync"

	"follow"
	"orderspb"

	"github.com/redis/go-redis/v9"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

// Issue 13, rule 5: one goroutine per distinct backend, upstream, server or
// peer is not fan-out whenever the element determines the call's target,
// whatever holds the elements.
type Backend struct {
	Name, URL string
}

func (b Backend) ping(ctx context.Context) error { return post(ctx, b.URL+"/ping") }

type Balancer struct {
	backends []Backend          // values, not pointers
	peers    []string           // addresses
	regions  map[string]string  // region → base URL
	byName   map[string]Backend // in a map
	hc       *http.Client
}

func (b *Balancer) list() []Backend { return b.backends }

func (b *Balancer) HealthAll(ctx context.Context) {
	var wg sync.WaitGroup
	for _, be := range b.backends {
		wg.Go(func() { _ = be.ping(ctx) })
	}
	for _, be := range b.list() {
		wg.Go(func() { _ = post(ctx, be.URL+"/health") })
	}
	local := b.list()
	for _, be := range local {
		go be.ping(ctx)
	}
	for _, be := range b.byName {
		go be.ping(ctx)
	}
	for _, addr := range b.peers {
		wg.Go(func() {
			if resp, err := b.hc.Get("http://" + addr + "/status"); err == nil {
				resp.Body.Close()
			}
		})
	}
	for _, base := range b.regions {
		wg.Go(func() {
			if resp, err := b.hc.Get(base + "/sync"); err == nil {
				resp.Body.Close()
			}
		})
	}
	for region := range b.regions {
		wg.Go(func() { _ = post(ctx, b.regions[region]+"/sync") })
	}
	wg.Wait()
}

// Peers handed in as a parameter: each goroutine dials a peer of its own.
func DialAll(ctx context.Context, peers []string) {
	var d net.Dialer
	for _, p := range peers {
		go func() {
			if c, err := d.DialContext(ctx, "tcp", p); err == nil {
				c.Close()
			}
		}()
	}
}

// Long-lived goroutines per item: a function of another package that loops
// until its context ends, whatever its name.
func FollowAll(ctx context.Context, base string, topics []string) {
	for _, t := range topics {
		go follow.Follow(ctx, base, t)
	}
}

// Goroutines that only wait on channels or the context.
type waiter struct {
	done, out chan struct{}
}

func WaitAll(ctx context.Context, ws []*waiter) {
	for _, w := range ws {
		go func() {
			select {
			case <-ctx.Done():
			case <-w.done:
			}
			close(w.out)
		}()
	}
}

// Work serialised by a mutex held around the call.
func Serialised(ctx context.Context, orders []Order) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, o := range orders {
		wg.Go(func() {
			mu.Lock()
			defer mu.Unlock()
			_ = ship(ctx, o)
		})
	}
	wg.Wait()
}

// Limits enforced inside the client, on the path to every call: a
// semaphore, a rate limiter, a channel of slots, a mutex.
type Client struct {
	sem   *semaphore.Weighted
	lim   *rate.Limiter
	slots chan struct{}
	mu    sync.Mutex
	base  string
}

func (c *Client) fetch(ctx context.Context, id string) error {
	if err := c.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer c.sem.Release(1)
	return post(ctx, c.base+"/items/"+id)
}

func (c *Client) paced(ctx context.Context, id string) error {
	if err := c.lim.Wait(ctx); err != nil {
		return err
	}
	return post(ctx, c.base+"/items/"+id)
}

func (c *Client) slotted(ctx context.Context, id string) error {
	c.slots <- struct{}{}
	defer func() { <-c.slots }()
	return post(ctx, c.base+"/items/"+id)
}

func (c *Client) locked(ctx context.Context, id string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return post(ctx, c.base+"/items/"+id)
}

func (c *Client) All(ctx context.Context, ids []string) {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { _ = c.fetch(ctx, id) })
		wg.Go(func() { _ = c.paced(ctx, id) })
		wg.Go(func() { _ = c.slotted(ctx, id) })
		go c.locked(ctx, id)
	}
	wg.Wait()
}

// A client that caps its own connections (go-redis's pool): callers wait
// for a connection.
func Warm(ctx context.Context, rdb *redis.Client, keys []string) {
	var wg sync.WaitGroup
	for _, k := range keys {
		wg.Go(func() { rdb.Get(ctx, k) })
	}
	wg.Wait()
}

// Issue 13, rule 1: fanning out local work is not fan-out against a
// dependency: subprocesses, files, the loopback address.
func Compress(ctx context.Context, files []string) {
	var wg sync.WaitGroup
	for _, f := range files {
		wg.Go(func() { _ = exec.CommandContext(ctx, "gzip", f).Run() })
		wg.Go(func() { _, _ = os.ReadFile(f) })
	}
	wg.Wait()
}

func ProbeLocal(ports []int) {
	for _, p := range ports {
		go func() {
			if c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(p)); err == nil {
				c.Close()
			}
		}()
	}
}

// Issue 13, rule 10: a SetLimit in any branch before the launches is a
// limit.
func MaybeLimited(ctx context.Context, orders []Order, limit int) error {
	g, ctx := errgroup.WithContext(ctx)
	if limit > 0 {
		g.SetLimit(limit)
	}
	for _, o := range orders {
		g.Go(func() error { return ship(ctx, o) })
	}
	return g.Wait()
}

// ... in generic code too.
func ShipEachLimited[S ~[]E, E interface{ ID() string }](ctx context.Context, items S, limit int) error {
	g, ctx := errgroup.WithContext(ctx)
	if limit > 0 {
		g.SetLimit(limit)
	}
	for _, it := range items {
		g.Go(func() error { return post(ctx, "http://shipping.internal/orders/"+it.ID()) })
	}
	return g.Wait()
}

// A gRPC client per replica: each goroutine calls a replica of its own.
type Replicas struct{ replicas []orderspb.OrdersClient }

func (r *Replicas) ShipEverywhere(ctx context.Context, o Order) {
	for _, c := range r.replicas {
		go c.Ship(ctx, &orderspb.ShipRequest{ID: o.ID})
	}
}

// The same helper fed the element: each goroutine its own host.
func endpoint(host string) string {
	if host == "github.com" {
		return "https://api.github.com/graphql"
	}
	return "https://" + host + "/api/graphql"
}

func LookupHosts(ctx context.Context, hc *http.Client, hosts []string) {
	for _, h := range hosts {
		go func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, endpoint(h), nil)
			if resp, err := hc.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
}

// A counting loop over the backends: the index picks the target.
func (b *Balancer) HealthByIndex(ctx context.Context) {
	for i := 0; i < len(b.peers); i++ {
		go post(ctx, "http://"+b.peers[i]+"/health")
	}
}

// A client per element (one per connection, each with its own pool): the
// element is the client, whatever URL they are sent.
func (b *Balancer) PerClient(ctx context.Context, clients []*http.Client) {
	for _, c := range clients {
		go c.Get("http://shipping.internal/health")
	}
}

// Local work per file; only a failure is reported to a service.
func CompressReporting(ctx context.Context, files []string) {
	var wg sync.WaitGroup
	for _, f := range files {
		wg.Go(func() {
			if err := exec.CommandContext(ctx, "gzip", f).Run(); err != nil {
				_ = post(ctx, "http://alerts.internal/failed?file="+f)
			}
		})
	}
	wg.Wait()
}

// A gRPC client whose connection is dialled out of sight: programs talk to
// their local daemons over gRPC on unix sockets, so it is no evidence of a
// remote dependency.
type Daemon struct{ tasks orderspb.OrdersClient }

func (d *Daemon) ShipAll(ctx context.Context, orders []Order) {
	for _, o := range orders {
		go d.tasks.Ship(ctx, &orderspb.ShipRequest{ID: o.ID})
	}
}

// A limit taken in a helper before the call (a client's throttle), or a
// pacer that runs the work it is handed under its tokens.
type Throttled struct {
	lim  *rate.Limiter
	base string
}

func (t *Throttled) throttle(ctx context.Context) error { return t.lim.Wait(ctx) }

func (t *Throttled) get(ctx context.Context, id string) error {
	if err := t.throttle(ctx); err != nil {
		return err
	}
	return post(ctx, t.base+"/items/"+id)
}

type Pacer struct{ tokens chan struct{} }

func (p *Pacer) Call(fn func() error) error {
	<-p.tokens
	defer func() { p.tokens <- struct{}{} }()
	return fn()
}

func (t *Throttled) All(ctx context.Context, p *Pacer, ids []string) {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { _ = t.get(ctx, id) })
		wg.Go(func() { _ = p.Call(func() error { return post(ctx, t.base+"/items/"+id) }) })
	}
	wg.Wait()
}

// Shapes the record must survive: a method expression, a launch in a
// package-level function literal.
func (t *Throttled) fetch(ctx context.Context, id string) error {
	return post(ctx, "http://shipping.internal/"+id)
}

func MethodExpr(ctx context.Context, t *Throttled, ids []string) {
	for _, id := range ids {
		go (*Throttled).fetch(t, ctx, id)
	}
}

var atPackageLevel = func(ctx context.Context, ids []string) {
	for _, id := range ids {
		go post(ctx, "http://"+id+"/ping")
	}
}
