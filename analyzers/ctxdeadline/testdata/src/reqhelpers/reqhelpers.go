// Package reqhelpers: requests sent or built by helpers, in this package
// and another; the caller's send is judged.
package reqhelpers

import (
	"context"
	"net/http"

	"reqhelpers/api"
)

type Client struct {
	hc   *http.Client
	base string
}

func New(base string) *Client { return &Client{hc: &http.Client{}, base: base} }

// do sends the request it is given with the client's hc, which has no
// Timeout.
func (c *Client) do(req *http.Request) (*http.Response, error) { return c.hc.Do(req) }

func (c *Client) Status() error {
	req, err := http.NewRequest(http.MethodGet, c.base+"/status", nil) // want `http.NewRequest gives the request context.Background\(\), which has no deadline, and \(\*reqhelpers.Client\).do on line 28 sends it with \(\*http.Client\).Do`
	if err != nil {
		return err
	}
	resp, err := c.do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) Ping() error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, c.base+"/ping", nil)
	if err != nil {
		return err
	}
	resp, err := api.Send(req) // want `api.Send is given a request built on context.Background\(\), which has no deadline, and sends it with \(\*http.Client\).Do, which nothing else bounds`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func Bounded(url string) error {
	req, err := http.NewRequest(http.MethodGet, url, nil) // the helper's client has a Timeout: silent
	if err != nil {
		return err
	}
	resp, err := api.SendBounded(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func All(urls []string) error {
	reqs, err := api.Build(urls)
	if err != nil {
		return err
	}
	for _, r := range reqs {
		resp, err := http.DefaultClient.Do(r) // want `\(\*http.Client\).Do sends a request that api.Build builds without a context, so it has no deadline and http.DefaultClient has no Timeout`
		if err != nil {
			return err
		}
		resp.Body.Close()
	}
	return nil
}

func AllSized(urls []string) error {
	reqs, err := api.BuildSized(urls)
	if err != nil {
		return err
	}
	for _, r := range reqs {
		resp, err := http.DefaultClient.Do(r) // want `\(\*http.Client\).Do sends a request that api.BuildSized builds without a context`
		if err != nil {
			return err
		}
		resp.Body.Close()
	}
	return nil
}

func AllWithContext(ctx context.Context, urls []string) error {
	reqs, err := api.Build(urls)
	if err != nil {
		return err
	}
	for _, r := range reqs {
		resp, err := http.DefaultClient.Do(r.WithContext(ctx)) // the caller's context at the send: silent
		if err != nil {
			return err
		}
		resp.Body.Close()
	}
	return nil
}

// A request a helper of another package builds without a context, sent by
// one that sends what it is given.
func SendPair(u string) error {
	_, req, err := api.Pair(u)
	if err != nil {
		return err
	}
	resp, err := api.Send(req) // want `api.Send is given a request that api.Pair builds without a context, so with no deadline, and sends it with \(\*http.Client\).Do, which nothing else bounds`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
