package fanout

import (
	"context"
	"fmt"
	"net/http"
	"sync"
)

// Fanning out requests to a loopback sidecar is local work (issue 13,
// rule 1); the same to a configured host is reported.

const sidecarHost = "localhost"

type sidecar struct {
	port int
	host string // given from outside
}

func (s sidecar) pushAll(ctx context.Context, ids []string) {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf("http://%s:%d/v1/items/%s", sidecarHost, s.port, id), nil)
			if err != nil {
				return
			}
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
}

func (s sidecar) pushAllRemote(ctx context.Context, ids []string) {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() { // want `one goroutine per element of ids with no limit`
			defer wg.Done()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf("http://%s:%d/v1/items/%s", s.host, s.port, id), nil)
			if err != nil {
				return
			}
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
}

func newSidecar(host string) sidecar { return sidecar{port: 8500, host: host} }
