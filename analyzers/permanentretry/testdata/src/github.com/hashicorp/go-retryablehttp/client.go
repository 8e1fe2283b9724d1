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

func NewRequestWithContext(ctx context.Context, method, url string, rawBody interface{}) (*Request, error) {
	return nil, nil
}

// CheckRetry decides whether to retry after a response or an error.
type CheckRetry func(ctx context.Context, resp *http.Response, err error) (bool, error)

type Client struct {
	HTTPClient   *http.Client
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
	RetryMax     int
	CheckRetry   CheckRetry
}

func NewClient() *Client { return &Client{RetryMax: 4, CheckRetry: DefaultRetryPolicy} }

func (c *Client) Do(req *Request) (*http.Response, error) { return nil, nil }

func DefaultRetryPolicy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	return false, nil
}

func ErrorPropagatedRetryPolicy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	return false, nil
}
