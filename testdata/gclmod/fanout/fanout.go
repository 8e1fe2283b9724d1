// Package fanout starts a goroutine per item: unboundedfanout.
package fanout

import (
	"net/http"
	"sync"
	"time"
)

var client = &http.Client{Timeout: 5 * time.Second}

// Warm fetches every URL at once, however many there are.
func Warm(urls []string) {
	var wg sync.WaitGroup
	for _, u := range urls {
		wg.Add(1)
		go func() { // want:unboundedfanout
			defer wg.Done()
			resp, err := client.Get(u)
			if err == nil {
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
}
