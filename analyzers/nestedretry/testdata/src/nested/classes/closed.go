package classes

import (
	"context"
	"errors"
	"math/rand"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

var errPending = errors.New("pending")

// status retries with retryablehttp, whose failures are its own: it never
// returns errPending, which status returns after a successful response.
func (a *api) status(ctx context.Context, rc *retryablehttp.Client) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, a.base, nil)
	if err != nil {
		return err
	}
	rc.RetryMax = 2
	resp, err := rc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.Header.Get("State") != "done" {
		return errPending
	}
	return nil
}

// The loop retries only errPending: a failure of the library layer leaves
// it at once, so the layers do not multiply.
func (a *api) waitDone(ctx context.Context, rc *retryablehttp.Client) error {
	for attempt := 0; attempt < 20; attempt++ {
		err := a.status(ctx, rc)
		if !errors.Is(err, errPending) {
			return err
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return errPending
}

// Every failure goes round: the library's too.
func (a *api) submit(ctx context.Context, rc *retryablehttp.Client) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = a.status(ctx, rc); err == nil { // want `retry amplification`
			return nil
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

func wait(ctx context.Context, attempt int) error {
	t := time.NewTimer(time.Duration(rand.Int63n(int64(50*time.Millisecond) << attempt)))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
