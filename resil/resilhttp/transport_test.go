package resilhttp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilint/resilint/resil"
	"github.com/resilint/resilint/resil/internal/leaktest"
)

func TestMain(m *testing.M) { os.Exit(leaktest.Main(m)) }

// fast keeps retries quick in tests.
var fast = RetryOptions(resil.BaseDelay(time.Millisecond), resil.MaxDelay(2*time.Millisecond))

// server answers with the codes in order (the last one repeats) and counts
// requests.
func server(t *testing.T, codes ...int) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		code := codes[min(i, len(codes)-1)]
		body, _ := io.ReadAll(r.Body)
		w.WriteHeader(code)
		_, _ = w.Write([]byte(r.Method + " " + string(body)))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func newClient(t *testing.T, opts ...Option) *http.Client {
	tr := NewTransport(nil, append([]Option{fast}, opts...)...)
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

func TestRetriesIdempotentRequests(t *testing.T) {
	leaktest.Check(t)
	srv, n := server(t, 503, 502, 200)
	resp, err := newClient(t).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || n.Load() != 3 || string(body) != "GET " {
		t.Fatalf("status %d after %d requests, body %q", resp.StatusCode, n.Load(), body)
	}
}

func TestLastRetryableStatusIsReturnedAsResponse(t *testing.T) {
	leaktest.Check(t)
	srv, n := server(t, 503)
	resp, err := newClient(t).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || n.Load() != resil.DefaultAttempts || string(body) != "GET " {
		t.Fatalf("status %d after %d requests, body %q", resp.StatusCode, n.Load(), body)
	}
}

func TestDoesNotRetryClientErrorsOrUnsafeRequests(t *testing.T) {
	leaktest.Check(t)
	srv, n := server(t, 404)
	resp, err := newClient(t).Get(srv.URL)
	if err != nil || resp.StatusCode != 404 || n.Load() != 1 {
		t.Fatalf("404: err=%v requests=%d", err, n.Load())
	}
	resp.Body.Close()

	srv, n = server(t, 503, 200)
	resp, err = newClient(t).Post(srv.URL, "text/plain", strings.NewReader("pay 10€"))
	if err != nil || resp.StatusCode != 503 || n.Load() != 1 {
		t.Fatalf("POST: err=%v requests=%d: a POST must not be retried", err, n.Load())
	}
	resp.Body.Close()
}

func TestRetriesWithIdempotencyKeyReplayingTheBody(t *testing.T) {
	leaktest.Check(t)
	srv, n := server(t, 503, 200)
	req, _ := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader([]byte("pay 10€")))
	req.Header.Set("Idempotency-Key", "k-1")
	resp, err := newClient(t).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || n.Load() != 2 || string(body) != "POST pay 10€" {
		t.Fatalf("status %d after %d requests, body %q", resp.StatusCode, n.Load(), body)
	}
}

func TestAppliesDefaultDeadline(t *testing.T) {
	leaktest.Check(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // hang until the client gives up
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer srv.Close()
	start := time.Now()
	_, err := newClient(t, Timeout(100*time.Millisecond)).Get(srv.URL)
	if err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("err=%v after %v: the default deadline did not apply", err, time.Since(start))
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err=%v, want a deadline error", err)
	}
}

func TestPerHostBreakerOpens(t *testing.T) {
	leaktest.Check(t)
	srv, n := server(t, 500)
	c := newClient(t, BreakerOptions(resil.MinimumThroughput(3)), RetryOptions(resil.Attempts(1)))
	for range 3 {
		resp, err := c.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	_, err := c.Get(srv.URL)
	if !errors.Is(err, resil.ErrOpen) || n.Load() != 3 {
		t.Fatalf("err=%v after %d requests, want ErrOpen without a 4th request", err, n.Load())
	}
}

func TestPerHostBulkheadRejects(t *testing.T) {
	leaktest.Check(t)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
	defer srv.Close()
	c := newClient(t, HostLimit(1, 0))
	first := make(chan error)
	go func() {
		resp, err := c.Post(srv.URL, "text/plain", nil)
		if err == nil {
			resp.Body.Close()
		}
		first <- err
	}()
	tr := c.Transport.(*Transport)
	for {
		if p, ok := tr.hosts.Load(strings.TrimPrefix(srv.URL, "http://")); ok && p.(*hostPolicy).bulkhead.InFlight() == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	_, err := c.Post(srv.URL, "text/plain", nil)
	close(release)
	if !errors.Is(err, resil.ErrBulkheadFull) {
		t.Fatalf("second request: %v, want ErrBulkheadFull", err)
	}
	if err := <-first; err != nil {
		t.Fatal(err)
	}
}

// TestRetryOwnershipCrossesHTTP: client → middle server → bottom server
// (always 503). Both hops use this transport; only the client retries.
func TestRetryOwnershipCrossesHTTP(t *testing.T) {
	leaktest.Check(t)
	bottom, n := server(t, 503)
	inner := newClient(t)
	middle := httptest.NewServer(Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, bottom.URL, nil)
		resp, err := inner.Do(req)
		if err != nil {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		resp.Body.Close()
		w.WriteHeader(resp.StatusCode)
	})))
	defer middle.Close()
	resp, err := newClient(t).Get(middle.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if n.Load() != 3 {
		t.Fatalf("bottom saw %d requests, want 3 (retries at one layer)", n.Load())
	}

	// Control: without the middleware the middle layer retries too.
	n.Store(0)
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		resp, err := inner.Get(bottom.URL)
		if err == nil {
			resp.Body.Close()
			w.WriteHeader(resp.StatusCode)
		}
	}))
	defer plain.Close()
	resp, err = newClient(t).Get(plain.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if n.Load() != 9 {
		t.Fatalf("without Middleware: bottom saw %d, want 9", n.Load())
	}
}

func TestPropagate(t *testing.T) {
	leaktest.Check(t)
	var got atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Get(HeaderRetryOwned))
	}))
	defer srv.Close()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: Propagate(tr)}
	for _, owned := range []bool{false, true} {
		ctx := context.Background()
		if owned {
			ctx = resil.WithRetryOwned(ctx)
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if (got.Load() == "1") != owned || req.Header.Get(HeaderRetryOwned) != "" {
			t.Fatalf("owned=%v: header %q; the caller's request must not be modified", owned, got.Load())
		}
	}
}

func TestIdempotent(t *testing.T) {
	for _, c := range []struct {
		method, key string
		body        bool
		want        bool
	}{
		{"GET", "", false, true}, {"PUT", "", true, true}, {"DELETE", "", false, true},
		{"POST", "", true, false}, {"PATCH", "", false, false}, {"POST", "k", true, true},
	} {
		var body io.Reader
		if c.body {
			body = strings.NewReader("x")
		}
		req, _ := http.NewRequest(c.method, "http://h/", body)
		if c.key != "" {
			req.Header.Set("Idempotency-Key", c.key)
		}
		if Idempotent(req) != c.want {
			t.Errorf("%s key=%q: Idempotent=%v", c.method, c.key, !c.want)
		}
	}
	req, _ := http.NewRequest("PUT", "http://h/", io.NopCloser(strings.NewReader("x"))) // no GetBody
	if Idempotent(req) {
		t.Error("a body that cannot be replayed must not be retried")
	}
}
