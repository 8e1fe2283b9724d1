package basic

import (
	"context"
	"crypto/tls"
	"database/sql"
	"net"
	"net/http"
	"net/netip"
	"time"
)

func get(url string) {
	resp, err := http.Get(url) // want `http.Get has no deadline: it takes no context and http.DefaultClient has no Timeout`
	if err == nil {
		resp.Body.Close()
	}
}

func clientWithTimeout(url string) {
	c := &http.Client{Timeout: 3 * time.Second}
	resp, err := c.Get(url)
	if err == nil {
		resp.Body.Close()
	}
}

func clientWithoutTimeout(url string) {
	c := &http.Client{}
	resp, err := c.Get(url) // want `\(\*http.Client\).Get has no deadline`
	if err == nil {
		resp.Body.Close()
	}
}

type svc struct {
	hc *http.Client
	db *sql.DB
}

func (s *svc) fieldClient(url string) {
	resp, err := s.hc.Get(url) // the client is built out of sight: silent
	if err == nil {
		resp.Body.Close()
	}
}

func (s *svc) exec(ctx context.Context) error {
	_, err := s.db.Exec("DELETE FROM t") // want `\(\*sql.DB\).Exec has no deadline`
	return err
}

func (s *svc) execCtx(ctx context.Context) error {
	_, err := s.db.ExecContext(ctx, "DELETE FROM t")
	return err
}

func (s *svc) commit(tx *sql.Tx) error {
	return tx.Commit() // no Context variant: silent
}

func (s *svc) background() error {
	_, err := s.db.ExecContext(context.Background(), "DELETE FROM t") // want `\(\*sql.DB\).ExecContext gets context.Background\(\), which has no deadline`
	return err
}

func (s *svc) withTimeout() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := s.db.ExecContext(ctx, "DELETE FROM t")
	return err
}

func dial(addr string) (net.Conn, error) {
	return net.Dial("tcp", addr) // want `net.Dial has no timeout`
}

func dialTimeout(addr string) (net.Conn, error) {
	return net.DialTimeout("tcp", addr, time.Second)
}

func inbound(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, "http://x", nil)
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		resp.Body.Close()
	}
}

func newRequestSent() {
	req, _ := http.NewRequest(http.MethodGet, "http://x", nil) // want `http.NewRequest gives the request context.Background\(\), which has no deadline, and \(\*http.Client\).Do on line 92 sends it`
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		resp.Body.Close()
	}
}

// A function that drops its ctx and returns the request: judged where the
// request is sent.
func newRequestCtx(ctx context.Context) (*http.Request, error) {
	return http.NewRequest(http.MethodGet, "http://x", nil)
}

func sendNewRequestCtx(ctx context.Context) {
	req, err := newRequestCtx(ctx)
	if err != nil {
		return
	}
	resp, err := http.DefaultClient.Do(req) // want `\(\*http.Client\).Do sends a request that basic.newRequestCtx builds without a context, although this function has the caller's context`
	if err == nil {
		resp.Body.Close()
	}
	req2, err := newRequestCtx(ctx)
	if err != nil {
		return
	}
	resp, err = http.DefaultClient.Do(req2.WithContext(ctx)) // the context is attached at the send: silent
	if err == nil {
		resp.Body.Close()
	}
}

// A request handed back to the caller by a function that uses its ctx for
// other things: the caller gives it its context (req.WithContext(ctx)).

type createRequestFunc func(ctx context.Context, body any) (*http.Request, error)

func makeCreateRequest(target string) createRequestFunc {
	return func(ctx context.Context, body any) (*http.Request, error) {
		req, err := http.NewRequest(http.MethodPost, target, nil)
		if err != nil {
			return nil, err
		}
		if err := encode(ctx, req, body); err != nil {
			return nil, err
		}
		return req, nil
	}
}

func newRequestCtxSent(ctx context.Context, c *http.Client) error {
	req, err := http.NewRequest(http.MethodGet, "http://x", nil) // want `http.NewRequest gives the request context.Background\(\), which has no deadline, although this function has the caller's context`
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func newRequestRecontexted(ctx context.Context) {
	req, _ := http.NewRequest(http.MethodGet, "http://x", nil)
	req = req.WithContext(ctx)
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		resp.Body.Close()
	}
}

// do gives the request the caller's context before sending it.
func do(ctx context.Context, req *http.Request) (*http.Response, error) {
	req = req.WithContext(ctx)
	return http.DefaultClient.Do(req)
}

func recontextedByHelper(ctx context.Context, url string) {
	req, _ := http.NewRequest(http.MethodGet, url, nil) // do() gives it ctx: silent
	resp, err := do(ctx, req)
	if err == nil {
		resp.Body.Close()
	}
}

func encode(ctx context.Context, req *http.Request, body any) error { return nil }

// A request handed with the context to a function value, which may attach
// it: unknown, silent.
type sender struct {
	do func(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error)
}

func (s *sender) sendOne(ctx context.Context, c *http.Client, url string) error {
	req, err := http.NewRequest(http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := s.do(ctx, c, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A request built once and kept in a field gets the context where it is
// sent.
type scraper struct {
	req    *http.Request
	client *http.Client
	url    string
}

func (s *scraper) scrape(ctx context.Context) (*http.Response, error) {
	if s.req == nil {
		req, err := http.NewRequest(http.MethodGet, s.url, nil)
		if err != nil {
			return nil, err
		}
		s.req = req
	}
	return s.client.Do(s.req.WithContext(ctx))
}

func tlsDialerBounded(addr string) (net.Conn, error) {
	td := &tls.Dialer{NetDialer: &net.Dialer{Timeout: 3 * time.Second}}
	return td.Dial("tcp", addr) // NetDialer.Timeout bounds dial and handshake: silent
}

func tlsDialerBoundedCtx(addr string) (net.Conn, error) {
	return (&tls.Dialer{NetDialer: &net.Dialer{Timeout: 3 * time.Second}}).DialContext(context.Background(), "tcp", addr)
}

func tlsDialerUnbounded(addr string) (net.Conn, error) {
	td := &tls.Dialer{Config: &tls.Config{}}
	return td.Dial("tcp", addr) // want `\(\*tls.Dialer\).Dial has no timeout`
}

func dialTCP(ap netip.AddrPort) (net.Conn, error) {
	return (&net.Dialer{}).DialTCP(context.Background(), "tcp", netip.AddrPort{}, ap) // want `\(\*net.Dialer\).DialTCP gets context.Background\(\), which has no deadline`
}

func newStreamingClient() *http.Client { return &http.Client{Transport: http.DefaultTransport} }

func newBoundedClient() (*http.Client, error) {
	if false {
		return nil, nil
	}
	return &http.Client{Timeout: time.Second}, nil
}

func constructed(url string) {
	hc := newStreamingClient()
	resp, err := hc.Get(url) // want `\(\*http.Client\).Get has no deadline`
	if err == nil {
		resp.Body.Close()
	}
	bc, _ := newBoundedClient()
	resp, err = bc.Get(url) // bounded by its constructor's Timeout: silent
	if err == nil {
		resp.Body.Close()
	}
}

// The function discards its caller's context: detachedctx reports it, not
// ctxdeadline.
func relocate(_ context.Context, db *sql.DB) error {
	_, err := db.ExecContext(context.Background(), "UPDATE v SET d = 1")
	return err
}

// Two requests in turn: each message names the send that follows it.
func twoRequests(url string) error {
	hc := &http.Client{}
	req, err := http.NewRequest(http.MethodPost, url, nil) // want `http.NewRequest gives the request context.Background\(\), which has no deadline, and \(\*http.Client\).Do on line 269 sends it`
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		req, err = http.NewRequest(http.MethodPost, url+"/new", nil) // want `http.NewRequest gives the request context.Background\(\), which has no deadline, and \(\*http.Client\).Do on line 279 sends it`
		if err != nil {
			return err
		}
		resp, err = hc.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
	}
	return nil
}

// No caller's context: no deadline reaches the call. Whether the driver
// bounds the wait (a read timeout in the DSN) cannot be seen, so the
// message names that bound instead of claiming there is none.
func migrate(db *sql.DB) error {
	_, err := db.Exec("INSERT INTO t VALUES (1)") // want `\(\*sql.DB\).Exec has no deadline: it takes no context, so no deadline or cancellation reaches it, and .* as long as the database lets it \(a read timeout in the driver's DSN, if it sets one, is the only other bound\); use ExecContext`
	return err
}
