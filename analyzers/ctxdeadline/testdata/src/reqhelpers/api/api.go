// Package api sends the requests it is given, and builds requests without
// a context for its callers.
package api

import (
	"net/http"
	"time"
)

var plain = &http.Client{}

// Send sends req with a client that has no Timeout.
func Send(req *http.Request) (*http.Response, error) { return plain.Do(req) }

var bounded = &http.Client{Timeout: 5 * time.Second}

// SendBounded sends req with a client that has one.
func SendBounded(req *http.Request) (*http.Response, error) { return bounded.Do(req) }

// Build returns requests built without a context, one per URL.
func Build(urls []string) ([]*http.Request, error) {
	var reqs []*http.Request
	for _, u := range urls {
		req, err := http.NewRequest(http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, req)
	}
	return reqs, nil
}

// BuildSized is Build with the slice made first.
func BuildSized(urls []string) ([]*http.Request, error) {
	reqs := make([]*http.Request, 0, len(urls))
	for _, u := range urls {
		req, err := http.NewRequest(http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, req)
	}
	return reqs, nil
}

// Pair returns a name and a request built without a context.
func Pair(u string) (string, *http.Request, error) {
	req, err := http.NewRequest(http.MethodGet, u, nil)
	return u, req, err
}
