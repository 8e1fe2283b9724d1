package fixes

import (
	"context"
	"net/http"
)

// No fix handing on a context variable that was given another context: the
// group that made it cancels it when it is waited for.

type waiter struct{ cancel func() }

func newWaiter(ctx context.Context) (*waiter, context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	return &waiter{cancel: cancel}, ctx
}

func (w *waiter) Wait() error { w.cancel(); return nil }

func notifyAfter(ctx context.Context, url string) error {
	w, ctx := newWaiter(ctx)
	if err := w.Wait(); err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, url, nil) // want `http.NewRequest gives the request context.Background\(\), which has no deadline, although this function has the caller's context`
	if err != nil {
		return err
	}
	_ = ctx
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
