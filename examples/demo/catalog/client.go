// Package catalog is the client of the product catalog service.
package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

type Product struct {
	SKU   string `json:"sku"`
	Price int64  `json:"price"`
	Stock int    `json:"stock"`
}

// Client talks to the catalog service.
type Client struct {
	base string
	hc   *http.Client
}

func New(base string) *Client {
	return &Client{base: base, hc: &http.Client{}} // no Timeout: ctx is the only bound
}

// Product fetches one product. It retries, with a fixed pause, whatever
// went wrong.
func (c *Client) Product(ctx context.Context, sku string) (*Product, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/products/"+sku, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			if resp.StatusCode != http.StatusOK {
				resp.Body.Close()
				lastErr = fmt.Errorf("catalog: %s: status %d", sku, resp.StatusCode)
			} else {
				var p Product
				err = json.NewDecoder(resp.Body).Decode(&p)
				resp.Body.Close()
				return &p, err
			}
		} else {
			lastErr = err
		}
		time.Sleep(500 * time.Millisecond)
	}
	return nil, lastErr
}
