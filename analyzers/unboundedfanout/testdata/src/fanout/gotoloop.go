package fanout

import (
	"net/http"
	"strings"
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

// A URL built in place from constants and the payload: the same host for
// every goroutine.
type Catalog struct{}

func (Catalog) itemURL(id string) string {
	var sb strings.Builder
	sb.WriteString("https://catalog.internal/items/")
	sb.WriteString(id)
	return sb.String()
}

func (c Catalog) FetchAll(ids []string) {
	for _, id := range ids {
		go func() { // want `one goroutine per element of ids`
			if resp, err := http.Get(c.itemURL(id)); err == nil {
				resp.Body.Close()
			}
		}()
	}
}
