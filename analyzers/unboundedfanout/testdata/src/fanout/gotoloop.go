package fanout

import (
	"net/http"
	"time"
)

// A goto loop that ends when the work succeeds is a retry, not a worker:
// each goroutine is a unit of work.
func RetryingGoto(ids []string) {
	for _, id := range ids {
		go func() { // want `one goroutine per element of ids`
		again:
			resp, err := http.Get("http://catalog.internal/items/" + id)
			if err == nil {
				resp.Body.Close()
				return
			}
			time.Sleep(time.Second)
			goto again
		}()
	}
}
