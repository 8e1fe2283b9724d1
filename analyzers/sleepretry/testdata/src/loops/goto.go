package loops

import (
	"context"
	"math/rand/v2"
	"net/http"
	"time"
)

// A retry written with a label and a goto back to it is a retry loop: the
// statements from the label on are its body, the goto goes round.
func gotoFixed(url string) error {
	attempt := 0
again:
	resp, err := http.Post(url, "application/json", nil)
	if err != nil || resp.StatusCode >= 500 {
		if resp != nil {
			resp.Body.Close()
		}
		if attempt < 3 {
			attempt++
			time.Sleep(time.Second) // want `retry loop waits the same time.Second before every attempt`
			goto again
		}
		return err
	}
	return resp.Body.Close()
}

// Nothing bounds it.
func gotoForever(hc *http.Client, url string) *http.Response {
retry: // want `retry loop has no attempt limit and no context or deadline to stop it`
	resp, err := hc.Get(url)
	if err != nil {
		time.Sleep(time.Duration(500+rand.IntN(500)) * time.Millisecond)
		goto retry
	}
	return resp
}

// Bounded, jittered and ended by the context: silent.
func gotoGood(ctx context.Context, hc *http.Client, req *http.Request) (*http.Response, error) {
	n := 0
retry:
	resp, err := hc.Do(req.WithContext(ctx))
	if err != nil && n < 3 {
		n++
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(rand.Int64N(int64(time.Second)))):
		}
		goto retry
	}
	return resp, err
}

// A goto forward is no loop.
func gotoForward(hc *http.Client, req *http.Request) error {
	resp, err := hc.Do(req)
	if err != nil {
		goto fail
	}
	resp.Body.Close()
	return nil
fail:
	time.Sleep(time.Second)
	return err
}

func leaderless() bool { return false }

// A wait before the first attempt only (the counter at its start), in a
// goto loop as in a for loop: no backoff between attempts.
func gotoFirstWait(hc *http.Client, url string) error {
	var tries int
retry:
	if tries == 0 && leaderless() {
		time.Sleep(time.Second)
	}
	tries++
	if tries > 3 {
		return http.ErrHandlerTimeout
	}
	resp, err := hc.Get(url)
	if err != nil {
		goto retry
	}
	return resp.Body.Close()
}

func forFirstWait(hc *http.Client, url string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt == 0 {
			time.Sleep(time.Second)
		}
		var resp *http.Response
		if resp, err = hc.Get(url); err == nil {
			return resp.Body.Close()
		}
	}
	return err
}
