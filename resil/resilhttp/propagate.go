package resilhttp

import (
	"net/http"

	"github.com/resilint/resilint/resil"
)

// HeaderRetryOwned is sent on requests made while an outer layer owns
// retries (resil.RetryOwned). Its presence tells the receiving server not to
// retry its own outbound calls for this request.
const HeaderRetryOwned = "Resil-Retry-Owned"

// Middleware marks the context of requests that carry [HeaderRetryOwned],
// so a handler's resil.Retry calls (and resilhttp transports) make one
// attempt each: retries stay at the layer that owns them.
func Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(HeaderRetryOwned) != "" {
			r = r.WithContext(resil.WithRetryOwned(r.Context()))
		}
		next.ServeHTTP(w, r)
	})
}

// Propagate wraps base (nil: http.DefaultTransport) so that requests whose
// context is owned by an outer retry carry [HeaderRetryOwned], without any
// other policy. [Transport] does this itself.
func Propagate(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return propagator{base}
}

type propagator struct{ base http.RoundTripper }

func (p propagator) RoundTrip(req *http.Request) (*http.Response, error) {
	if resil.RetryOwned(req.Context()) && req.Header.Get(HeaderRetryOwned) == "" {
		req = req.Clone(req.Context())
		req.Header.Set(HeaderRetryOwned, "1")
	}
	return p.base.RoundTrip(req)
}

// CloseIdleConnections closes the idle connections of the base transport.
func (p propagator) CloseIdleConnections() {
	if c, ok := p.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
