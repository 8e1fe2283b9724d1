package loops

import (
	"context"
	"net/http"
	"time"

	docker "github.com/docker/docker/client"
)

// The client of a daemon of this machine (the Docker engine, over a unix
// socket unless configured otherwise) reaches no proven dependency:
// waiting for a container is a poll of local state (issue 13, rule 1).
func waitContainer(ctx context.Context, cli *docker.Client, id string) error {
	for {
		st, err := cli.ContainerStats(ctx, id, false)
		if err == nil {
			st.Body.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
}

// The same loop against a configured HTTP endpoint is a retry.
func waitEndpoint(ctx context.Context, hc *http.Client, url string) error {
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second) // want `retry loop waits the same time.Second before every attempt`
	}
}
