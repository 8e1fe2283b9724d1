package bounded

import (
	"context"
	"net/http"
)

// post is the remote work the goroutines of this package do: a request to
// the URL it is given.
func post(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ship sends an order to the shipping service: a goroutine per order
// would be fan-out against it, so every case here is bounded otherwise.
func ship(ctx context.Context, o Order) error {
	return post(ctx, "http://shipping.internal/orders/"+o.ID)
}
