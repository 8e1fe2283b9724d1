// Package helpers: contexts that reach outbound calls through the
// package's own helpers, wrappers, closures and method values.
package helpers

import (
	"context"
	"encoding/json"
	"net/http"
	"os/signal"
	"syscall"
	"time"
)

// getJSON is a project's own HTTP wrapper: it forwards ctx to a client
// without Timeout.
func getJSON(ctx context.Context, url string, v any) error {
	req, err := newRequest(ctx, url)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(v)
}

// newRequest builds the request with the caller's ctx.
func newRequest(ctx context.Context, url string) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
}

// profile forwards through another helper.
func profile(ctx context.Context, id string) (map[string]any, error) {
	var out map[string]any
	ctx = context.WithValue(ctx, key{}, id)
	return out, getJSON(ctx, "http://profiles/"+id, &out)
}

type key struct{}

func batchJob() {
	var v any
	_ = getJSON(context.Background(), "http://x", &v) // want `helpers.getJSON gets context.Background\(\), which has no deadline, and forwards it to \(\*http.Client\).Do, which nothing else bounds`
	_, _ = profile(context.TODO(), "1")               // want `helpers.profile gets context.TODO\(\), which has no deadline, and forwards it to \(\*http.Client\).Do \(through helpers.getJSON\)`
}

func batchJobWithBudget() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var v any
	_ = getJSON(ctx, "http://x", &v)
	_, _ = profile(ctx, "1")
}

func signalOnly() {
	// signal.NotifyContext adds no deadline.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	var v any
	_ = getJSON(ctx, "http://x", &v) // want `helpers.getJSON gets ctx \(made from context.Background\(\)\), which has no deadline`
}

func unknownOrigin(ctx context.Context) {
	var v any
	_ = getJSON(ctx, "http://x", &v) // ctx of unknown origin: silent
}

func fromCall() {
	var v any
	_ = getJSON(makeCtx(), "http://x", &v) // a call result is unknown: silent
}

func makeCtx() context.Context { return context.Background() }

// timeoutClient: a helper whose client has a Timeout forwards nothing
// unbounded.
var timeoutClient = &http.Client{Timeout: 2 * time.Second}

func bounded(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := timeoutClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func callsBounded() {
	_ = bounded(context.Background(), "http://x") // the client has a Timeout: silent
}

// ping is a wrapper with no context at all: the call inside is reported.
func ping(url string) bool {
	resp, err := http.Head(url) // want `http.Head has no deadline`
	if err != nil {
		return false
	}
	resp.Body.Close()
	return true
}

func closures() {
	fetch := func(ctx context.Context, url string) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	_ = fetch(context.Background(), "http://x") // calls through function values are out of scope: silent
	go func() {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://x", nil)
		resp, err := http.DefaultClient.Do(req) // want `\(\*http.Client\).Do gets context.Background\(\), which has no deadline`
		if err == nil {
			resp.Body.Close()
		}
	}()
}

func methodValues(c *http.Client, url string) {
	get := http.Get
	resp, err := get(url) // want `http.Get has no deadline`
	if err == nil {
		resp.Body.Close()
	}
	plain := &http.Client{}
	do := plain.Do
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	resp, err = do(req) // want `\(\*http.Client\).Do gets context.Background\(\)`
	if err == nil {
		resp.Body.Close()
	}
}

func clientTimeouts(url string) {
	c := &http.Client{}
	c.Timeout = 3 * time.Second
	resp, err := c.Get(url) // a Timeout set by a field assignment counts
	if err == nil {
		resp.Body.Close()
	}
	zero := &http.Client{Timeout: 0}
	resp, err = zero.Get(url) // want `\(\*http.Client\).Get has no deadline`
	if err == nil {
		resp.Body.Close()
	}
	var byValue http.Client
	resp, err = byValue.Get(url) // want `\(\*http.Client\).Get has no deadline`
	if err == nil {
		resp.Body.Close()
	}
}

type api struct {
	hc   *http.Client
	base string
}

func newAPI(base string) *api { return &api{hc: &http.Client{}, base: base} }

func (a *api) get(path string) error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, a.base+path, nil)
	if err != nil {
		return err
	}
	resp, err := a.hc.Do(req) // want `\(\*http.Client\).Do gets context.Background\(\), which has no deadline and its client has no Timeout`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func withoutCancelOnly(ctx context.Context, url string) {
	dctx := context.WithoutCancel(ctx)
	req, _ := http.NewRequestWithContext(dctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req) // want `\(\*http.Client\).Do gets a context from context.WithoutCancel, which has no deadline`
	if err == nil {
		resp.Body.Close()
	}
	tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	req2, _ := http.NewRequestWithContext(tctx, http.MethodGet, url, nil)
	resp, err = http.DefaultClient.Do(req2)
	if err == nil {
		resp.Body.Close()
	}
}

func mixed(url string, fast bool) {
	ctx := context.Background()
	if fast {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Second)
		defer cancel()
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req) // a deadline on one path only: not provably deadline-free, silent
	if err == nil {
		resp.Body.Close()
	}
}

// A client in an unexported field of the package is what the package gives
// it (above: &http.Client{} in newAPI); one given from outside, or by two
// values that disagree, or set through (c.hc.Timeout = d), is unknown.
type given struct{ hc *http.Client }

func newGiven(hc *http.Client) *given { return &given{hc: hc} }

type tuned struct{ hc *http.Client }

func newTuned() *tuned {
	t := &tuned{hc: &http.Client{}}
	t.hc.Timeout = 5 * time.Second
	return t
}

type Exported struct{ HC *http.Client }

func newExported() *Exported { return &Exported{HC: &http.Client{}} }

func fieldClients(g *given, t *tuned, e *Exported) {
	for _, hc := range []*http.Client{g.hc, t.hc, e.HC} {
		_ = hc
	}
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://x", nil)
	if resp, err := g.hc.Do(req); err == nil {
		resp.Body.Close()
	}
	if resp, err := t.hc.Do(req); err == nil {
		resp.Body.Close()
	}
	if resp, err := e.HC.Do(req); err == nil {
		resp.Body.Close()
	}
}
