package store

import (
	"context"
	"net/http"
	"time"
)

func Fetch(ctx context.Context, c *http.Client, url string) (*http.Response, error) {
	tctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(tctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return c.Do(req)
}

func Handler(w http.ResponseWriter, r *http.Request) {
	req, err := http.NewRequestWithContext(context.TODO(), http.MethodGet, "http://backend/x", nil)
	if err != nil {
		return
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return
	}
	resp.Body.Close()
}
