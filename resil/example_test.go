package resil_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"github.com/resilint/resilint/resil"
)

// Retry a flaky call; the caller's deadline is the budget.
func ExampleRetry() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	calls := 0
	err := resil.Retry(ctx, func(ctx context.Context) error {
		calls++
		if calls < 3 {
			return errors.New("connection reset")
		}
		return nil
	}, resil.BaseDelay(time.Millisecond), resil.Dependency("inventory"))
	fmt.Println(calls, err)
	// Output: 3 <nil>
}

// RetryValue returns the operation's value.
func ExampleRetryValue() {
	n, err := resil.RetryValue(context.Background(), func(ctx context.Context) (int, error) {
		return 42, nil
	})
	fmt.Println(n, err)
	// Output: 42 <nil>
}

// Permanent errors are returned at once; errors.Is still sees the cause.
func ExamplePermanent() {
	errNotFound := errors.New("not found")
	calls := 0
	err := resil.Retry(context.Background(), func(ctx context.Context) error {
		calls++
		return resil.Permanent(errNotFound)
	})
	fmt.Println(calls, errors.Is(err, errNotFound), resil.IsPermanent(err))
	// Output: 1 true true
}

// When Retry gives up it says why, and wraps the last real error.
func ExampleRetryError() {
	errDown := errors.New("503 from payments")
	err := resil.Retry(context.Background(), func(ctx context.Context) error { return errDown },
		resil.BaseDelay(0))
	var re *resil.RetryError
	fmt.Println(errors.As(err, &re), re.Attempts, errors.Is(err, errDown), errors.Is(err, resil.ErrAttemptsExhausted))
	fmt.Println(err)
	// Output:
	// true 3 true true
	// resil: gave up after 3 attempts: 503 from payments
}

// Retry at one layer only: the inner Retry sees the outer one's mark on the
// context and makes a single attempt, so the dependency sees 3 calls, not 9.
func ExampleRetryOwned() {
	var calls atomic.Int32
	inner := func(ctx context.Context) error {
		return resil.Retry(ctx, func(ctx context.Context) error {
			calls.Add(1)
			return errors.New("unavailable")
		}, resil.BaseDelay(0))
	}
	owned := false
	_ = resil.Retry(context.Background(), func(ctx context.Context) error {
		owned = resil.RetryOwned(ctx)
		return inner(ctx)
	}, resil.BaseDelay(0))
	fmt.Println("owned by the outer layer:", owned)
	fmt.Println("calls:", calls.Load())
	// Output:
	// owned by the outer layer: true
	// calls: 3
}

// A retry budget refuses retries beyond its tokens; the error says so.
func ExampleRetryBudget() {
	budget := resil.NewRetryBudget(0.1, 0, 1) // 10 % of requests, no floor, 1 retry banked
	err := resil.Retry(context.Background(), func(ctx context.Context) error {
		return errors.New("timeout")
	}, resil.UseBudget(budget), resil.Attempts(5), resil.BaseDelay(0))
	var re *resil.RetryError
	errors.As(err, &re)
	fmt.Println(re.Attempts, errors.Is(err, resil.ErrBudgetExhausted))
	// Output: 2 true
}

// Backoff draws a full-jitter delay: uniform in [0, min(max, base·2^attempt)].
func ExampleBackoff() {
	d := resil.Backoff(3, 100*time.Millisecond, 2*time.Second)
	fmt.Println(d >= 0 && d <= 800*time.Millisecond)
	// Output: true
}

// Sleep returns early, with the context's cause, when the context ends.
func ExampleSleep() {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("shutting down"))
	fmt.Println(resil.Sleep(ctx, time.Hour))
	// Output: shutting down
}

// CheckResponse classifies HTTP responses for Retry.
func ExampleCheckResponse() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	for _, path := range []string{"/missing", "/busy"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			panic(err)
		}
		err = resil.CheckResponse(resp) // closes the body on error
		var he *resil.HTTPError
		errors.As(err, &he)
		fmt.Println(he.StatusCode, resil.Retryable(err), he.RetryAfter())
	}
	fmt.Println(resil.RetryableStatus(429), resil.RetryableStatus(501))
	// Output:
	// 404 false 0s
	// 503 true 1s
	// true false
}

// A breaker per dependency, from the process-wide registry.
func ExampleBreakerFor() {
	b := resil.BreakerFor("example-ledger", resil.MinimumThroughput(5))
	for range 5 {
		_ = b.Do(context.Background(), func(ctx context.Context) error { return errors.New("ledger down") })
	}
	err := b.Do(context.Background(), func(ctx context.Context) error { return nil })
	fmt.Println(b.State(), errors.Is(err, resil.ErrOpen))
	// Output: open true
}

// Execute has gobreaker's shape, so call sites switch mechanically.
func ExampleBreaker_Execute() {
	b := resil.NewBreaker("example-execute")
	v, err := b.Execute(func() (any, error) { return "body", nil })
	fmt.Println(v, err, b.State())
	// Output: body <nil> closed
}

// A bulkhead with 1 slot and no queue rejects a second concurrent call.
func ExampleBulkhead() {
	bh := resil.NewBulkhead(1, 0)
	release, _ := bh.Acquire(context.Background())
	err := bh.Do(context.Background(), func(ctx context.Context) error { return nil })
	fmt.Println(err)
	release()
	fmt.Println(bh.Do(context.Background(), func(ctx context.Context) error { return nil }))
	// Output:
	// resil: bulkhead full
	// <nil>
}

// A bounded group stops launching after the first error.
func ExampleGroup() {
	g := resil.NewGroup(context.Background(), 1)
	for i := range 5 {
		g.Go(func(ctx context.Context) error {
			fmt.Println("task", i)
			if i == 1 {
				return errors.New("task 1 failed")
			}
			return nil
		})
	}
	fmt.Println(g.Wait())
	// Output:
	// task 0
	// task 1
	// task 1 failed
}

// ForEach fans out over a slice with bounded concurrency.
func ExampleForEach() {
	var sum atomic.Int64
	err := resil.ForEach(context.Background(), []int64{1, 2, 3, 4}, 2, func(ctx context.Context, v int64) error {
		sum.Add(v)
		return nil
	})
	fmt.Println(sum.Load(), err)
	// Output: 10 <nil>
}

// GRPCCode reads a gRPC status code by name, without importing gRPC.
func ExampleGRPCCode() {
	_, ok := resil.GRPCCode(errors.New("plain error"))
	fmt.Println(ok)
	// Output: false
}
