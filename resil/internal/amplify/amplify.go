// Package amplify measures retry amplification across layers of real HTTP
// servers on loopback: a client calls layer 1, which calls layer 2, and so
// on down to a bottom server that always answers 503. Every layer retries
// (3 attempts), either with a naive loop or with resil.Retry; the bottom
// server counts the requests it receives.
package amplify

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"github.com/resilint/resilint/resil"
	"github.com/resilint/resilint/resil/resilhttp"
)

// Attempts is the number of attempts every layer makes.
const Attempts = 3

// Mode is how each layer retries.
type Mode int

const (
	// Naive: each layer loops Attempts times, ignoring what the others do.
	Naive Mode = iota
	// Resil: each layer calls resil.Retry with the context it was given;
	// the context's retry-ownership mark crosses HTTP hops through
	// resilhttp.Propagate (client side) and resilhttp.Middleware (server
	// side).
	Resil
)

func (m Mode) String() string {
	if m == Naive {
		return "naive loops"
	}
	return "resil.Retry"
}

// Count builds depth retrying hops — the client plus depth−1 middle
// servers — in front of a bottom server that always answers 503, sends one
// request from the client, and returns how many requests the bottom server
// received.
func Count(ctx context.Context, depth int, mode Mode) (int, error) {
	if depth < 1 {
		return 0, errors.New("amplify: depth must be at least 1")
	}
	var bottomHits atomic.Int32
	bottom := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bottomHits.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer bottom.Close()

	base := &http.Transport{}
	defer base.CloseIdleConnections()
	client := &http.Client{Transport: base}
	if mode == Resil {
		client.Transport = resilhttp.Propagate(base)
	}

	// Build the middle servers from the bottom up; each calls the one below.
	next := bottom.URL
	for range depth - 1 {
		below := next
		var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if err := call(r.Context(), client, below, mode); err != nil {
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			w.WriteHeader(http.StatusOK)
		})
		if mode == Resil {
			h = resilhttp.Middleware(h)
		}
		srv := httptest.NewServer(h)
		defer srv.Close()
		next = srv.URL
	}

	_ = call(ctx, client, next, mode) // the bottom always fails; the count is the result
	return int(bottomHits.Load()), nil
}

// call is one layer's retrying call of url.
func call(ctx context.Context, client *http.Client, url string, mode Mode) error {
	once := func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return resil.Permanent(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		if err := resil.CheckResponse(resp); err != nil {
			return err // CheckResponse closed the body
		}
		return resp.Body.Close()
	}
	if mode == Naive {
		var err error
		for range Attempts {
			if err = once(ctx); err == nil {
				return nil
			}
		}
		return err
	}
	return resil.Retry(ctx, once, resil.Attempts(Attempts), resil.BaseDelay(time.Microsecond), resil.MaxDelay(time.Millisecond))
}
