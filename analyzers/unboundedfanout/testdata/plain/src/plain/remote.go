package plain

import (
	"context"
	"net/http"
)

// fetch is the goroutines' remote work: a request to one service, the id
// its payload.
func fetch(ctx context.Context, id string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://store.internal/items/"+id, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
