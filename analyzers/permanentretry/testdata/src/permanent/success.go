package permanent

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

func (c *client) post(ctx context.Context, body string) (int, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, nil)
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// Success is 202 Accepted only: a 404 goes round like with 200.
func (c *client) acceptedOnly(ctx context.Context, body string) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		status, err := c.post(ctx, body)
		if err == nil && status == http.StatusAccepted {
			return nil
		}
		if err != nil {
			lastErr = err
		} else if status != http.StatusAccepted { // want `this condition sends permanent 4xx statuses \(400, 403, 404, 409, 410, 422, ...\) back into the retry loop`
			lastErr = fmt.Errorf("status %d", status)
		}
		if err := sleep(ctx, attempt); err != nil {
			return err
		}
	}
	return lastErr
}

// The same with the response of hc.Do and 204 No Content.
func (c *client) noContentOnly(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err == nil && resp.StatusCode == http.StatusNoContent { // want `permanent 4xx statuses`
			resp.Body.Close()
			return nil
		}
		if err := sleep(ctx, attempt); err != nil {
			return err
		}
	}
	return errors.New("gave up")
}

// 4xx returns before the retry: fine.
func (c *client) acceptedFourFirst(ctx context.Context, body string) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		status, err := c.post(ctx, body)
		if err == nil && status == http.StatusAccepted {
			return nil
		}
		if err == nil && status >= 400 && status < 500 && status != http.StatusTooManyRequests {
			return fmt.Errorf("status %d", status)
		}
		lastErr = fmt.Errorf("status %d: %v", status, err)
		if err := sleep(ctx, attempt); err != nil {
			return err
		}
	}
	return lastErr
}

// 201 or 202 leave, 5xx goes round, anything else returns: fine.
func (c *client) createdSwitch(ctx context.Context, body string) error {
	for attempt := 0; attempt < 3; attempt++ {
		status, err := c.post(ctx, body)
		if err != nil {
			if err := sleep(ctx, attempt); err != nil {
				return err
			}
			continue
		}
		switch {
		case status == http.StatusCreated, status == http.StatusAccepted:
			return nil
		case status >= 500:
			if err := sleep(ctx, attempt); err != nil {
				return err
			}
			continue
		}
		return fmt.Errorf("status %d", status)
	}
	return errors.New("gave up")
}
