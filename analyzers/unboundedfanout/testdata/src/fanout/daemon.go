package fanout

import (
	"context"
	"sync"

	docker "github.com/docker/docker/client"
)

// The client of a daemon of this machine (the Docker engine, over a unix
// socket unless configured otherwise) is no proven remote dependency: one
// goroutine per container is silent (issue 13, rules 1 and 5).

type containerStats struct{ cli *docker.Client }

func (s containerStats) gatherAll(ctx context.Context, ids []string) {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.gather(ctx, id)
		}()
	}
	wg.Wait()
}

func (s containerStats) gather(ctx context.Context, id string) {
	if st, err := s.cli.ContainerStats(ctx, id, false); err == nil && st.Body != nil {
		st.Body.Body.Close()
	}
}

func (s containerStats) gatherEach(ctx context.Context, ids []string) {
	for _, id := range ids {
		go s.cli.ContainerStats(ctx, id, false)
	}
}
