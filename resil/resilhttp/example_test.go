package resilhttp_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"github.com/resilint/resilint/resil"
	"github.com/resilint/resilint/resil/resilhttp"
)

// One line makes a client hygienic: a default deadline, a breaker and a
// bulkhead per host, and retries of idempotent requests.
func ExampleNewClient() {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, "ok")
	}))
	defer srv.Close()

	client := resilhttp.NewClient(resilhttp.RetryOptions(resil.BaseDelay(time.Millisecond)))
	defer client.CloseIdleConnections()
	resp, err := client.Get(srv.URL)
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode, "after", n.Load(), "requests")
	// Output: 200 after 3 requests
}

// Middleware keeps retries at the layer that owns them, across HTTP hops.
func ExampleMiddleware() {
	handler := resilhttp.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println("retries owned upstream:", resil.RetryOwned(r.Context()))
	}))
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set(resilhttp.HeaderRetryOwned, "1")
	handler.ServeHTTP(httptest.NewRecorder(), req)
	// Output: retries owned upstream: true
}
