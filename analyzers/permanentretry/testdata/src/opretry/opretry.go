// Package opretry hands operations to backoff.Retry, which retries every
// error but one wrapped in backoff.Permanent.
package opretry

import (
	"context"
	"fmt"
	"net/http"

	"github.com/cenkalti/backoff/v4"
)

type StatusError struct{ Code int }

func (e *StatusError) Error() string { return fmt.Sprint(e.Code) }

func post(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}

func Send(ctx context.Context, url string) error {
	op := func() error {
		resp, err := post(ctx, url)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode >= 400 { // want `this condition returns an error for permanent 4xx statuses .* from the operation backoff.Retry retries`
			return &StatusError{Code: resp.StatusCode}
		}
		return nil
	}
	return backoff.Retry(op, backoff.NewExponentialBackOff())
}

func SendMarked(ctx context.Context, url string) error {
	return backoff.Retry(func() error {
		resp, err := post(ctx, url)
		if err != nil {
			return err
		}
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
			return &StatusError{Code: resp.StatusCode}
		case resp.StatusCode >= 400:
			return backoff.Permanent(&StatusError{Code: resp.StatusCode})
		}
		return nil
	}, backoff.NewExponentialBackOff())
}

func SendTransientOnly(ctx context.Context, url string) error {
	return backoff.Retry(func() error {
		resp, err := post(ctx, url)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			return fmt.Errorf("server: %s", resp.Status)
		}
		return nil
	}, backoff.NewExponentialBackOff())
}
