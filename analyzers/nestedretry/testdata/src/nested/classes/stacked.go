package classes

import (
	"context"
	"errors"
	"net/http"
	"time"
)

func postOnce(ctx context.Context, hc *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 500 {
		return errors.New(resp.Status)
	}
	return nil
}

// Two retry loops stacked in one function around one request: every
// outer attempt runs the inner loop to its end.
func pushStacked(ctx context.Context, hc *http.Client, url string) error {
	var err error
	for round := 0; round < 3; round++ {
		for attempt := 0; attempt < 4; attempt++ { // want `retry amplification 3×4 = 12: this inner retry loop \(4 attempts\) runs to its end on every attempt of the loop around it \(3 attempts\)`
			if err = postOnce(ctx, hc, url); err == nil {
				return nil
			}
			time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
		}
		time.Sleep(time.Second)
	}
	return err
}

// A retry loop per item of a batch: the outer loop moves on, it retries
// nothing.
func pushEach(ctx context.Context, hc *http.Client, urls []string) error {
	var errs []error
	for _, u := range urls {
		var err error
		for attempt := 0; attempt < 4; attempt++ {
			if err = postOnce(ctx, hc, u); err == nil {
				break
			}
			time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// A periodic sync whose every round retries: the outer loop paces the
// rounds, success and failure alike.
func syncForever(ctx context.Context, hc *http.Client, url string) {
	for ctx.Err() == nil {
		for attempt := 0; attempt < 3; attempt++ {
			if err := postOnce(ctx, hc, url); err == nil {
				break
			}
			time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond)
		}
		time.Sleep(time.Minute)
	}
}
