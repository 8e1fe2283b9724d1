package permanent

import (
	"context"
	"errors"
)

// The status class held in a variable: 4 goes round like 5.
func (c *client) classVar(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		class := resp.StatusCode / 100
		if class == 2 {
			return nil
		}
		if class == 4 || class == 5 { // want `permanent 4xx statuses`
			continue
		}
		return errors.New("unexpected")
	}
	return errors.New("gave up")
}

// Only the 5xx class goes round.
func (c *client) classVarServer(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		class := resp.StatusCode / 100
		if class == 2 {
			return nil
		}
		if class == 5 {
			continue
		}
		return errors.New("unexpected")
	}
	return errors.New("gave up")
}
