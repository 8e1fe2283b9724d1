package permanent

import (
	"context"
	"net/http"
	"time"
)

const sidecar = "http://localhost:15020"

// A readiness poll of a process on this machine (loopback): no dependency
// to spare, whatever status it waits for (issue 13, rule 1).
func waitSidecar(ctx context.Context) error {
	hc := &http.Client{Timeout: time.Second}
	for attempt := 0; attempt < 30; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, sidecar+"/healthz/ready", nil)
		if err != nil {
			return err
		}
		if resp, err := hc.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(time.Second)
	}
	return context.DeadlineExceeded
}

// The same poll of a remote service sends its 4xx round again.
func waitRemote(ctx context.Context) error {
	hc := &http.Client{Timeout: time.Second}
	for attempt := 0; attempt < 30; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://inventory.example.com/ready", nil)
		if err != nil {
			return err
		}
		if resp, err := hc.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK { // want `this condition sends permanent 4xx statuses`
				return nil
			}
		}
		time.Sleep(time.Second)
	}
	return context.DeadlineExceeded
}
