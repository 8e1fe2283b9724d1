// Package client stands for the Docker Engine API client: an HTTP client of
// the Docker daemon, reached over a unix socket unless DOCKER_HOST or
// WithHost says otherwise.
package client

import (
	"context"
	"net/http"
	"os"
)

type Client struct {
	hc   *http.Client
	host string
}

type Opt func(*Client) error

func FromEnv(c *Client) error {
	if h := os.Getenv("DOCKER_HOST"); h != "" {
		c.host = h
	}
	return nil
}

func WithHost(h string) Opt { return func(c *Client) error { c.host = h; return nil } }

func NewClientWithOpts(opts ...Opt) (*Client, error) {
	c := &Client{hc: &http.Client{}, host: "unix:///var/run/docker.sock"}
	for _, o := range opts {
		if err := o(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

type Stats struct{ Body *http.Response }

func (c *Client) ContainerStats(ctx context.Context, id string, stream bool) (Stats, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+c.host+"/containers/"+id+"/stats", nil)
	if err != nil {
		return Stats{}, err
	}
	resp, err := c.hc.Do(req)
	return Stats{Body: resp}, err
}

type ImageRemoveOptions struct{ Force bool }

func (c *Client) ImageRemove(ctx context.Context, id string, opts ImageRemoveOptions) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, "http://"+c.host+"/images/"+id, nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err == nil {
		resp.Body.Close()
	}
	return err
}
