// Package retries retries: sleepretry, permanentretry, nestedretry.
package retries

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

var client = &http.Client{Timeout: 5 * time.Second}

// Fetch retries a GET three times with the same one-second pause, and
// retries 4xx answers too.
func Fetch(url string) (*http.Response, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := client.Get(url)
		if err == nil {
			if resp.StatusCode >= 400 { // want:permanentretry
				resp.Body.Close()
				lastErr = fmt.Errorf("status %d", resp.StatusCode)
			} else {
				return resp, nil
			}
		} else {
			lastErr = err
		}
		time.Sleep(time.Second) // want:sleepretry
	}
	return nil, lastErr
}

// FetchAll retries Fetch, which already retries: 3x3 requests.
func FetchAll(urls []string) error {
	for _, u := range urls {
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			var resp *http.Response
			resp, err = Fetch(u) // want:nestedretry
			if err == nil {
				resp.Body.Close()
				break
			}
			time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond) // want:sleepretry
		}
		if err != nil {
			return errors.Join(errors.New(u), err)
		}
	}
	return nil
}
