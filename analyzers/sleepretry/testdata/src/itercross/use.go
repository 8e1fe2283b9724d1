package itercross

import (
	"context"
	"net/http"
	"time"

	"itercross/retryiter"
)

func send(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://collector.example.com/v1", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// The pause is in another package's iterator: the loop is charged with it
// and reported at the range (issue 13, rule 9).
func flush(ctx context.Context) error {
	var err error
	for range retryiter.Attempts(4, 2*time.Second) { // want `^retry loop over an iterator that, between yields \(retryiter.go:19\), waits the same 2 \* time.Second before every attempt, and waits with time.Sleep, which ignores this loop's ctx: `
		if err = send(ctx); err == nil {
			return nil
		}
	}
	return err
}

// A jittered pause that ends with ctx: nothing to say.
func flushGood(ctx context.Context) error {
	var err error
	for range retryiter.Backoff(ctx, 4) {
		if err = send(ctx); err == nil {
			return nil
		}
	}
	return err
}

// Ranging over the attempts for items, not retries: each iteration sends
// another item, and a failure moves on.
func sendAll(ctx context.Context, items []string) {
	for i := range retryiter.Attempts(len(items), time.Second) {
		_ = items[i]
		if err := send(ctx); err != nil {
			continue
		}
	}
}
