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

// An interface that abstracts the daemon's client: its signature takes the
// client's own types.
type imageClient interface {
	ImageRemove(ctx context.Context, id string, opts docker.ImageRemoveOptions) error
}

type imageCleaner struct{ images imageClient }

func (c imageCleaner) remove(ctx context.Context, id string) {
	for i := 0; i < 3; i++ {
		if err := c.images.ImageRemove(ctx, id, docker.ImageRemoveOptions{Force: true}); err == nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(3 * time.Second):
		}
	}
}

// The same loop through an interface of no daemon's types is reported.
type blobStore interface {
	Delete(ctx context.Context, id string) error
}

func removeBlob(ctx context.Context, s blobStore, id string) {
	for i := 0; i < 3; i++ {
		if err := s.Delete(ctx, id); err == nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(3 * time.Second): // want `retry loop waits the same 3 \* time.Second before every attempt`
		}
	}
}
