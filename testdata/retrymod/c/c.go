// Package c is the bottom of a three-package chain: it retries 3 times.
package c

import (
	"context"
	"math/rand"
	"net/http"
	"time"
)

type Store struct {
	hc   *http.Client
	base string
}

func (s *Store) fetch(ctx context.Context, key string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/"+key, nil)
		if err != nil {
			return err
		}
		var resp *http.Response
		resp, err = s.hc.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int63n(int64(100*time.Millisecond) << attempt))):
		}
	}
	return err
}

// Get forwards to fetch, which retries.
func (s *Store) Get(ctx context.Context, key string) error {
	return s.fetch(ctx, key)
}

// Once makes a single request.
func (s *Store) Once(ctx context.Context, key string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/"+key, nil)
	if err != nil {
		return err
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
