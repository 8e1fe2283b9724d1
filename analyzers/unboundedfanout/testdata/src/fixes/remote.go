package fixes

import (
	"context"
	"net/http"
)

// render and touch are the remote work of the goroutines the fixes bound:
// requests to one service each, the item the payload.
func render(ctx context.Context, p Photo) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://images.internal/render?src="+p.URL, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func touch(ctx context.Context, id string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, "http://store.internal/items/"+id, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
