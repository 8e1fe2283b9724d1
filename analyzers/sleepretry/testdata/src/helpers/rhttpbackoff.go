package helpers

import (
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// A retrying client whose Backoff returns one constant: every retry of
// every request waits the same time, reported where it is set even though
// the requests are sent out of sight.
func newUploadClient() *http.Client {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 5
	rc.Backoff = func(_, _ time.Duration, _ int, _ *http.Response) time.Duration { // want `this retryablehttp client waits the same delay before every attempt`
		return 2 * time.Second
	}
	return rc.StandardClient()
}

// The library's jittered strategy: silent.
func newDownloadClient() *retryablehttp.Client {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 3
	rc.Backoff = retryablehttp.LinearJitterBackoff
	return rc
}

// The constant strategy on a client that never retries: silent.
func newSingleShot() *retryablehttp.Client {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 0
	rc.Backoff = func(_, _ time.Duration, _ int, _ *http.Response) time.Duration { return time.Second }
	return rc
}
