// Package fanout starts a goroutine per item: unboundedfanout.
package fanout

import (
	"net/http"
	"sync"
	"time"
)

var client = &http.Client{Timeout: 5 * time.Second}

// Warm asks the cache service to warm every id at once, however many there
// are: one goroutine per id, all against the same service.
func Warm(ids []string) {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() { // want:unboundedfanout
			defer wg.Done()
			resp, err := client.Get("https://cache.internal/warm?id=" + id)
			if err == nil {
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
}
