// Package retryablehttp is a stub of github.com/hashicorp/go-retryablehttp
// (v0.7.8 signatures) for tests.
package retryablehttp

import (
	"context"
	"net/http"
	"time"
)

type Request struct {
	*http.Request
}

func NewRequest(method, url string, rawBody interface{}) (*Request, error) { return nil, nil }

func NewRequestWithContext(ctx context.Context, method, url string, rawBody interface{}) (*Request, error) {
	return nil, nil
}

type Client struct {
	HTTPClient   *http.Client
	Logger       interface{}
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
	RetryMax     int
	Backoff      Backoff
}

// Backoff is the delay strategy between retries.
type Backoff func(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration

func DefaultBackoff(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration {
	return min
}

func LinearJitterBackoff(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration {
	return min
}

func NewClient() *Client { return &Client{RetryMax: 4} }

func (c *Client) Do(req *Request) (*http.Response, error) { return nil, nil }
func (c *Client) Get(url string) (*http.Response, error)  { return nil, nil }
func (c *Client) Post(url, bodyType string, body interface{}) (*http.Response, error) {
	return nil, nil
}
func (c *Client) StandardClient() *http.Client { return nil }

func Get(url string) (*http.Response, error)                              { return nil, nil }
func Post(url, bodyType string, body interface{}) (*http.Response, error) { return nil, nil }
