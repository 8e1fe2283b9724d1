// Package permhelper has retry loops whose status check is done in a
// helper of the package.
package permhelper

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

type client struct {
	hc   *http.Client
	base string
}

func (c *client) newRequest(ctx context.Context) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, http.MethodGet, c.base, nil)
}

var errPermanent = errors.New("permanent")

// checkResponse returns an error for every 4xx but 429: the loop below
// returns it, and only 5xx go round.
func checkResponse(resp *http.Response) error {
	if resp.StatusCode == http.StatusTooManyRequests {
		return nil
	}
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		return fmt.Errorf("%w: status %d", errPermanent, resp.StatusCode)
	}
	return nil
}

func (c *client) helperReturns4xx(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if err := checkResponse(resp); err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

// checkServer returns an error for 5xx only: a 4xx passes it and goes
// round below.
func checkServer(resp *http.Response) error {
	if resp.StatusCode >= 500 {
		return fmt.Errorf("server: status %d", resp.StatusCode)
	}
	return nil
}

func (c *client) helperPasses4xx(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if err := checkServer(resp); err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK { // want `permanent 4xx statuses`
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

// checkAny returns an error for every status but 2xx: it does not
// separate 4xx, and the loop retries whatever it returns.
func checkAny(resp *http.Response) error {
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	return fmt.Errorf("status %d", resp.StatusCode)
}

func (c *client) helperAll(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if err := checkAny(resp); err != nil { // want `permanent 4xx statuses`
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

// permanent says whether a response is a 4xx a retry cannot fix.
func permanent(resp *http.Response) bool {
	switch resp.StatusCode {
	case http.StatusRequestTimeout, http.StatusTooManyRequests:
		return false
	}
	return resp.StatusCode >= 400 && resp.StatusCode < 500
}

func (c *client) boolHelper(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if permanent(resp) {
			return errPermanent
		}
		if resp.StatusCode >= 400 {
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

// ok is true for 200 only: every other status goes round.
func ok(resp *http.Response) bool {
	if resp.StatusCode == http.StatusOK {
		return true
	}
	return false
}

func (c *client) boolAll(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if ok(resp) { // want `permanent 4xx statuses`
			return nil
		}
	}
	return errors.New("gave up")
}

// classify returns a distinct error for 4xx, and another for the rest.
func classify(resp *http.Response) error {
	switch {
	case resp.StatusCode < 300:
		return nil
	case resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests:
		return errPermanent
	}
	return fmt.Errorf("status %d", resp.StatusCode)
}

func (c *client) distinctError(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		err = classify(resp)
		if err == nil {
			return nil
		}
		if errors.Is(err, errPermanent) {
			return err
		}
		if resp.StatusCode >= 400 {
			continue
		}
	}
	return errors.New("gave up")
}

// retryable is an allowlist of statuses, in more than one statement.
func retryable(code int) bool {
	if code == http.StatusTooManyRequests {
		return true
	}
	return code >= 500
}

func (c *client) intAllow(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode < 300 {
			return nil
		}
		if !retryable(resp.StatusCode) {
			return errPermanent
		}
	}
	return errors.New("gave up")
}

// failedCode is true for every status from 400.
func failedCode(code int) bool {
	if code < 400 {
		return false
	}
	return true
}

func (c *client) intAll(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if failedCode(resp.StatusCode) { // want `permanent 4xx statuses`
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

// A helper that fetches a response of its own: its status is not the
// loop's call's, and it is not evaluated.
func (c *client) probe(resp *http.Response) error {
	r, err := c.hc.Get(c.base + "/health")
	if err != nil {
		return err
	}
	r.Body.Close()
	if r.StatusCode >= 400 {
		return errPermanent
	}
	return nil
}

func (c *client) helperOwnResponse(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if err := c.probe(resp); err != nil {
			return err
		}
		if resp.StatusCode >= 400 { // want `permanent 4xx statuses`
			continue
		}
		return nil
	}
	return errors.New("gave up")
}
