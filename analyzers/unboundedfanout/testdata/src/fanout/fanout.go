// Package fanout holds goroutines started per element or iteration with no
// bound.
package fanout

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/sourcegraph/conc/pool"
	"golang.org/x/sync/errgroup"
)

type Order struct{ ID string }

// A go statement per element, the WaitGroup used elsewhere too: no fix.
func ShipAll(ctx context.Context, orders []Order) {
	var wg sync.WaitGroup
	for _, o := range orders {
		wg.Add(1)
		go func() { // want `one goroutine per element of orders with no limit, each calling shipping.internal \(fanout.ship → fanout.post → \(\*http.Client\).Do\): a large batch opens as many connections to shipping.internal at once, and a slow response holds them all; bound it with errgroup.SetLimit or a semaphore`
			defer wg.Done()
			ship(ctx, o)
		}()
	}
	wg.Wait()
	done(&wg)
}

func done(wg *sync.WaitGroup) {}

// errgroup without a limit: the advice names the group's SetLimit.
func NoLimitSet(ctx context.Context, orders []Order) error {
	g, ctx := errgroup.WithContext(ctx)
	for _, o := range orders {
		g.Go(func() error { return ship(ctx, o) }) // want `one goroutine per element of orders with no limit, .*; bound it with g.SetLimit\(16\)`
	}
	return g.Wait()
}

// A helper that returns a group without a limit.
func newGroup(ctx context.Context) (*errgroup.Group, context.Context) {
	return errgroup.WithContext(ctx)
}

func ViaHelper(ctx context.Context, orders []Order) error {
	g, ctx := newGroup(ctx)
	for _, o := range orders {
		g.Go(func() error { return ship(ctx, o) }) // want `one goroutine per element of orders`
	}
	return g.Wait()
}

// A struct field group that nothing limits.
type Shipper struct {
	g errgroup.Group
}

func (s *Shipper) Ship(ctx context.Context, orders []Order) error {
	for _, o := range orders {
		s.g.Go(func() error { return ship(ctx, o) }) // want `one goroutine per element of orders`
	}
	return s.g.Wait()
}

// Per value received from a channel, with a map, and per line read.
func Events(ctx context.Context, events <-chan Order, byID map[string]Order, sc *bufio.Scanner) {
	for ev := range events {
		go ship(ctx, ev) // want `one goroutine per value received from events with no limit`
	}
	for _, o := range byID {
		go ship(ctx, o) // want `one goroutine per element of byID`
	}
	for sc.Scan() {
		line := sc.Text()
		go func() { ship(ctx, Order{ID: line}) }() // want `one goroutine per iteration of a loop with no fixed end`
	}
}

// A counting loop whose goroutines each handle the page the index
// designates: fan-out over that count.
func Pages(ctx context.Context, n int) {
	for i := 0; i < n; i++ {
		go fetchPage(ctx, i) // want `one goroutine per iteration up to n`
	}
	for page := range n {
		go func() { fetchPage(ctx, page) }() // want `one goroutine per iteration up to n`
	}
}

// Nested constant loops: 4 × 8 = 32 goroutines.
func Grid(ctx context.Context) {
	for x := 0; x < 4; x++ {
		for y := 0; y < 8; y++ {
			go plot(x, y) // want `32 goroutines at once`
		}
	}
}

// Nested: per element and per rendition.
func Nested(ctx context.Context, videos map[string][]int, renditions []string) {
	for id := range videos {
		for _, r := range renditions {
			go encode(id, r) // want `one goroutine per element of videos and per element of renditions`
		}
	}
}

// A goroutine per item that retries until it succeeds is still work.
func Retrying(ctx context.Context, ids []string) {
	for _, id := range ids {
		go func() { // want `one goroutine per element of ids`
			for {
				resp, err := http.Get("http://catalog.internal/items/" + id)
				if err == nil {
					resp.Body.Close()
					return
				}
				select {
				case <-ctx.Done():
					return
				case <-time.After(time.Second):
				}
			}
		}()
	}
}

// Method values and generics.
type Handler struct{}

func (h *Handler) handle(o Order) { _ = ship(context.Background(), o) }

func (h *Handler) All(orders []Order) {
	for _, o := range orders {
		go h.handle(o) // want `one goroutine per element of orders`
	}
}

func ForAll[T any](items []T, f func(T) string) {
	for _, it := range items {
		go post(context.Background(), "http://sink.internal/"+f(it)) // want `one goroutine per element of items`
	}
}

// conc's pool without a limit.
func Conc(orders []Order) {
	p := pool.New()
	for _, o := range orders {
		p.Go(func() { ship(context.Background(), o) }) // want `one goroutine per element of orders with no limit, .*; bound it with p.WithMaxGoroutines\(16\)`
	}
	p.Wait()
}

// An event loop that starts a goroutine per value received.
func Loop(ctx context.Context, events <-chan Order) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-events:
			go ship(ctx, ev) // want `one goroutine per value received from events`
		}
	}
}

// Goroutines waited for per update: the fan-out is over the collectors.
type Collector struct{ name string }

func (c *Collector) inc(u Order) {
	_ = post(context.Background(), "http://metrics.internal/inc/"+c.name)
}

func Monitor(updates <-chan Order, collectors []*Collector) {
	for u := range updates {
		var wg sync.WaitGroup
		for _, c := range collectors {
			wg.Add(1)
			go func() { // want `one goroutine per element of collectors with no limit`
				defer wg.Done()
				c.inc(u)
			}()
		}
		wg.Wait()
	}
}

// SetLimit(-1) removes the limit.
func NoLimit(ctx context.Context, orders []Order) error {
	var g errgroup.Group
	g.SetLimit(-1)
	for _, o := range orders {
		g.Go(func() error { return ship(ctx, o) }) // want `one goroutine per element of orders`
	}
	return g.Wait()
}

// Items behind an interface handed in as data are items of work.
type Layer interface{ Digest() string }

func write(l Layer) error {
	return post(context.Background(), "http://registry.internal/v2/blobs/"+l.Digest())
}

func WriteLayers(layers []Layer) error {
	var g errgroup.Group
	for _, l := range layers {
		g.Go(func() error { return write(l) }) // want `one goroutine per element of layers`
	}
	return g.Wait()
}

type Conn interface {
	Send(ctx context.Context, msg string) error
	Close() error
}

// Each goroutine sends on a connection of its own, behind an interface:
// what it reaches is out of sight, and the element is the connection.
func Broadcast(ctx context.Context, conns []Conn, msg string) {
	for _, c := range conns {
		go func() {
			_ = c.Send(ctx, msg)
			_ = c.Close()
		}()
	}
}

// The element is the URL: each goroutine calls a target of its own.
func Fetch(urls []string) {
	for _, u := range urls {
		go func() {
			resp, err := http.Get(u)
			if err == nil {
				resp.Body.Close()
			}
		}()
	}
}

type node struct{ addr string }

func (n *node) ping(ctx context.Context) error {
	return post(ctx, "http://"+n.addr+"/ping")
}

// A goroutine per node, the nodes handed in: each calls a node of its own
// (the element determines the target, whatever holds the elements).
func PingNodes(ctx context.Context, nodes []*node) {
	for _, n := range nodes {
		go n.ping(ctx)
	}
}

type Message struct{ Body string }

type Batch struct{ Messages []Message }

func deliver(ctx context.Context, m Message) error {
	return post(ctx, "http://mail.internal/send?body="+m.Body)
}

// A batch that a value holds is still data: one goroutine per message.
func (b *Batch) Send(ctx context.Context) {
	for _, m := range b.Messages {
		go deliver(ctx, m) // want `one goroutine per element of b.Messages`
	}
}

func lookupTo(ctx context.Context, id string, out chan<- error) { out <- post(ctx, "http://x/"+id) }

// The channel is drained only after the loop: every goroutine runs at once.
func FetchAll(ctx context.Context, ids []string) error {
	errc := make(chan error, len(ids))
	for _, id := range ids {
		go lookupTo(ctx, id, errc) // want `one goroutine per element of ids`
	}
	var first error
	for range ids {
		if err := <-errc; err != nil && first == nil {
			first = err
		}
	}
	return first
}

func call(ctx context.Context, i int) error {
	return post(ctx, fmt.Sprintf("http://load.internal/hit?n=%d", i))
}

// A count of requests is work, not a concurrency level.
func Burst(ctx context.Context, numRequests int) {
	var wg sync.WaitGroup
	for i := 0; i < numRequests; i++ {
		wg.Add(1)
		go func() { // want `one goroutine per iteration up to numRequests`
			defer wg.Done()
			_ = call(ctx, i)
		}()
	}
	wg.Wait()
}

var errTooMany = errors.New("too many")

// A cap larger than the fan-out limit, or one that is assigned over
// afterwards, does not bound the loop.
func cappedTooHigh(ctx context.Context, ids []string) error {
	if len(ids) > 500 {
		return errTooMany
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { lookupID(ctx, id) }) // want `up to 500 goroutines at once \(one per iteration\) with no limit, .*: that is 500 connections to`
	}
	wg.Wait()
	return nil
}

func cappedThenReplaced(ctx context.Context, ids, more []string) error {
	if len(ids) > 10 {
		return errTooMany
	}
	ids = append(ids, more...)
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { lookupID(ctx, id) }) // want `one goroutine per element of ids with no limit`
	}
	wg.Wait()
	return nil
}

type batchReq struct{ IDs, More []string }

// A cap on one field does not bound a loop over another, nor over the
// field once the request is replaced.
func cappedOtherField(ctx context.Context, req *batchReq) error {
	if len(req.IDs) > 8 {
		return errTooMany
	}
	var wg sync.WaitGroup
	for _, id := range req.More {
		wg.Go(func() { lookupID(ctx, id) }) // want `one goroutine per element of req.More with no limit`
	}
	wg.Wait()
	return nil
}

func cappedFieldThenReplaced(ctx context.Context, req, next *batchReq) error {
	if len(req.IDs) > 8 {
		return errTooMany
	}
	req = next
	var wg sync.WaitGroup
	for _, id := range req.IDs {
		wg.Go(func() { lookupID(ctx, id) }) // want `one goroutine per element of req.IDs with no limit`
	}
	wg.Wait()
	return nil
}

func lookupID(ctx context.Context, id string) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://x/"+id, nil)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
}

// A channel used as a lock around bookkeeping after the calls bounds
// nothing: every call runs at once.
func chanLockAfterCall(ctx context.Context, ids []string) map[string]error {
	mu := make(chan struct{}, 1)
	res := map[string]error{}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() { // want `one goroutine per element of ids with no limit`
			defer wg.Done()
			lookupID(ctx, id)
			mu <- struct{}{}
			res[id] = nil
			<-mu
		}()
	}
	wg.Wait()
	return res
}

// A goroutine per chunk of a list of any length is still unbounded.
func chunked(ctx context.Context, ids []string) {
	const batch = 50
	var wg sync.WaitGroup
	for start := 0; start < len(ids); start += batch {
		end := min(start+batch, len(ids))
		wg.Go(func() { // want `one goroutine per chunk of 50 up to len\(ids\) with no limit`
			for _, id := range ids[start:end] {
				lookupID(ctx, id)
			}
		})
	}
	wg.Wait()
}

type sink struct{}

// flush sends every buffered item: work, whatever its name.
func (s *sink) flush(ctx context.Context, batch []string) {
	for _, id := range batch {
		lookupID(ctx, id)
	}
}

func flushing(ctx context.Context, s *sink, msgs <-chan string) {
	var buf []string
	for m := range msgs {
		buf = append(buf, m)
		if len(buf) < 100 {
			continue
		}
		batch := buf
		buf = nil
		go s.flush(ctx, batch) // want `one goroutine per value received from msgs`
	}
}

// A literal that grows before the loop is no fixed list.
func grownBackends(ctx context.Context, more []string) {
	backends := []string{"a", "b"}
	backends = append(backends, more...)
	var wg sync.WaitGroup
	for _, b := range backends {
		wg.Go(func() { lookupID(ctx, b) }) // want `one goroutine per element of backends`
	}
	wg.Wait()
}

// Nested groups: each goroutine of the outer loop starts a group of its
// own. The inner group's Go is no limit shared by the outer goroutines
// (each has its own group): both loops fan out.
func nestedGroups(ctx context.Context, batches [][]string) error {
	g, gctx := errgroup.WithContext(ctx)
	for _, batch := range batches {
		g.Go(func() error { // want `one goroutine per element of batches`
			ig, ictx := errgroup.WithContext(gctx)
			for _, id := range batch {
				ig.Go(func() error { return refresh(ictx, id) }) // want `one goroutine per element of batch`
			}
			return ig.Wait()
		})
	}
	return g.Wait()
}
