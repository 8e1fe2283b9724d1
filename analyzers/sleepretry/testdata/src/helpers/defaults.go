package helpers

import "github.com/hashicorp/go-retryablehttp"

// A library's default delay is not a choice made at the call: not reported
// there (retryablehttp's default backoff).
func fetchDefault(url string) error {
	resp, err := retryablehttp.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
