// Package shared holds breakers shared, or not, by several dependencies.
package shared

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"

	"github.com/afex/hystrix-go/hystrix"
	"github.com/eapache/go-resiliency/breaker"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	gb2 "github.com/sony/gobreaker/v2"
	"google.golang.org/grpc"
)

const (
	searchURL  = "https://search.example.com/v1/search"
	suggestURL = "https://search.example.com/v1/suggest"
	paymentURL = "https://payments.example.com/v2/charge"
)

// A package-level breaker for the search API and the payments API.
var apiCB = gb2.NewCircuitBreaker[*http.Response](gb2.Settings{Name: "api"})

func Search(ctx context.Context) (*http.Response, error) {
	return apiCB.Execute(func() (*http.Response, error) {
		return http.Get(searchURL)
	})
}

// Suggest is on the same host as Search: one dependency.
func Suggest(ctx context.Context) (*http.Response, error) {
	return apiCB.Execute(func() (*http.Response, error) {
		return http.Get(suggestURL)
	})
}

func Pay(ctx context.Context) (*http.Response, error) {
	return apiCB.Execute(func() (*http.Response, error) { // want `breaker apiCB guards payments.example.com here but search.example.com at shared.go:28`
		return http.Post(paymentURL, "application/json", nil)
	})
}

// Notifier's one breaker guards the e-mail and the SMS APIs, through a
// helper that takes the URL.
type Notifier struct {
	emailAPI string
	smsAPI   string
	hc       *http.Client
	cb       *gb2.CircuitBreaker[any]
}

func (n *Notifier) post(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := n.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (n *Notifier) Email(ctx context.Context) error {
	_, err := n.cb.Execute(func() (any, error) {
		return nil, n.post(ctx, n.emailAPI+"/send")
	})
	return err
}

func (n *Notifier) EmailBatch(ctx context.Context) error {
	_, err := n.cb.Execute(func() (any, error) { // the same base URL: one dependency
		return nil, n.post(ctx, fmt.Sprintf("%s/batch", n.emailAPI))
	})
	return err
}

func (n *Notifier) SMS(ctx context.Context) error {
	_, err := n.cb.Execute(func() (any, error) { // want `breaker n.cb guards n.smsAPI here but n.emailAPI at shared.go:68`
		return nil, n.post(ctx, n.smsAPI+"/messages")
	})
	return err
}

// One hystrix command for two APIs.
func (n *Notifier) HystrixEmail(ctx context.Context) error {
	return hystrix.DoC(ctx, "notify", func(ctx context.Context) error {
		return n.post(ctx, n.emailAPI)
	}, nil)
}

func (n *Notifier) HystrixSMS(ctx context.Context) error {
	return hystrix.DoC(ctx, "notify", func(ctx context.Context) error { // want `breaker "notify" guards n.smsAPI here but n.emailAPI`
		return n.post(ctx, n.smsAPI)
	}, nil)
}

// Separate hystrix commands: one per dependency.
func (n *Notifier) HystrixOwn(ctx context.Context) error {
	if err := hystrix.Do("email", func() error { return n.post(ctx, n.emailAPI) }, nil); err != nil {
		return err
	}
	return hystrix.Do("sms", func() error { return n.post(ctx, n.smsAPI) }, nil)
}

// One breaker per dependency, in a map keyed by host.
type PerHost struct {
	hc       *http.Client
	breakers map[string]*gb2.CircuitBreaker[*http.Response]
}

func (p *PerHost) Get(host string) (*http.Response, error) {
	return p.breakers[host].Execute(func() (*http.Response, error) {
		return p.hc.Get("https://" + host + "/status")
	})
}

func (p *PerHost) Both() {
	p.breakers["a"].Execute(func() (*http.Response, error) { return http.Get("https://a.example.com") })
	p.breakers["b"].Execute(func() (*http.Response, error) { return http.Get("https://b.example.com") })
}

// A struct per client, each with its own breaker.
type Client struct {
	base string
	hc   *http.Client
	cb   *gb2.CircuitBreaker[*http.Response]
}

func (c *Client) Get(path string) (*http.Response, error) {
	return c.cb.Execute(func() (*http.Response, error) {
		return c.hc.Get(c.base + path)
	})
}

func (c *Client) Put(path string) (*http.Response, error) {
	return c.cb.Execute(func() (*http.Response, error) {
		return c.hc.Post(c.base+path, "application/json", nil)
	})
}

type Clients struct {
	a, b Client
}

func (cs *Clients) Both() {
	cs.a.cb.Execute(func() (*http.Response, error) { return cs.a.hc.Get(cs.a.base) })
	cs.b.cb.Execute(func() (*http.Response, error) { return cs.b.hc.Get(cs.b.base) })
}

// Router shares one breaker between a primary and a fallback client of the
// same type: two client values.
type Router struct {
	primary, fallback *Client
	cb                *gb2.CircuitBreaker[*http.Response]
}

func (r *Router) Search() {
	r.cb.Execute(func() (*http.Response, error) { return r.primary.Get("/search") })
	r.cb.Execute(func() (*http.Response, error) { return r.fallback.Get("/search") }) // want `breaker r.cb guards r.fallback.base here but r.primary.base`
}

// Unknown dependencies (the URL is a parameter) are never different.
func Fetch(url1, url2 string) {
	apiCB.Execute(func() (*http.Response, error) { return http.Get(url1) })
	apiCB.Execute(func() (*http.Response, error) { return http.Get(url2) })
}

// Method values as guarded operations.
type Store struct {
	users, orders *sql.DB
	cb, cb2       *gb2.CircuitBreaker[any]
}

func (s *Store) loadUsers() (any, error) {
	return s.users.QueryContext(context.Background(), "SELECT 1")
}

func (s *Store) countUsers() (any, error) {
	return s.users.ExecContext(context.Background(), "SELECT 2")
}

func (s *Store) loadOrders() (any, error) {
	return s.orders.QueryContext(context.Background(), "SELECT 3")
}

func (s *Store) Load() {
	s.cb.Execute(s.loadUsers)
	s.cb.Execute(s.countUsers) // the same database
	s.cb.Execute(s.loadOrders) // want `breaker s.cb guards s.orders here but s.users`
}

// A closure held in a variable.
func (s *Store) Closure() {
	op := func() (any, error) { return s.orders.QueryContext(context.Background(), "SELECT 4") }
	other := func() (any, error) { return s.users.QueryContext(context.Background(), "SELECT 5") }
	s.cb2.Execute(op)
	s.cb2.Execute(other) // want `breaker s.cb2 guards s.users here but s.orders`
}

// gRPC: two generated clients are two services.
type RoomsClient interface {
	Hold(ctx context.Context, in *HoldRequest, opts ...grpc.CallOption) (*HoldReply, error)
	Release(ctx context.Context, in *HoldRequest, opts ...grpc.CallOption) (*HoldReply, error)
}

type RatesClient interface {
	Quote(ctx context.Context, in *HoldRequest, opts ...grpc.CallOption) (*HoldReply, error)
}

type HoldRequest struct{}
type HoldReply struct{}

type Booker struct {
	rooms   RoomsClient
	rates   RatesClient
	cb, cb2 *gb2.CircuitBreaker[*HoldReply]
}

func (b *Booker) Book(ctx context.Context) {
	b.cb.Execute(func() (*HoldReply, error) { return b.rooms.Hold(ctx, &HoldRequest{}) })
	b.cb.Execute(func() (*HoldReply, error) { return b.rooms.Release(ctx, &HoldRequest{}) }) // one service
	b.cb.Execute(func() (*HoldReply, error) { return b.rates.Quote(ctx, &HoldRequest{}) })   // want `breaker b.cb guards shared.RatesClient here but shared.RoomsClient`
}

// A guarded operation that itself reaches two dependencies.
func (b *Booker) Both(ctx context.Context) {
	b.cb2.Execute(func() (*HoldReply, error) { // want `breaker b.cb2 guards shared.RatesClient here but shared.RoomsClient in the same operation`
		if _, err := b.rooms.Hold(ctx, &HoldRequest{}); err != nil {
			return nil, err
		}
		return b.rates.Quote(ctx, &HoldRequest{})
	})
}

// A helper that runs its function argument through the breaker: its
// callers' operations are guarded calls.
func (n *Notifier) guarded(fn func() (any, error)) error { // want guarded:"guards param0 with recv.cb"
	_, err := n.cb.Execute(fn)
	return err
}

func (n *Notifier) ViaHelper(ctx context.Context) {
	n.guarded(func() (any, error) { return nil, n.post(ctx, n.emailAPI) })
	n.guarded(func() (any, error) { return nil, n.post(ctx, n.smsAPI) }) // want `breaker n.cb guards n.smsAPI here but n.emailAPI`
}

// A helper that takes the breaker: each call passes its own.
func guard(cb *gb2.CircuitBreaker[*http.Response], url string) {
	cb.Execute(func() (*http.Response, error) { return http.Get(url) })
}

func ViaParam(a, b *gb2.CircuitBreaker[*http.Response]) {
	guard(a, searchURL)
	guard(b, paymentURL)
}

// failsafe-go: the breaker is a policy of the executor.
type Pipeline struct {
	hc *http.Client
	cb circuitbreaker.CircuitBreaker[*http.Response]
}

func (p *Pipeline) Run(ctx context.Context) {
	failsafe.With[*http.Response](p.cb).WithContext(ctx).Get(func() (*http.Response, error) {
		return p.hc.Get(searchURL)
	})
	exec := failsafe.With[*http.Response](p.cb)
	exec.Get(func() (*http.Response, error) { // want `breaker p.cb guards payments.example.com here but search.example.com`
		return p.hc.Get(paymentURL)
	})
}

// eapache/go-resiliency.
var eb = breaker.New(5, 1, 0)

func Eapache() {
	eb.Run(func() error { _, err := http.Get(searchURL); return err })
	eb.Run(func() error { _, err := http.Get(paymentURL); return err }) // want `breaker eb guards payments.example.com here but search.example.com`
}

// An executor built with a breaker, kept in a field.
type Gateway struct {
	hc   *http.Client
	exec failsafe.Executor[*http.Response]
}

func NewGateway(cb circuitbreaker.CircuitBreaker[*http.Response]) *Gateway {
	return &Gateway{hc: &http.Client{}, exec: failsafe.With[*http.Response](cb)}
}

func (g *Gateway) Search() {
	g.exec.Get(func() (*http.Response, error) { return g.hc.Get(searchURL) })
}

func (g *Gateway) Pay() {
	g.exec.Get(func() (*http.Response, error) { return g.hc.Get(paymentURL) }) // want `breaker g.exec guards payments.example.com here but search.example.com`
}

// A local breaker shared by two calls of one function.
func Local(ctx context.Context) {
	cb := gb2.NewCircuitBreaker[*http.Response](gb2.Settings{Name: "local"})
	cb.Execute(func() (*http.Response, error) { return http.Get(searchURL) })
	cb.Execute(func() (*http.Response, error) { return http.Get(paymentURL) }) // want `breaker cb guards payments.example.com here but search.example.com`
}

// A gRPC service and an HTTP host behind one breaker: two dependencies.
type Mixed struct {
	rooms RoomsClient
	hc    *http.Client
	cb    *gb2.CircuitBreaker[any]
}

func (m *Mixed) Hold(ctx context.Context) {
	m.cb.Execute(func() (any, error) { return m.rooms.Hold(ctx, &HoldRequest{}) })
}

func (m *Mixed) Charge(ctx context.Context) {
	m.cb.Execute(func() (any, error) { // want `breaker m.cb guards payments.example.com here but shared.RoomsClient`
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, paymentURL, nil)
		if err != nil {
			return nil, err
		}
		return m.hc.Do(req)
	})
}

// A package-level executor with its breaker built inline, guarding two
// hosts.
var apiExec = failsafe.With[*http.Response](circuitbreaker.NewBuilder[*http.Response]().WithFailureThreshold(5).Build())

func ExecBoth(ctx context.Context) {
	apiExec.WithContext(ctx).Get(func() (*http.Response, error) { return http.Get(searchURL) })
	apiExec.WithContext(ctx).Get(func() (*http.Response, error) { return http.Get(paymentURL) }) // want `breaker apiExec guards payments.example.com here but search.example.com`
}

// An executor kept in a field, used through WithContext, for two base URLs.
type Indexer struct {
	a, b string
	hc   *http.Client
	exec failsafe.Executor[any]
}

func NewIndexer(a, b string) *Indexer {
	cb := circuitbreaker.NewBuilder[any]().WithFailureThreshold(5).Build()
	return &Indexer{a: a, b: b, hc: &http.Client{}, exec: failsafe.With[any](cb)}
}

func (i *Indexer) put(ctx context.Context, u string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, u, nil)
	if err != nil {
		return err
	}
	resp, err := i.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (i *Indexer) Put(ctx context.Context) {
	i.exec.WithContext(ctx).Run(func() error { return i.put(ctx, i.a+"/x") })
	i.exec.WithContext(ctx).Run(func() error { return i.put(ctx, i.b+"/y") }) // want `breaker i.exec guards i.b here but i.a`
}
