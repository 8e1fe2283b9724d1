// Package senders: a request built on Background handed to a helper that
// sends it, where the caller's context exists.
package senders

import (
	"context"
	"net/http"
	"time"
)

type Client struct{ hc *http.Client }

func New() *Client { return &Client{hc: &http.Client{Timeout: 5 * time.Second}} }

func (c *Client) do(req *http.Request) (*http.Response, error) { return c.hc.Do(req) }

func (c *Client) Get(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.do(req) // want `\(\*senders.Client\).do is given a request built on context.Background\(\) although this function has the caller's context \(ctx\), and sends it with \(\*http.Client\).Do`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) Fine(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
