// Package transport makes the module's retrying HTTP clients.
package transport

import "github.com/hashicorp/go-retryablehttp"

// NewRetrying retries 4 times: 5 attempts.
func NewRetrying() *retryablehttp.Client {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 4
	return rc
}

// NewSingleShot switches the retries off.
func NewSingleShot() *retryablehttp.Client {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 0
	return rc
}
