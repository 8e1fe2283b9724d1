package resilhttp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/resilint/resilint/resil"
)

// Defaults of a Transport.
const (
	// DefaultTimeout is the deadline given to a request whose context has
	// none. It covers all attempts and reading the response body.
	DefaultTimeout = 10 * time.Second
	// DefaultHostLimit is the number of requests in flight per host.
	DefaultHostLimit = 100
	// DefaultHostQueue is the number of requests that may wait per host for
	// a free slot before being rejected with resil.ErrBulkheadFull.
	DefaultHostQueue = 100
)

// An Option configures a Transport.
type Option func(*config)

type config struct {
	timeout          time.Duration
	limit, queue     int
	retryOpts        []resil.Option
	breakerOpts      []resil.BreakerOption
	disableBreaker   bool
	disableBulkheads bool
}

// Timeout sets the deadline applied to requests that have none
// (default [DefaultTimeout]); d ≤ 0 applies none.
func Timeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// HostLimit sets the per-host bulkhead: limit requests in flight and queue
// waiting (defaults [DefaultHostLimit], [DefaultHostQueue]); see
// resil.NewBulkhead for how bad values are treated. limit < 0 disables the
// bulkheads.
func HostLimit(limit, queue int) Option {
	return func(c *config) {
		c.limit, c.queue = limit, queue
		c.disableBulkheads = limit < 0
	}
}

// RetryOptions adds options to every Retry the transport runs (after its
// own: resil.Dependency(host)). resil.Attempts(1) disables retries.
func RetryOptions(opts ...resil.Option) Option {
	return func(c *config) { c.retryOpts = append(c.retryOpts, opts...) }
}

// BreakerOptions configures the per-host breakers.
func BreakerOptions(opts ...resil.BreakerOption) Option {
	return func(c *config) { c.breakerOpts = append(c.breakerOpts, opts...) }
}

// WithoutBreaker disables the per-host breakers.
func WithoutBreaker() Option { return func(c *config) { c.disableBreaker = true } }

// A Transport is an http.RoundTripper that applies resil's policies to
// every request. Share one per process (or per upstream), as with
// http.Transport: breakers and bulkheads are per host within a Transport.
type Transport struct {
	base  http.RoundTripper
	cfg   config
	hosts sync.Map // host → *hostPolicy
}

type hostPolicy struct {
	breaker  *resil.Breaker
	bulkhead *resil.Bulkhead
}

// NewTransport wraps base (nil means a clone of http.DefaultTransport, so
// CloseIdleConnections on this transport closes only its own connections).
func NewTransport(base http.RoundTripper, opts ...Option) *Transport {
	if base == nil {
		if dt, ok := http.DefaultTransport.(*http.Transport); ok {
			base = dt.Clone()
		} else {
			base = http.DefaultTransport
		}
	}
	c := config{timeout: DefaultTimeout, limit: DefaultHostLimit, queue: DefaultHostQueue}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return &Transport{base: base, cfg: c}
}

// NewClient returns an *http.Client using NewTransport(nil, opts...).
func NewClient(opts ...Option) *http.Client {
	return &http.Client{Transport: NewTransport(nil, opts...)}
}

// CloseIdleConnections closes the idle connections of the base transport.
func (t *Transport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

func (t *Transport) host(h string) *hostPolicy {
	if p, ok := t.hosts.Load(h); ok {
		return p.(*hostPolicy)
	}
	p := &hostPolicy{}
	if !t.cfg.disableBreaker {
		p.breaker = resil.NewBreaker(h, t.cfg.breakerOpts...)
	}
	if !t.cfg.disableBulkheads {
		p.bulkhead = resil.NewBulkhead(t.cfg.limit, t.cfg.queue)
	}
	actual, _ := t.hosts.LoadOrStore(h, p)
	return actual.(*hostPolicy)
}

// Idempotent reports whether req may be sent more than once: its method is
// GET, HEAD, OPTIONS, TRACE, PUT or DELETE, or it carries an
// Idempotency-Key header; and its body, if any, can be replayed (GetBody).
func Idempotent(req *http.Request) bool {
	if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
		return false
	}
	switch req.Method {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace, http.MethodPut, http.MethodDelete:
		return true
	}
	return req.Header.Get("Idempotency-Key") != "" || req.Header.Get("X-Idempotency-Key") != ""
}

// statusError is an attempt that got a retryable status. It keeps the
// response so that the last one can be returned to the caller as a
// response, as a RoundTripper must.
type statusError struct {
	resp *http.Response
	err  *resil.HTTPError
}

func (e *statusError) Error() string { return e.err.Error() }
func (e *statusError) Unwrap() error { return e.err }

// RoundTrip sends req under the transport's policies. A retryable status
// that survives the retries is returned as the response (not an error), as
// http.RoundTripper requires; rejections (resil.ErrOpen,
// resil.ErrBulkheadFull) and transport errors are returned as errors.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	cancel := context.CancelFunc(func() {})
	if _, ok := ctx.Deadline(); !ok && t.cfg.timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, t.cfg.timeout)
	}
	p := t.host(req.URL.Host)

	var resp *http.Response
	var err error
	if Idempotent(req) {
		n := 0
		opts := append([]resil.Option{resil.Dependency(req.URL.Host), resil.OnRetry(discardFailed)}, t.cfg.retryOpts...)
		resp, err = resil.RetryValue(ctx, func(actx context.Context) (*http.Response, error) {
			n++
			return t.attempt(actx, req, p, n > 1)
		}, opts...)
	} else {
		resp, err = t.attempt(ctx, req, p, false)
	}

	var se *statusError
	if err != nil && errors.As(err, &se) && ctx.Err() == nil {
		resp, err = se.resp, nil // the last answer, body intact
	}
	if err != nil {
		if se != nil {
			discard(se.resp)
		}
		if req.Body != nil { // a RoundTripper closes the body, even when it never sent it
			_ = req.Body.Close()
		}
		cancel()
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// attempt sends one copy of req through the host's bulkhead and breaker.
func (t *Transport) attempt(ctx context.Context, req *http.Request, p *hostPolicy, replay bool) (*http.Response, error) {
	r := req.Clone(ctx)
	if replay && req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, resil.Permanent(err)
		}
		r.Body = body
	}
	if resil.RetryOwned(ctx) {
		r.Header.Set(HeaderRetryOwned, "1")
	}
	var resp *http.Response
	send := func(ctx context.Context) error {
		var err error
		resp, err = t.base.RoundTrip(r)
		if err != nil {
			return err
		}
		if resil.RetryableStatus(resp.StatusCode) {
			he := &resil.HTTPError{StatusCode: resp.StatusCode, Status: resp.Status, Method: req.Method, URL: req.URL.Redacted()}
			if d, ok := resil.ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
				he.After = d
			}
			return &statusError{resp: resp, err: he}
		}
		return nil
	}
	if p.breaker != nil {
		inner := send
		send = func(ctx context.Context) error { return p.breaker.Do(ctx, inner) }
	}
	var err error
	if p.bulkhead != nil {
		err = p.bulkhead.Do(ctx, send)
	} else {
		err = send(ctx)
	}
	if err != nil {
		var se *statusError
		if !errors.As(err, &se) && resp != nil {
			discard(resp)
		}
		return nil, err
	}
	return resp, nil
}

// discardFailed closes the response of an attempt that is about to be
// retried.
func discardFailed(_ int, err error, _ time.Duration) {
	var se *statusError
	if errors.As(err, &se) {
		discard(se.resp)
	}
}

func discard(resp *http.Response) {
	if resp != nil && resp.Body != nil {
		_, _ = io.CopyN(io.Discard, resp.Body, 64<<10)
		_ = resp.Body.Close()
	}
}

// cancelOnClose releases the request's default deadline when the caller
// closes the body.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}
