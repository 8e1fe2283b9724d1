// Package bounded holds goroutines started in loops that are bounded, or
// not fan-out.
package bounded

import (
	"bufio"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/resilint/resilint/resil"
	"github.com/sourcegraph/conc/pool"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
)

type Order struct{ ID string }

// errgroup with SetLimit before the loop.
func Limited(ctx context.Context, orders []Order) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for _, o := range orders {
		g.Go(func() error { return ship(ctx, o) })
	}
	return g.Wait()
}

// A helper that limits the group it returns.
func limitedGroup(ctx context.Context) (*errgroup.Group, context.Context) {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	return g, ctx
}

func ViaHelper(ctx context.Context, orders []Order) error {
	g, ctx := limitedGroup(ctx)
	for _, o := range orders {
		g.Go(func() error { return ship(ctx, o) })
	}
	return g.Wait()
}

// A helper that sets the limit on the group it is given.
func limit(g *errgroup.Group) { g.SetLimit(8) }

func ViaSetter(ctx context.Context, orders []Order) error {
	var g errgroup.Group
	limit(&g)
	for _, o := range orders {
		g.Go(func() error { return ship(ctx, o) })
	}
	return g.Wait()
}

// A struct field group limited in the constructor.
type Shipper struct {
	g *errgroup.Group
}

func NewShipper() *Shipper {
	s := &Shipper{g: new(errgroup.Group)}
	s.g.SetLimit(10)
	return s
}

func (s *Shipper) Ship(ctx context.Context, orders []Order) error {
	for _, o := range orders {
		s.g.Go(func() error { return ship(ctx, o) })
	}
	return s.g.Wait()
}

// A group from the caller: its limit is unknown.
func Given(ctx context.Context, g *errgroup.Group, orders []Order) {
	for _, o := range orders {
		g.Go(func() error { return ship(ctx, o) })
	}
}

// TryGo never blocks and never exceeds the limit.
func Try(ctx context.Context, g *errgroup.Group, orders []Order) {
	for _, o := range orders {
		g.TryGo(func() error { return ship(ctx, o) })
	}
}

// A buffered-channel semaphore filled before the go statement.
func Semaphore(ctx context.Context, orders []Order) {
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for _, o := range orders {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			ship(ctx, o)
		}()
	}
	wg.Wait()
}

// ... or at the start of the goroutine.
func SemaphoreInside(ctx context.Context, orders []Order) {
	sem := make(chan struct{}, 8)
	for _, o := range orders {
		go func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			ship(ctx, o)
		}()
	}
}

// x/sync/semaphore.
func Weighted(ctx context.Context, orders []Order) {
	sem := semaphore.NewWeighted(8)
	for _, o := range orders {
		if err := sem.Acquire(ctx, 1); err != nil {
			return
		}
		go func() {
			defer sem.Release(1)
			ship(ctx, o)
		}()
	}
}

// resil's bounded group, ForEach and bulkhead.
func Resil(ctx context.Context, orders []Order, bh *resil.Bulkhead) error {
	g := resil.NewGroup(ctx, 8)
	for _, o := range orders {
		g.Go(func(ctx context.Context) error { return ship(ctx, o) })
	}
	for _, o := range orders {
		go bh.Do(ctx, func(ctx context.Context) error { return ship(ctx, o) })
	}
	_ = resil.ForEach(ctx, orders, 8, ship)
	return g.Wait()
}

// conc with WithMaxGoroutines.
func Conc(orders []Order) {
	p := pool.New().WithMaxGoroutines(4)
	for _, o := range orders {
		p.Go(func() { ship(context.Background(), o) })
	}
	p.Wait()
}

// Worker pools: N goroutines that take work from one channel.
type Config struct{ Workers int }

func Workers(ctx context.Context, cfg Config, jobs <-chan Order) {
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				ship(ctx, j)
			}
		}()
	}
	for i := 0; i < cfg.Workers; i++ {
		go func() {
			for {
				select {
				case <-ctx.Done():
					return
				case j, ok := <-jobs:
					if !ok {
						return
					}
					ship(ctx, j)
				}
			}
		}()
	}
	for i := 0; i < runtime.NumCPU(); i++ {
		go worker(ctx, i, jobs)
	}
	wg.Wait()
}

func worker(ctx context.Context, id int, jobs <-chan Order) {
	for j := range jobs {
		ship(ctx, j)
	}
}

// A pool of workers as methods.
type Pool struct{ jobs chan Order }

func (p *Pool) run() {
	for j := range p.jobs {
		ship(context.Background(), j)
	}
}

func (p *Pool) Start(n int) {
	for i := 0; i < n; i++ {
		go p.run()
	}
}

// n identical goroutines: a pool whatever they do.
func Identical(n int, poll func()) {
	for i := 0; i < n; i++ {
		go poll()
	}
}

// Small constant loops.
func Small(ctx context.Context) {
	for i := 0; i < 3; i++ {
		go ship(ctx, Order{})
	}
	for _, region := range []string{"eu", "us", "ap"} {
		go ship(ctx, Order{ID: region})
	}
	var shards [8]Order
	for _, s := range shards {
		go ship(ctx, s)
	}
}

// Waited for within the same iteration: one at a time.
func OneAtATime(ctx context.Context, orders []Order) {
	for _, o := range orders {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			ship(ctx, o)
		}()
		wg.Wait()
	}
	for _, o := range orders {
		done := make(chan error, 1)
		go func() { done <- ship(ctx, o) }()
		select {
		case <-done:
		case <-ctx.Done():
			return
		}
	}
}

// A server's accept loop is out of scope.
func Serve(l net.Listener) {
	for {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		go handle(conn)
	}
}

func handle(c net.Conn) {}

// Long-lived goroutines started once per component.
type Informer interface {
	Run(stopCh <-chan struct{})
}

func StartInformers(informers []Informer, stopCh <-chan struct{}) {
	for _, inf := range informers {
		go inf.Run(stopCh)
	}
	for _, inf := range informers {
		go func() {
			for {
				select {
				case <-stopCh:
					return
				default:
				}
				inf.Run(stopCh)
			}
		}()
	}
}

type Server interface{ Serve(l net.Listener) error }

func ServeAll(srv Server, ls []net.Listener) {
	for _, l := range ls {
		go srv.Serve(l)
	}
}

// Loops until the context is done: lifecycle.
func Pollers(ctx context.Context, targets []string, poll func(string)) {
	for _, t := range targets {
		go func() {
			for ctx.Err() == nil {
				poll(t)
			}
		}()
	}
}

// The loop leaves right after the launch: one goroutine.
func First(ctx context.Context, orders []Order) {
	for _, o := range orders {
		if o.ID != "" {
			go ship(ctx, o)
			break
		}
	}
}

// A generic helper with a limit.
func ForAll[T any](ctx context.Context, items []T, f func(T) error) error {
	g, _ := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for _, it := range items {
		g.Go(func() error { return f(it) })
	}
	return g.Wait()
}

// Endless loops that do not feed a stream of work: a racer started when a
// timer fires, a server reading its requests, a list drained.
func Race(ctx context.Context, results <-chan error, start func()) error {
	timer := time.NewTimer(time.Second)
	defer timer.Stop()
	for {
		select {
		case <-timer.C:
			go start()
		case err := <-results:
			return err
		}
	}
}

type Codec interface{ Read() (Order, error) }

func ServeCodec(ctx context.Context, codec Codec) {
	for {
		req, err := codec.Read()
		if err != nil {
			return
		}
		go ship(ctx, req)
	}
}

func Drain(ctx context.Context, list []Order) {
	for len(list) > 0 {
		o := list[len(list)-1]
		list = list[:len(list)-1]
		go ship(ctx, o)
	}
}

// Hooks and components behind an interface: one goroutine per part of the
// program.
type Stage interface {
	Exec(ctx context.Context) error
}

type Pipeline struct {
	onShutdown []func()
	stages     []Stage
}

func (p *Pipeline) Hooks(ctx context.Context) {
	for _, f := range p.onShutdown {
		go f()
	}
	for _, st := range p.stages {
		go func(st Stage) { st.Exec(ctx) }(st)
	}
}

// A pipeline that runs its own stages.
type Stages []Stage

func (ss Stages) Exec(ctx context.Context) {
	for _, s := range ss {
		go s.Exec(ctx)
	}
}

// Functions handed in: hooks too.
func RunAll(fns []func()) {
	for _, f := range fns {
		go f()
	}
}

// A port forwarder per port: each goroutine listens and serves until the
// context ends.
func Forward(ctx context.Context, ports []int, serve func(net.Listener) error) error {
	g, ctx := errgroup.WithContext(ctx)
	for _, p := range ports {
		g.Go(func() error {
			l, err := net.Listen("tcp", net.JoinHostPort("", strconv.Itoa(p)))
			if err != nil {
				return err
			}
			defer l.Close()
			return serve(l)
		})
	}
	return g.Wait()
}

// Shutting every server down in parallel: a goroutine per component that
// only stops it (through a local function value or a literal).
type HTTPServer struct {
	srv       *http.Server
	listeners []net.Listener
	log       *slog.Logger
}

type App struct{ Servers map[string]*HTTPServer }

func (a *App) Stop(ctx context.Context) {
	var wg sync.WaitGroup
	stop := func(s *HTTPServer) {
		defer wg.Done()
		for _, l := range s.listeners {
			_ = l.Close()
		}
		if err := s.srv.Shutdown(ctx); err != nil && !errors.Is(err, context.Canceled) {
			s.log.Error("shutdown", "err", err)
		}
	}
	for _, s := range a.Servers {
		wg.Add(1)
		go stop(s)
	}
	for _, s := range a.Servers {
		go s.srv.Shutdown(ctx)
	}
	for _, s := range a.Servers {
		wg.Go(func() {
			if err := s.srv.Close(); err != nil {
				slog.Warn("close", "err", err)
			}
		})
	}
	wg.Wait()
}

// A goroutine per node of a cluster the client holds: bounded by the
// topology, each goroutine talks to a node of its own.
type node struct{ addr string }

func (n *node) ping(ctx context.Context) error { return post(ctx, "http://"+n.addr+"/ping") }

type Cluster struct{ nodes map[string]*node }

func (c *Cluster) list() []*node { return nil }

func (c *Cluster) PingAll(ctx context.Context) {
	var wg sync.WaitGroup
	for _, n := range c.nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = n.ping(ctx)
		}()
	}
	wg.Wait()
	nodes := c.list()
	for _, n := range nodes {
		go n.ping(ctx)
	}
}

// A goroutine per listener that accepts connections: a server per
// component.
type Transport struct{ listeners []net.Listener }

func (t *Transport) Start() {
	for i := 0; i < len(t.listeners); i++ {
		go t.acceptLoop(t.listeners[i])
	}
}

func (t *Transport) acceptLoop(l net.Listener) {
	for {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		go handleConn(conn)
	}
}

func handleConn(c net.Conn) { _ = c.Close() }

// One attempt at a time: the goroutine reports on the channel it is given,
// and the iteration waits for it (or for the deadline) before the next.
func RetryWithTimeout(ctx context.Context, times int, fn func(errc chan error, attempt int)) error {
	errc := make(chan error, 1)
	var err error
	for i := 0; i < times; i++ {
		go fn(errc, i)
		select {
		case err = <-errc:
			if err == nil {
				return nil
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return err
}

// The slot is taken by a select case before the goroutine starts, and
// given back when it ends.
func MapAll(ctx context.Context, source <-chan string, work func(string)) {
	pool := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for {
		select {
		case <-ctx.Done():
			wg.Wait()
			return
		case pool <- struct{}{}:
			item, ok := <-source
			if !ok {
				<-pool
				wg.Wait()
				return
			}
			wg.Add(1)
			go func() {
				defer func() {
					wg.Done()
					<-pool
				}()
				work(item)
			}()
		}
	}
}

// A pool whose workers use their index only for the slot they write their
// result to: each takes its share of the iterations, none designates an
// item.
type SoakConfig struct{ Iterations, NumWorkers int }

func call(ctx context.Context) error { return post(ctx, "http://load.internal/hit") }

func Soak(ctx context.Context, cfg SoakConfig) []int {
	failures := make([]int, cfg.NumWorkers)
	var wg sync.WaitGroup
	for i := 0; i < cfg.NumWorkers; i++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			for range cfg.Iterations / cfg.NumWorkers {
				if call(ctx) != nil {
					failures[id]++
				}
			}
		}(i)
	}
	wg.Wait()
	return failures
}

// Removing a failed subscriber in the background: locking, flushing and
// closing what it is given is teardown, not work.
type encoder struct{ w *bufio.Writer }

func (e *encoder) flush() error { return e.w.Flush() }
func (e *encoder) close() error { return nil }

type subscriber struct {
	enc  *encoder
	quit chan struct{}
}

type hub struct {
	mu   sync.Mutex
	subs map[*subscriber]bool
}

func (h *hub) remove(s *subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs, s)
	close(s.quit)
	_ = s.enc.flush()
	_ = s.enc.close()
}

func (h *hub) Publish(send func(*subscriber) error, failed []*subscriber) {
	for _, s := range failed {
		go h.remove(s)
	}
}

// Starting every cache a value holds: each runs until the context ends.
type Cache interface {
	Start(ctx context.Context) error
}

func StartAll(ctx context.Context, caches []Cache) error {
	errs := make(chan error)
	var wg sync.WaitGroup
	for _, c := range caches {
		wg.Go(func() {
			if err := c.Start(ctx); err != nil {
				errs <- err
			}
		})
	}
	select {
	case err := <-errs:
		return err
	case <-ctx.Done():
		wg.Wait()
		return nil
	}
}

// Scrape loops behind an interface whose run method lives until stopped.
type scrapeLoop interface{ run(errc chan<- error) }

func StartLoops(loops []scrapeLoop) {
	for _, l := range loops {
		go l.run(nil)
	}
}

// A TCP and a UDP listener per bind address: servers per component.
type NetTransport struct {
	tcp []*net.TCPListener
	udp []*net.UDPConn
}

func (t *NetTransport) Start(addrs []string) {
	for i := 0; i < len(addrs); i++ {
		go t.tcpListen(t.tcp[i])
		go t.udpListen(t.udp[i])
	}
}

func (t *NetTransport) tcpListen(l *net.TCPListener) {
	for {
		c, err := l.AcceptTCP()
		if err != nil {
			return
		}
		_ = c.Close()
	}
}

func (t *NetTransport) udpListen(c *net.UDPConn) {
	buf := make([]byte, 65536)
	for {
		n, _, err := c.ReadFrom(buf)
		if err != nil {
			return
		}
		_ = buf[:n]
	}
}

var errTooMany = errors.New("too many")

// The length is capped at a small constant before the loop.
func cappedByGuard(ctx context.Context, ids []string) error {
	if len(ids) > 10 {
		return errTooMany
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { lookup(ctx, id) })
	}
	wg.Wait()
	return nil
}

// A cap on a field of a request, before a loop over that field.
type batchReq struct{ IDs []string }

func cappedField(ctx context.Context, req *batchReq) error {
	if len(req.IDs) > 8 {
		return errTooMany
	}
	var wg sync.WaitGroup
	for _, id := range req.IDs {
		wg.Go(func() { lookup(ctx, id) })
	}
	wg.Wait()
	return nil
}

func cappedByReslice(ctx context.Context, ids []string) {
	ids = ids[:min(len(ids), 8)]
	var wg sync.WaitGroup
	for i := 0; i < len(ids); i++ {
		wg.Go(func() { lookup(ctx, ids[i]) })
	}
	wg.Wait()
}

func cappedByMin(ctx context.Context, ids []string) {
	var wg sync.WaitGroup
	for i := range min(len(ids), 8) {
		wg.Go(func() { lookup(ctx, ids[i]) })
	}
	wg.Wait()
}

func lookup(ctx context.Context, id string) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://x/"+id, nil)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
}

// A slot taken first thing in the goroutine, by a send or from a pool of
// tokens, bounds the calls.
func semaphoreFirst(ctx context.Context, ids []string) {
	sem := make(chan struct{}, 4)
	tokens := make(chan struct{}, 4)
	for range 4 {
		tokens <- struct{}{}
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(2)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			lookup(ctx, id)
		}()
		go func() {
			defer wg.Done()
			<-tokens
			lookup(ctx, id)
			tokens <- struct{}{}
		}()
	}
	wg.Wait()
}

// Chunks of a capped list, or of a constant range: a few goroutines.
func chunkedCapped(ctx context.Context, ids []string) error {
	if len(ids) > 200 {
		return errTooMany
	}
	var wg sync.WaitGroup
	for start := 0; start < len(ids); start += 50 {
		end := min(start+50, len(ids))
		wg.Go(func() {
			for _, id := range ids[start:end] {
				lookup(ctx, id)
			}
		})
	}
	wg.Wait()
	return nil
}

func chunkedConst(ctx context.Context, ids [100]string) {
	var wg sync.WaitGroup
	for start := 0; start < 100; start += 25 {
		wg.Go(func() {
			for _, id := range ids[start : start+25] {
				lookup(ctx, id)
			}
		})
	}
	wg.Wait()
}

// Released by the goroutine when it ends: bounded.
func semHeld(ctx context.Context, sem *semaphore.Weighted, ids []string) {
	var wg sync.WaitGroup
	for _, id := range ids {
		if err := sem.Acquire(ctx, 1); err != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer sem.Release(1)
			lookup(ctx, id)
		}()
	}
	wg.Wait()
}

// A local slice given a literal once: a fixed number of goroutines.
func fixedBackends(ctx context.Context) {
	backends := []string{"a", "b", "c"}
	var wg sync.WaitGroup
	for _, b := range backends {
		wg.Go(func() { lookup(ctx, b) })
	}
	wg.Wait()
}

// One goroutine per element of a chunk, the chunk waited for before the
// next: at most six run at once.
func perChunk(ctx context.Context, keys []string) {
	for start := 0; start < len(keys); start += 6 {
		chunk := keys[start:min(start+6, len(keys))]
		var wg sync.WaitGroup
		for _, k := range chunk {
			wg.Add(1)
			go func() {
				defer wg.Done()
				lookup(ctx, k)
			}()
		}
		wg.Wait()
	}
	for i := 0; i < len(keys); i += 4 {
		end := min(i+4, len(keys))
		var wg sync.WaitGroup
		for _, k := range keys[i:end] {
			wg.Go(func() { lookup(ctx, k) })
		}
		wg.Wait()
	}
}

// A chunk whose bounds do not give its size: reported.
func perChunkUnknown(ctx context.Context, keys []string, from, to int) {
	var wg sync.WaitGroup
	for _, k := range keys[from:to] {
		wg.Go(func() { lookup(ctx, k) }) // want `one goroutine per element of keys\[from:to\]|one goroutine per element`
	}
	wg.Wait()
}
